/// Walking an object's members or an array's elements one at a time, for readers that build
/// their own values (the store, the wire decoders) instead of `JSONValue` trees.
extension JSONParser {
    /// to `body`, which either consumes the value or leaves it (then it is skipped). The parser
    /// must stand at `{`.
    public mutating func forEachMember(_ body: (_ key: String, _ valueStart: Int, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        let buffer = bytes
        try forEachMemberRaw { range, parser throws(JSONParseError) in
            let key: String
            if !buffer[range].contains(UInt8(ascii: "\\")), let plain = String(validating: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) {
                key = plain
            } else {
                // Escapes (or bytes to reject): decode the key as a string, from its quote.
                var keyParser = JSONParser(buffer, at: range.lowerBound - 1)
                key = try keyParser.parseString()
            }
            try body(key, parser.offset, &parser)
        }
    }

    /// Like `forEachMember`, but hands over the key's byte range (inside the quotes, escapes left
    /// as they are) instead of building a String: for hot loops that compare keys to constants.
    public mutating func forEachMemberRaw(_ body: (_ key: Range<Int>, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "{") else { throw unexpected() }
        try enter()
        index += 1
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let keyStart = index + 1
            try skipString()
            let key = keyStart..<(index - 1)
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let valueStart = index
            try body(key, &self)
            if index == valueStart { try skipValue() }
            if try !moreFollow(before: UInt8(ascii: "}")) { break }
        }
        depth -= 1
    }

    /// The byte at the current position (after whitespace), or nil at the end.
    public mutating func peekByte() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Walks an array, calling `body` at the start of each element; `body` either consumes the
    /// element or leaves the parser where it was (then the element is skipped).
    public mutating func forEachElement(_ body: (_ elementStart: Int, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "[") else { throw unexpected() }
        try enter()
        index += 1
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            let start = index
            try body(start, &self)
            if index == start { try skipValue() }
            if try !moreFollow(before: UInt8(ascii: "]")) { break }
        }
        depth -= 1
    }
}
