/// Numbers: RFC 8259's grammar (`-? int frac? exp?`), scanned without converting; the text is
/// kept as it is in `JSONValue.number`.
extension JSONParser {
    mutating func scanNumber() throws(JSONParseError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw truncated() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw JSONParseError(reason: .invalidNumber, offset: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count else { throw truncated() }
            guard isDigit(bytes[index]) else { throw JSONParseError(reason: .invalidNumber, offset: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { throw truncated() }
            guard isDigit(bytes[index]) else { throw JSONParseError(reason: .invalidNumber, offset: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
