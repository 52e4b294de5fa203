import ShopYCore
import ShopYBase
/// How a cell is drawn: SGR attributes and a foreground colour (ANSI 30–37, 0 = default).
public struct CellStyle: Hashable, Sendable {
    public var bold = false
    public var dim = false
    public var reverse = false
    public var color: UInt8 = 0

    public init(bold: Bool = false, dim: Bool = false, reverse: Bool = false, color: UInt8 = 0) {
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.color = color
    }

    public static let plain = CellStyle()
    public static let red: UInt8 = 31, green: UInt8 = 32, yellow: UInt8 = 33, magenta: UInt8 = 35, cyan: UInt8 = 36

    /// The SGR sequence that sets exactly this style (from a reset); without `color` (NO_COLOR,
    /// `--color never`) only bold, dim and reverse video are drawn.
    public func sgr(color useColor: Bool = true) -> String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if reverse { codes.append("7") }
        if color != 0 && useColor { codes.append(String(color)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// One terminal cell: a whole grapheme cluster (width 1 or 2), or the right half of a wide one.
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var style: CellStyle
    /// The second column of a wide character: drawn by the cell before it.
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: CellStyle = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }
}

/// A screenful: `rows` lines of exactly `columns` cells, and where the cursor shows (if anywhere).
public struct Frame: Equatable, Sendable {
    public let rows: Int
    public let columns: Int
    public var lines: [[Cell]]
    public var cursor: (row: Int, column: Int)?
    /// A picture the driver places over its region (whose cells the writer then leaves alone).
    public var picture: FramePicture?

    public init(rows: Int, columns: Int) {
        self.rows = max(0, rows)
        self.columns = max(0, columns)
        lines = Array(repeating: Array(repeating: Cell(), count: self.columns), count: self.rows)
    }

    public static func == (a: Frame, b: Frame) -> Bool {
        a.rows == b.rows && a.columns == b.columns && a.lines == b.lines && a.cursor?.row == b.cursor?.row && a.cursor?.column == b.cursor?.column
            && a.picture == b.picture
    }

    /// Writes `text` from `column` on `row`, by display width, never past `limit` (exclusive,
    /// default the line's end): a wide character that does not fit becomes a space, zero-width
    /// clusters are dropped, so no cell is ever broken. Returns the column after the text.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        guard lines.indices.contains(row) else { return column }
        let end = min(limit ?? columns, columns)
        var col = max(0, column)
        for character in text {
            if col >= end { break }
            let width = character.isASCII ? (character.asciiValue! >= 0x20 && character.asciiValue! < 0x7F ? 1 : 0) : DisplayWidth.of(character)
            if width == 0 { continue }
            breakOverlap(row: row, column: col, width: min(width, end - col))
            if width == 2 {
                if col + 1 >= end {
                    lines[row][col] = Cell(" ", style: style)
                    col += 1
                    break
                }
                lines[row][col] = Cell(character, style: style)
                lines[row][col + 1] = Cell(" ", style: style, isContinuation: true)
                col += 2
            } else {
                lines[row][col] = Cell(character, style: style)
                col += 1
            }
        }
        return col
    }

    /// Writing over half of a wide character: its other half becomes a space, so no broken
    /// cell is ever drawn.
    mutating func breakOverlap(row: Int, column: Int, width: Int) {
        if lines[row][column].isContinuation && column > 0 {
            lines[row][column - 1] = Cell(" ", style: lines[row][column - 1].style)
        }
        let after = column + width
        if after < columns && lines[row][after].isContinuation {
            lines[row][after] = Cell(" ", style: lines[row][after].style)
        }
    }

    /// Sets the style of cells `from..<to` on `row` (a highlighted row, a banner).
    public mutating func paint(row: Int, from: Int = 0, to: Int? = nil, style: CellStyle) {
        guard lines.indices.contains(row) else { return }
        for col in max(0, from)..<min(to ?? columns, columns) { lines[row][col].style = style }
    }

    /// `row` as text (trailing spaces kept), for tests.
    public func text(_ row: Int) -> String {
        var out = ""
        for cell in lines[row] where !cell.isContinuation { out.append(cell.character) }
        return out
    }

    /// Every line as text without trailing spaces, for tests and snapshots.
    public var plainText: [String] {
        (0..<rows).map { row in
            var line = text(row)
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
