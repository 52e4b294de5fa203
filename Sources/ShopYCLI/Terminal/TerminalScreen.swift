import ShopYCore
import ShopYBase
/// A model of the terminal browse draws on, enough to replay what the driver writes: cursor
/// moves (CUP), erase display, SGR (ignored), the private modes browse sets (alternate screen,
/// cursor, autowrap, bracketed paste), OSC strings, and UTF-8 text laid out by display width.
/// The pseudo-terminal tests and the benchmark read the screen from it.
public struct TerminalScreen: Sendable {
    public let rows: Int
    public let columns: Int
    public private(set) var cells: [[String]]
    public private(set) var cursor = (row: 0, column: 0)
    public private(set) var alternateScreen = false
    public private(set) var cursorVisible = true
    public private(set) var bracketedPaste = false
    public private(set) var autowrap = true
    /// The last OSC string (e.g. `52;c;…` from copy).
    public private(set) var lastOSC: String?
    private var pending: [UInt8] = []

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The screen's lines as text, trailing spaces removed.
    public var lines: [String] {
        cells.map { row in
            var line = row.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    public var text: String { lines.joined(separator: "\n") }

    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var i = 0
        var text: [UInt8] = []
        func flushText(_ screen: inout TerminalScreen) {
            if !text.isEmpty { screen.put(String(decoding: text, as: UTF8.self)) }
            text.removeAll()
        }
        scan: while i < pending.count {
            let b = pending[i]
            if b == 0x1B {
                guard i + 1 < pending.count else { break scan }
                if pending[i + 1] == 0x5B {
                    var j = i + 2
                    while j < pending.count && (0x20...0x3F).contains(pending[j]) { j += 1 }
                    guard j < pending.count else { break scan }
                    flushText(&self)
                    csi(String(decoding: pending[(i + 2)..<j], as: UTF8.self), final: pending[j])
                    i = j + 1
                } else if pending[i + 1] == 0x5D {
                    var j = i + 2
                    while j < pending.count && pending[j] != 0x07 && !(pending[j] == 0x1B && j + 1 < pending.count && pending[j + 1] == 0x5C) { j += 1 }
                    guard j < pending.count, pending[j] == 0x07 || j + 1 < pending.count else { break scan }
                    flushText(&self)
                    lastOSC = String(decoding: pending[(i + 2)..<j], as: UTF8.self)
                    i = j + (pending[j] == 0x07 ? 1 : 2)
                } else {
                    i += 2
                }
                continue
            }
            if b < 0x20 {
                flushText(&self)
                if b == 0x0D { cursor.column = 0 }
                if b == 0x0A { cursor.row = min(rows - 1, cursor.row + 1) }
                i += 1
                continue
            }
            // Hold back an incomplete UTF-8 character at the end.
            let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            guard i + length <= pending.count else { break scan }
            text.append(contentsOf: pending[i..<(i + length)])
            i += length
        }
        flushText(&self)
        pending.removeFirst(i)
    }

    private mutating func put(_ string: String) {
        for character in string {
            let width = DisplayWidth.of(character)
            guard width > 0, cursor.row < rows else { continue }
            if cursor.column + width > columns {
                guard autowrap else { continue }
                cursor = (min(rows - 1, cursor.row + 1), 0)
            }
            // Overwriting half of a wide character blanks its other half, as terminals do.
            if cursor.column > 0 && cells[cursor.row][cursor.column] == "" { cells[cursor.row][cursor.column - 1] = " " }
            cells[cursor.row][cursor.column] = String(character)
            if width == 2 { cells[cursor.row][cursor.column + 1] = "" }
            let after = cursor.column + width
            if after < columns && cells[cursor.row][after] == "" { cells[cursor.row][after] = " " }
            cursor.column = min(after, columns)
        }
    }

    private mutating func csi(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let numbers = (isPrivate ? String(parameters.dropFirst()) : parameters).split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch final {
        case 0x48, 0x66:  // CUP
            let row = (numbers.first ?? nil) ?? 1, column = (numbers.count > 1 ? numbers[1] : nil) ?? 1
            cursor = (max(0, min(rows - 1, row - 1)), max(0, min(columns - 1, column - 1)))
        case 0x4A:  // ED
            if (numbers.first ?? nil) == 2 {
                cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
            }
        case 0x4B:  // EL
            for c in cursor.column..<columns { cells[cursor.row][c] = " " }
        case 0x68, 0x6C:  // SM / RM
            guard isPrivate else { return }
            let on = final == 0x68
            for number in numbers {
                switch number {
                case 1049?:
                    alternateScreen = on
                    cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
                case 25?: cursorVisible = on
                case 2004?: bracketedPaste = on
                case 7?: autowrap = on
                default: break
                }
            }
        default:
            break
        }
    }
}
