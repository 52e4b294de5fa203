/// HTML character references: numeric ones by HTML5's rules, and the named ones of shop titles.
extension TitleCleaner {
    /// The entity starting at `&` = `s[i]`: its scalar and its length in bytes, or nil when the
    /// text there is not a (known, terminated) entity.
    static func entity(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
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
