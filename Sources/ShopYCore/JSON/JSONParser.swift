/// Why a JSON text could not be read, with the byte offset where it went wrong.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case empty
        case truncated
        case unexpected(String)
        case invalidString(String)
        case invalidNumber
        case trailingData
        case tooDeep
    }

    public var reason: Reason
    public var offset: Int

    public var description: String {
        switch reason {
        case .empty: return "it is empty"
        case .truncated: return "it ends too early at byte \(offset) (truncated?)"
        case .unexpected(let what): return "unexpected \(what) at byte \(offset)"
        case .invalidString(let why): return "invalid string at byte \(offset): \(why)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .trailingData: return "unexpected data after the end at byte \(offset)"
        case .tooDeep: return "nesting too deep at byte \(offset)"
        }
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes. It builds `JSONValue` trees, and it can also walk
/// a value without building anything (`skipValue`), which the store uses to validate and slice a
/// large file quickly.
public struct JSONParser {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index: Int
    private var depth = 0
    /// When false, `skipValue` does not check that strings are valid UTF-8: for callers that
    /// validated the whole buffer at once with `JSONParser.isValidUTF8`, which is much faster
    /// than checking string by string.
    public var validatesUTF8 = true
    private static let maxDepth = 512

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
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            index -= 1
            throw unexpected()
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
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "]") { break }
            index -= 1
            throw unexpected()
        }
        depth -= 1
        return array
    }

    /// Parses a string starting at its opening quote.
    public mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if let string = String(validating: slice, as: UTF8.self) { return string }
                throw JSONParseError(reason: .invalidString("not valid UTF-8"), offset: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONParseError(reason: .invalidString("raw control character"), offset: index) }
            index += 1
        }
        guard index < bytes.count else { throw truncated() }
        // Slow path: decode escapes into a byte buffer.
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                if let string = String(validating: out, as: UTF8.self) { return string }
                throw JSONParseError(reason: .invalidString("not valid UTF-8"), offset: start)
            }
            if byte < 0x20 { throw JSONParseError(reason: .invalidString("raw control character"), offset: index) }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw truncated() }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape()
                appendUTF8(scalar, to: &out)
            default:
                throw JSONParseError(reason: .invalidString("bad escape"), offset: index - 1)
            }
        }
        throw truncated()
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw truncated() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw JSONParseError(reason: .invalidString("bad \\u escape"), offset: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) -> UInt32 {
        let first = try parseHex4()
        if first >= 0xD800 && first < 0xDC00 {
            // A high surrogate must be followed by \u and a low surrogate.
            if index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let save = index
                index += 2
                let second = try parseHex4()
                if second >= 0xDC00 && second < 0xE000 {
                    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                }
                index = save
            }
            return 0xFFFD
        }
        if first >= 0xDC00 && first < 0xE000 { return 0xFFFD }
        return first
    }

    private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: - Walking without building

    /// Validates one value and moves past it; returns the byte range it occupied.
    @discardableResult
    public mutating func skipValue() throws(JSONParseError) -> Range<Int> {
        skipWhitespace()
        guard index < bytes.count else { throw truncated() }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try enter()
            index += 1
            skipWhitespace()
            if try peek() == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    skipWhitespace()
                    guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
                    try skipString()
                    try expect(UInt8(ascii: ":"))
                    try skipValue()
                    skipWhitespace()
                    let next = try peek()
                    index += 1
                    if next == UInt8(ascii: ",") { continue }
                    if next == UInt8(ascii: "}") { break }
                    index -= 1
                    throw unexpected()
                }
            }
            depth -= 1
        case UInt8(ascii: "["):
            try enter()
            index += 1
            skipWhitespace()
            if try peek() == UInt8(ascii: "]") {
                index += 1
            } else {
                while true {
                    try skipValue()
                    skipWhitespace()
                    let next = try peek()
                    index += 1
                    if next == UInt8(ascii: ",") { continue }
                    if next == UInt8(ascii: "]") { break }
                    index -= 1
                    throw unexpected()
                }
            }
            depth -= 1
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw unexpected()
        }
        return start..<index
    }

    /// Validates a string (escapes and UTF-8) without building it.
    public mutating func skipString() throws(JSONParseError) {
        index += 1
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C)
        let space = SIMD16<UInt8>(repeating: 0x20), high = SIMD16<UInt8>(repeating: 0x80)
        let base = UnsafeRawPointer(bytes.baseAddress)
        while index < bytes.count {
            // Sixteen bytes at a time past the ones that need no attention.
            if let base, index + 16 <= bytes.count {
                let v = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                var special = (v .== quote) .| (v .== backslash) .| (v .< space)
                if validatesUTF8 { special = special .| (v .>= high) }
                let lanes = unsafeBitCast(special, to: SIMD2<UInt64>.self)
                if lanes[0] == 0 && lanes[1] == 0 {
                    index += 16
                    continue
                }
                index += lanes[0] != 0 ? lanes[0].trailingZeroBitCount / 8 : 8 + lanes[1].trailingZeroBitCount / 8
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw truncated() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"): _ = try parseHex4()
                default: throw JSONParseError(reason: .invalidString("bad escape"), offset: index - 1)
                }
                continue
            }
            if byte < 0x20 { throw JSONParseError(reason: .invalidString("raw control character"), offset: index) }
            if byte < 0x80 || !validatesUTF8 {
                index += 1
                continue
            }
            try skipUTF8Sequence()
        }
        throw truncated()
    }

    /// Whether `bytes` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let high = SIMD16<UInt8>(repeating: 0x80)
        let n = bytes.count
        var i = 0
        while i < n {
            if i + 16 <= n {
                let v = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                if !any(v .>= high) {
                    i += 16
                    continue
                }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF  // bounds of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard i + length <= n, bytes[i + 1] >= lower, bytes[i + 1] <= upper else { return false }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }

    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07); minimum = 0x10000
        default: throw JSONParseError(reason: .invalidString("not valid UTF-8"), offset: index)
        }
        guard index + length <= bytes.count else { throw truncated() }
        for k in 1..<length {
            let byte = bytes[index + k]
            guard byte & 0xC0 == 0x80 else { throw JSONParseError(reason: .invalidString("not valid UTF-8"), offset: index) }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000) {
            throw JSONParseError(reason: .invalidString("not valid UTF-8"), offset: index)
        }
        index += length
    }

    /// Reads an object's members one by one, handing each key (decoded) and the value's start
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
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            index -= 1
            throw unexpected()
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
            skipWhitespace()
            let next = try peek()
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "]") { break }
            index -= 1
            throw unexpected()
        }
        depth -= 1
    }

    // MARK: - Pieces

    @inline(__always)
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw truncated() }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == byte else { throw unexpected() }
        index += 1
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maxDepth { throw JSONParseError(reason: .tooDeep, offset: index) }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
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

    private mutating func scanNumber() throws(JSONParseError) {
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

    private func truncated() -> JSONParseError { JSONParseError(reason: .truncated, offset: index) }

    private func unexpected() -> JSONParseError {
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
