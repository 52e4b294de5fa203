/// UTF-8 validation: of a whole buffer at once, and of one sequence inside a string.
extension JSONParser {
    /// Whether `bytes` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    public static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
        let high = SIMD16<UInt8>(repeating: 0x80)
        let n = bytes.count
        var i = 0
        while i < n {
            if i + 16 <= n {
                let v = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let lanes = unsafeBitCast(v .>= high, to: SIMD2<UInt64>.self)
                if lanes[0] == 0 && lanes[1] == 0 {
                    i += 16
                    continue
                }
                // Past the ASCII bytes before the first that is not.
                i += lanes[0] != 0 ? lanes[0].trailingZeroBitCount / 8 : 8 + lanes[1].trailingZeroBitCount / 8
            }
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            // A run of sequences beyond ASCII, up to the next ASCII byte.
            while i < n {
                let lead = bytes[i]
                if lead < 0x80 { break }
                // The common three-byte sequences (Hangul, CJK, most symbols: leads E1–EC and
                // EE–EF, whose second byte may be any continuation byte), checked at once.
                if lead &- 0xE1 < 0x0F, lead != 0xED, i + 3 <= n, (bytes[i + 1] ^ 0x80) | (bytes[i + 2] ^ 0x80) < 0x40 {
                    i += 3
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
        }
        return true
    }

    mutating func skipUTF8Sequence() throws(JSONParseError) {
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
}
