import ShopYCore
/// What the terminal sent: a key, or text pasted between bracketed-paste markers.
public enum KeyEvent: Equatable, Sendable {
    case key(Key)
    case paste(String)
}

/// Turns the bytes a terminal sends into keys: CSI and SS3 sequences (arrows, PgUp/PgDn,
/// Home/End, Delete, Shift-Tab), bracketed paste, UTF-8 text (Hangul from an input method),
/// control keys, and Esc versus Alt: an ESC with nothing after it waits for more bytes; if none
/// come within the driver's short timeout, `flush()` makes it Esc.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var paste: [UInt8]?
    static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~
    /// A paste longer than this is cut (the prompt would not take more anyway).
    public static let maxPaste = 64 * 1024

    public init() {}

    /// Bytes held back: an ESC that may start a sequence, half a UTF-8 character, a paste.
    public var hasPending: Bool { !pending.isEmpty || paste != nil }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// After the timeout: a lone ESC is Esc; an unfinished sequence is taken as it stands.
    public mutating func flush() -> [KeyEvent] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [KeyEvent] {
        var events: [KeyEvent] = []
        var i = 0
        defer { pending.removeFirst(i) }
        while i < pending.count {
            if paste != nil {
                if let end = find(Self.pasteEnd, from: i) {
                    appendPaste(pending[i..<end])
                    events.append(.paste(String(decoding: paste!, as: UTF8.self)))
                    paste = nil
                    i = end + Self.pasteEnd.count
                    continue
                }
                // Keep a possible start of the end marker for the next read.
                let keep = final ? 0 : min(Self.pasteEnd.count - 1, pending.count - i)
                appendPaste(pending[i..<(pending.count - keep)])
                i = pending.count - keep
                if final {
                    events.append(.paste(String(decoding: paste!, as: UTF8.self)))
                    paste = nil
                }
                break
            }
            let b = pending[i]
            switch b {
            case 0x1B:
                guard let (event, length) = escape(at: i, final: final) else { return events }
                if let event { events.append(event) }
                i += length
            case 0x0D, 0x0A:
                events.append(.key(.enter))
                i += 1
            case 0x09:
                events.append(.key(.tab))
                i += 1
            case 0x7F, 0x08:
                events.append(.key(.backspace))
                i += 1
            case 0x01...0x1A:
                events.append(.key(.ctrl(Character(Unicode.Scalar(b + 0x60)))))
                i += 1
            case 0x00...0x1F:
                i += 1
            default:
                guard let (scalar, length) = utf8(at: i) else {
                    if final { i = pending.count }
                    return events
                }
                if let scalar { events.append(.key(.char(scalar))) }
                i += length
            }
        }
        return events
    }

    private mutating func appendPaste(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maxPaste - paste!.count
        if room > 0 { paste!.append(contentsOf: bytes.prefix(room)) }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard pending.count - start >= needle.count else { return nil }
        var i = start
        while i + needle.count <= pending.count {
            if pending[i] == needle[0] && pending[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// One scalar of UTF-8 at `i`: nil when incomplete; a nil scalar (skipped) when invalid.
    private func utf8(at i: Int) -> (Unicode.Scalar?, Int)? {
        let b = pending[i]
        let length: Int
        switch b {
        case 0x20...0x7E: return (Unicode.Scalar(b), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        guard i + length <= pending.count else { return nil }
        var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length {
            let c = pending[i + k]
            guard c & 0xC0 == 0x80 else { return (nil, k) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), value >= [0, 0, 0x80, 0x800, 0x10000][length] else { return (nil, length) }
        // C1 controls never reach the reducer.
        return ((0x80...0x9F).contains(value) ? nil : scalar, length)
    }

    /// The sequence starting with ESC at `i`: nil when more bytes may complete it.
    private mutating func escape(at i: Int, final: Bool) -> (KeyEvent?, Int)? {
        guard i + 1 < pending.count else { return final ? (.key(.escape), 1) : nil }
        let next = pending[i + 1]
        switch next {
        case 0x5B:  // CSI
            var j = i + 2
            while j < pending.count && (0x20...0x3F).contains(pending[j]) { j += 1 }
            guard j < pending.count else { return final ? (.key(.escape), 1) : nil }
            let parameters = String(decoding: pending[(i + 2)..<j], as: UTF8.self)
            let first = Int(parameters.split(separator: ";").first ?? "") ?? 1
            let key: Key?
            switch pending[j] {
            case 0x41: key = .up
            case 0x42: key = .down
            case 0x43: key = .right
            case 0x44: key = .left
            case 0x48: key = .home
            case 0x46: key = .end
            case 0x5A: key = .backTab
            case 0x7E:
                switch first {
                case 1, 7: key = .home
                case 4, 8: key = .end
                case 3: key = .delete
                case 5: key = .pageUp
                case 6: key = .pageDown
                case 200:
                    paste = []
                    key = nil
                default: key = nil
                }
            default: key = nil
            }
            return (key.map { .key($0) }, j - i + 1)
        case 0x4F:  // SS3
            guard i + 2 < pending.count else { return final ? (.key(.alt("O")), 2) : nil }
            let map: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return (map[pending[i + 2]].map { .key($0) }, 3)
        case 0x1B:
            return (.key(.escape), 1)
        default:
            if next < 0x20 || next == 0x7F { return (.key(.escape), 1) }
            guard let (scalar, length) = utf8(at: i + 1) else { return final ? (.key(.escape), 1) : nil }
            return (scalar.map { .key(.alt($0)) }, 1 + length)
        }
    }
}
