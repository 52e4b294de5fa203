/// Unicode White_Space, as scalars and as the UTF-8 sequences titles hold.
extension TitleCleaner {
    /// Unicode White_Space (what `Character.isWhitespace` tests), as scalar values.
    @inline(__always)
    static func isWhitespace(_ v: UInt32) -> Bool {
        switch v {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// UTF-8 length of the non-ASCII White_Space scalar starting at `i`, or 0.
    @inline(__always)
    static func whitespaceLength(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let n = s.count
        switch s[i] {
        case 0xC2:  // U+0085, U+00A0
            if i + 1 < n && (s[i + 1] == 0x85 || s[i + 1] == 0xA0) { return 2 }
        case 0xE1:  // U+1680
            if i + 2 < n && s[i + 1] == 0x9A && s[i + 2] == 0x80 { return 3 }
        case 0xE2:  // U+2000...U+200A, U+2028, U+2029, U+202F, U+205F
            guard i + 2 < n else { return 0 }
            let c = s[i + 1], d = s[i + 2]
            if c == 0x80 && (d <= 0x8A || d == 0xA8 || d == 0xA9 || d == 0xAF) { return 3 }
            if c == 0x81 && d == 0x9F { return 3 }
        case 0xE3:  // U+3000
            if i + 2 < n && s[i + 1] == 0x80 && s[i + 2] == 0x80 { return 3 }
        default:
            break
        }
        return 0
    }
}
