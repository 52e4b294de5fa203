/// Turns a product title from the Naver Shopping search API into plain text.
///
/// The API wraps query matches in `<b>…</b>` and HTML-escapes the rest (`&amp;`, `&quot;`,
/// `&#39;`…). Titles are cleaned by the tens of thousands while importing, so this works on UTF-8
/// bytes with one scratch buffer (on the stack for titles) and builds exactly one String, and
/// returns an already clean input as it is.
public enum TitleCleaner {
    /// Strips every HTML tag, decodes entities, collapses whitespace, trims.
    ///
    /// The steps happen in that order, as if one after the other: tags are stripped from the raw
    /// text first, so an escaped tag (`&lt;b&gt;`) decodes to the literal text `<b>` and stays;
    /// then entities are decoded; then every run of Unicode whitespace (including the U+00A0 of
    /// `&nbsp;`) becomes one ASCII space, and the ends are trimmed.
    ///
    /// - A tag is `<` followed by an ASCII letter, `/`, `!` or `?`, up to the next `>`. Any other
    ///   `<` (`5<10`, `a < b`) and a tag that never closes (`abc <b def`) are literal text:
    ///   dropping them would lose real title text.
    /// - Entities: `&#NNN;`, `&#xHH;` and the named ones that occur in shop titles, always with
    ///   their `;`. Anything else (`AT&T`, `&amp` without `;`, `&#xZZ;`, `&unknown;`) stays
    ///   literal. As in HTML5, a numeric entity for 0, a surrogate or a value beyond U+10FFFF
    ///   (however many digits) decodes to U+FFFD, and one in 0x80–0x9F to the windows-1252
    ///   character it meant (`&#150;` is "–").
    ///
    /// Never crashes and runs in linear time, whatever the input.
    public static func clean(_ raw: String) -> String {
        if let cleaned = raw.utf8.withContiguousStorageIfAvailable({ clean(raw, bytes: $0) }) {
            return cleaned
        }
        return Array(raw.utf8).withUnsafeBufferPointer { clean(raw, bytes: $0) }
    }

    // MARK: - Internals

    private static let lt: UInt8 = 0x3C, gt: UInt8 = 0x3E, amp: UInt8 = 0x26
    private static let hash: UInt8 = 0x23, semicolon: UInt8 = 0x3B, space: UInt8 = 0x20

    private static func clean(_ raw: String, bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let firstSpecial = firstChange(bytes) else { return raw }
        // Only the part from the first `<` on needs tag stripping.
        var firstTag = firstSpecial
        while firstTag < bytes.count && bytes[firstTag] != lt { firstTag += 1 }
        if firstTag == bytes.count { return decodeAndCollapse(bytes) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { scratch in
            let count = stripTags(bytes, from: firstTag, into: scratch)
            return decodeAndCollapse(UnsafeBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// Offset of the first byte that may need work (`<`, `&`, whitespace other than single inner
    /// ASCII spaces), or nil when the title is already clean.
    @inline(__always)
    private static func firstChange(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        var i = 0
        while i < n {
            let b = bytes[i]
            if b <= space {
                if b != space || i == 0 || i == n - 1 || bytes[i - 1] == space { return i }
                if bytes[i + 1] <= space { return i }
            } else if b == lt || b == amp {
                return i
            } else if b >= 0xC2 && b <= 0xE3 && whitespaceLength(bytes, at: i) > 0 {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Copies `src` to `dst` without its tags; returns the number of bytes written.
    ///
    /// Linear: a tag's search for `>` resumes after the previous tag, and once a search has found
    /// no `>` at all, no later `<` can start a tag either.
    private static func stripTags(_ src: UnsafeBufferPointer<UInt8>, from start: Int,
                                  into dst: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let n = src.count
        var o = 0
        if start > 0 {
            _ = UnsafeMutableBufferPointer(rebasing: dst[..<start]).initialize(from: src[..<start])
            o = start
        }
        var i = start
        var closeFound = true  // false once we know no `>` follows
        while i < n {
            let b = src[i]
            if b == lt && closeFound && i + 1 < n && isTagStart(src[i + 1]) {
                var j = i + 2
                while j < n && src[j] != gt { j += 1 }
                if j < n {
                    i = j + 1
                    continue
                }
                closeFound = false
            }
            dst[o] = b
            o += 1
            i += 1
        }
        return o
    }

    @inline(__always)
    private static func isTagStart(_ b: UInt8) -> Bool {
        let lower = b | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || b == 0x2F || b == 0x21 || b == 0x3F
    }

    /// Decodes entities and collapses/trims whitespace into a new String.
    ///
    /// The output is never longer than the input: every entity is at least as long as its UTF-8
    /// (checked by a test for the named ones; `&#0;` is 4 bytes for U+FFFD's 3), and a whitespace
    /// run of k >= 1 bytes becomes at most one space.
    private static func decodeAndCollapse(_ src: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: src.count) { out in
            var sink = Sink(out: out)
            let n = src.count
            var i = 0
            while i < n {
                let b = src[i]
                if b < 0x80 {
                    if b == amp, let (scalar, length) = entity(src, at: i) {
                        sink.scalar(scalar)
                        i += length
                        continue
                    }
                    if b == space || (b >= 0x09 && b <= 0x0D) { sink.whitespace() } else { sink.byte(b) }
                    i += 1
                } else if b >= 0xC2 && b <= 0xE3, case let length = whitespaceLength(src, at: i), length > 0 {
                    sink.whitespace()
                    i += length
                } else {
                    sink.byte(b)
                    i += 1
                }
            }
            return sink.count
        }
    }

    /// Writes bytes, holding back a space until something visible follows (which collapses runs
    /// and trims both ends in one go).
    private struct Sink {
        let out: UnsafeMutableBufferPointer<UInt8>
        var count = 0
        var pendingSpace = false

        @inline(__always)
        mutating func whitespace() {
            if count > 0 { pendingSpace = true }
        }

        @inline(__always)
        mutating func byte(_ b: UInt8) {
            if pendingSpace {
                pendingSpace = false
                put(TitleCleaner.space)
            }
            put(b)
        }

        @inline(__always)
        private mutating func put(_ b: UInt8) {
            // The length argument in decodeAndCollapse makes this unreachable; it is kept because
            // an overflow here would be a memory error, not just a wrong answer.
            precondition(count < out.count, "TitleCleaner output overflow")
            out[count] = b
            count += 1
        }

        mutating func scalar(_ v: UInt32) {
            if isWhitespace(v) { return whitespace() }
            switch v {
            case 0..<0x80:
                byte(UInt8(v))
            case 0x80..<0x800:
                byte(UInt8(0xC0 | (v >> 6)))
                put(UInt8(0x80 | (v & 0x3F)))
            case 0x800..<0x10000:
                byte(UInt8(0xE0 | (v >> 12)))
                put(UInt8(0x80 | ((v >> 6) & 0x3F)))
                put(UInt8(0x80 | (v & 0x3F)))
            default:
                byte(UInt8(0xF0 | (v >> 18)))
                put(UInt8(0x80 | ((v >> 12) & 0x3F)))
                put(UInt8(0x80 | ((v >> 6) & 0x3F)))
                put(UInt8(0x80 | (v & 0x3F)))
            }
        }
    }

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
    private static func whitespaceLength(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
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

    /// The entity starting at `&` = `s[i]`: its scalar and its length in bytes, or nil when the
    /// text there is not a (known, terminated) entity.
    private static func entity(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let n = s.count
        var j = i + 1
        guard j < n else { return nil }
        if s[j] == hash {
            j += 1
            var hex = false
            if j < n && (s[j] | 0x20) == 0x78 { hex = true; j += 1 }
            let digitsStart = j
            // Saturates at 0x110000 so that any number of digits is safe (and still invalid).
            var value: UInt32 = 0
            while j < n {
                let b = s[j]
                let digit: UInt32
                if b >= 0x30 && b <= 0x39 {
                    digit = UInt32(b - 0x30)
                } else if hex, case let lower = b | 0x20, lower >= 0x61 && lower <= 0x66 {
                    digit = UInt32(lower - 0x61 + 10)
                } else {
                    break
                }
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                j += 1
            }
            guard j > digitsStart, j < n, s[j] == semicolon else { return nil }
            return (numericScalar(value), j + 1 - i)
        }
        // Named: up to 8 ASCII letters/digits (longest known name is 6), then `;`.
        var key: UInt64 = 0
        while j < n && j - i <= 8 {  // at most 8 name bytes: they must fit the UInt64 key
            let b = s[j]
            let lower = b | 0x20
            guard (lower >= 0x61 && lower <= 0x7A) || (b >= 0x30 && b <= 0x39) else { break }
            key = key << 8 | UInt64(b)
            j += 1
        }
        guard j > i + 1, j < n, s[j] == semicolon,
              let scalar = namedScalar(key) else { return nil }
        return (scalar, j + 1 - i)
    }

    /// HTML5's rules for numeric character references.
    private static func numericScalar(_ value: UInt32) -> UInt32 {
        switch value {
        case 0, 0xD800...0xDFFF, 0x110000...:
            return 0xFFFD
        case 0x80...0x9F:
            // Pages that say `&#150;` mean windows-1252's en dash, not a C1 control.
            let mapped = windows1252[Int(value - 0x80)]
            return mapped == 0 ? value : UInt32(mapped)
        default:
            return value
        }
    }

    /// windows-1252 bytes 0x80–0x9F as Unicode (0: undefined there, keep the value).
    private static let windows1252: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Named entities seen in shop titles, sorted by name (byte order). Kept short on purpose:
    /// an unknown name stays literal, which is harmless.
    static let namedEntities: [(name: StaticString, scalar: UInt32)] = [
        ("AMP", 0x26), ("GT", 0x3E), ("LT", 0x3C), ("QUOT", 0x22),
        ("amp", 0x26), ("apos", 0x27), ("bdquo", 0x201E), ("bull", 0x2022),
        ("cent", 0xA2), ("copy", 0xA9), ("darr", 0x2193), ("deg", 0xB0),
        ("divide", 0xF7), ("euro", 0x20AC), ("frac12", 0xBD), ("frac14", 0xBC),
        ("frac34", 0xBE), ("gt", 0x3E), ("hearts", 0x2665), ("hellip", 0x2026),
        ("laquo", 0xAB), ("larr", 0x2190), ("ldquo", 0x201C), ("lsquo", 0x2018),
        ("lt", 0x3C), ("mdash", 0x2014), ("micro", 0xB5), ("middot", 0xB7),
        ("nbsp", 0xA0), ("ndash", 0x2013), ("para", 0xB6), ("plusmn", 0xB1),
        ("pound", 0xA3), ("quot", 0x22), ("raquo", 0xBB), ("rarr", 0x2192),
        ("rdquo", 0x201D), ("reg", 0xAE), ("rsquo", 0x2019), ("sbquo", 0x201A),
        ("sect", 0xA7), ("star", 0x2606), ("sup2", 0xB2), ("sup3", 0xB3),
        ("times", 0xD7), ("trade", 0x2122), ("uarr", 0x2191), ("yen", 0xA5),
    ]

    /// `namedEntities` with each name packed into a UInt64 (big-endian bytes), for a binary search
    /// that compares integers instead of strings.
    private static let namedKeys: [(key: UInt64, scalar: UInt32)] = namedEntities.map { entry in
        var key: UInt64 = 0
        entry.name.withUTF8Buffer { for b in $0 { key = key << 8 | UInt64(b) } }
        return (key, entry.scalar)
    }.sorted { $0.key < $1.key }

    private static func namedScalar(_ key: UInt64) -> UInt32? {
        namedKeys.withUnsafeBufferPointer { table in
            var lo = 0
            var hi = table.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                let k = table[mid].key
                if k == key { return table[mid].scalar }
                if k < key { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }
}
