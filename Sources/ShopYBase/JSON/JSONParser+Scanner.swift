/// The scanner's pieces: whitespace, single bytes, nesting depth, literals, and the errors that
/// name where the text went wrong.
extension JSONParser {
    @inline(__always)
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw truncated() }
        return bytes[index]
    }

    mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == byte else { throw unexpected() }
        index += 1
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw JSONParseError(reason: .tooDeep, offset: index) }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        let start = word.utf8Start
        for k in 0..<count {
            guard index + k < bytes.count else {
                index += k
                throw truncated()
            }
            guard bytes[index + k] == start[k] else {
                index += k
                throw unexpected()
            }
        }
        index += count
    }


    func truncated() -> JSONParseError { JSONParseError(reason: .truncated, offset: index) }

    func unexpected() -> JSONParseError {
        guard index < bytes.count else { return truncated() }
        let byte = bytes[index]
        let what: String
        if byte >= 0x21 && byte < 0x7F {
            what = "'\(Character(Unicode.Scalar(byte)))'"
        } else {
            what = "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
        return JSONParseError(reason: .unexpected(what), offset: index)
    }
}
