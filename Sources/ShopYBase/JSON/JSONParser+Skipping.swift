/// Walking a value without building anything: what the store uses to validate and slice a large
/// file quickly.
extension JSONParser {
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
                    if try !moreFollow(before: UInt8(ascii: "}")) { break }
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
                    if try !moreFollow(before: UInt8(ascii: "]")) { break }
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
}
