/// A strict RFC 8259 parser over UTF-8 bytes. It builds `JSONValue` trees, and it can also walk
/// a value without building anything (`skipValue`), which the store uses to validate and slice a
/// large file quickly.
public struct JSONParser {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var index: Int
    var depth = 0
    /// When false, `skipValue` does not check that strings are valid UTF-8: for callers that
    /// validated the whole buffer at once with `JSONParser.isValidUTF8` (one pass over the
    /// bytes instead of one per string).
    public var validatesUTF8 = true
    static let maxDepth = 512

    public init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    public var offset: Int { index }

    /// Parses one complete document.
    public static func parse(_ data: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(data)
        let result: Result<JSONValue, JSONParseError> = array.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if index >= bytes.count { throw JSONParseError(reason: .empty, offset: index) }
        let value = try parseValue()
        try expectEnd()
        return value
    }

    public mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if index < bytes.count { throw JSONParseError(reason: .trailingData, offset: index) }
    }

    // MARK: - Building values

    public mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw truncated() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            try scanNumber()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        default:
            throw unexpected()
        }
    }

    /// After a member or an element: true past a comma (another follows), false past `close`
    /// (the object or array ends); anything else is unexpected, reported where it stands.
    @inline(__always)
    mutating func moreFollow(before close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        let next = try peek()
        index += 1
        if next == UInt8(ascii: ",") { return true }
        if next == close { return false }
        index -= 1
        throw unexpected()
    }

    mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try enter()
        index += 1  // {
        var object = JSONObject()
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return object
        }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let key = try parseString()
            try expect(UInt8(ascii: ":"))
            let value = try parseValue()
            object.appendUnchecked(key, value)
            if try !moreFollow(before: UInt8(ascii: "}")) { break }
        }
        depth -= 1
        return object
    }

    mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        try enter()
        index += 1  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return array
        }
        while true {
            array.append(try parseValue())
            if try !moreFollow(before: UInt8(ascii: "]")) { break }
        }
        depth -= 1
        return array
    }
}
