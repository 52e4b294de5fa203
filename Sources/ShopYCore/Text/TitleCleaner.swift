/// Turns a product title from the Naver Shopping search API into plain text.
///
/// The API wraps query matches in `<b>…</b>` and HTML-escapes the rest (`&amp;`, `&quot;`,
/// `&#39;`…). Titles are cleaned by the tens of thousands while importing, so this works on UTF-8
/// bytes, skips clean text 16 bytes at a time, copies the text between tags and entities in bulk
/// (into one scratch buffer, on the stack for titles), builds exactly one String, and returns an
/// already clean input as it is.
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
        // `clean(bytes:)` is inlined into a closure that captures nothing: that lets the optimizer
        // drop a retain/release pair of `raw`, a good part of the cost of an already clean title.
        let cleaned = raw.utf8.withContiguousStorageIfAvailable { clean(bytes: $0) } ?? cleanCopy(raw)
        return cleaned ?? raw
    }

    // MARK: - Internals

    private static let lt: UInt8 = 0x3C, gt: UInt8 = 0x3E, amp: UInt8 = 0x26
    private static let hash: UInt8 = 0x23, semicolon: UInt8 = 0x3B, space: UInt8 = 0x20

    /// For strings without contiguous UTF-8 (bridged NSStrings on Apple platforms).
    @inline(never)
    private static func cleanCopy(_ raw: String) -> String? {
        Array(raw.utf8).withUnsafeBufferPointer { clean(bytes: $0) }
    }

    /// The cleaned text, or nil when `bytes` are already clean.
    ///
    /// Most titles are either already clean or clean apart from the API's `<b>…</b>`, so the work
    /// is split: a scan finds the first `<` and notes on the way whether anything else needs work;
    /// from that `<` on, tags are stripped into a scratch buffer; only text with entities or
    /// irregular whitespace goes through the decoding pass, and only its String is validated.
    @inline(__always)
    private static func clean(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let n = bytes.count
        guard n > 0, let p = bytes.baseAddress else { return nil }
        // A space at either end needs trimming; `nextSpecial` only reports a space followed by
        // a space.
        var needsDecoding = p[0] == space || p[n - 1] == space
        var i = 0
        while true {
            i = nextSpecial(p, count: n, from: i, onlyTags: needsDecoding)
            if i == n { break }
            if p[i] == lt { break }
            if needsWork(p, count: n, at: i) { needsDecoding = true }
            i += 1
        }
        if i == n { return needsDecoding ? decodeAndCollapse(bytes) : nil }
        // From the first `<` on: strip the tags into a buffer as long as the input.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { scratch in
            guard let stripped = stripTags(bytes, from: i, into: scratch, needsDecoding: &needsDecoding) else {
                return needsDecoding ? decodeAndCollapse(bytes) : nil  // every `<` was literal text
            }
            if needsDecoding { return decodeAndCollapse(stripped) }
            return copyValidUTF8(stripped)
        }
    }

    /// A String with `bytes`, which are known to be valid UTF-8.
    ///
    /// Only for the output of `stripTags`: it cuts valid UTF-8 just at an ASCII `<` and just after
    /// an ASCII `>`, so the result is valid too, and validating it again would cost about as much
    /// as all the rest of cleaning a bolded title. `UTF8Span(unchecked:)` is the public way to
    /// skip that (Swift 6.2 standard library); older Apple OSes validate.
    @inline(__always)
    private static func copyValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        #if compiler(>=6.2)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return String(copying: UTF8Span(unchecked: bytes.span))
        }
        #endif
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the byte at `i`, where `nextSpecial` stopped, needs the decoding pass: an entity, a
    /// space (there, one followed by a space), a whitespace control or a non-ASCII whitespace. The
    /// rest of what `nextSpecial` stops at (a literal `&` as in `P&G`, other controls, characters
    /// such as `·` or `「`) is copied as it is.
    @inline(__always)
    private static func needsWork(_ p: UnsafePointer<UInt8>, count n: Int, at i: Int) -> Bool {
        let b = p[i]
        let bytes = UnsafeBufferPointer(start: p, count: n)
        if b >= 0x80 { return whitespaceLength(bytes, at: i) > 0 }
        if b == amp { return mayStartEntity(bytes, at: i) }
        return b == space || (b >= 0x09 && b <= 0x0D)
    }

    /// Whether the `&` at `i` starts an entity, now or once tags are stripped: `&am<b>p;` is one
    /// because its name runs into a `<`. Otherwise the `&` stays literal whatever tags go.
    private static func mayStartEntity(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        if entity(s, at: i) != nil { return true }
        // Everything `entity` reads is an ASCII letter, digit or `#`.
        var j = i + 1
        while j < s.count, case let b = s[j], b == hash || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) {
            j += 1
        }
        return j < s.count && s[j] == lt
    }

    /// Offset of the first byte at or after `from` that may need work, or `n`: `<`, `&`, a control,
    /// a space followed by a space, or a lead byte 0xC2–0xE3 (where every non-ASCII White_Space
    /// scalar starts). With `onlyTags`, just `<`.
    ///
    /// Korean syllables (lead bytes 0xEA–0xED, continuation bytes 0x80–0xBF), ASCII letters,
    /// digits and punctuation and single spaces are never special, so typical titles are skipped
    /// 16 bytes at a time: per lane, one vector compare each, OR-ed together; the first set lane
    /// is found through the two 64-bit halves of the mask.
    @inline(__always)
    private static func nextSpecial(_ p: UnsafePointer<UInt8>, count n: Int, from: Int, onlyTags: Bool) -> Int {
        typealias V = SIMD16<UInt8>
        @inline(__always)
        func mask(at offset: Int) -> SIMD2<UInt64> {
            let raw = UnsafeRawPointer(p)
            let a = raw.loadUnaligned(fromByteOffset: offset, as: V.self)
            // Compare with vectors, not scalars: the vector-to-scalar forms of these operators
            // build their masks lane by lane (about 20 times slower here).
            var m = a .== V(repeating: lt)
            if !onlyTags {
                let b = raw.loadUnaligned(fromByteOffset: offset + 1, as: V.self)
                let sp = V(repeating: space)
                m .|= a .== V(repeating: amp)
                m .|= a .< sp
                m .|= (a &- V(repeating: 0xC2)) .< V(repeating: 0xE4 - 0xC2)
                m .|= (a .== sp) .& (b .== sp)
            }
            return unsafeBitCast(m, to: SIMD2<UInt64>.self)
        }
        @inline(__always)
        func firstLane(_ m: SIMD2<UInt64>) -> Int? {
            if m[0] != 0 { return m[0].trailingZeroBitCount &>> 3 }
            if m[1] != 0 { return 8 &+ m[1].trailingZeroBitCount &>> 3 }
            return nil
        }
        // A chunk reads 16 bytes and, for the space pairs, the byte after them, so chunks cover
        // 0..<n-1 and the scalar loop at the end the last byte. Two chunks per round while they
        // fit: one branch per 32 bytes. (Wrapping arithmetic: offsets stay within the buffer,
        // and overflow checks are a measurable part of this loop.)
        var i = from
        while i &+ 33 <= n {
            let m0 = mask(at: i), m1 = mask(at: i &+ 16)
            let both = m0 | m1
            if both[0] | both[1] != 0 {
                if let lane = firstLane(m0) { return i &+ lane }
                return i &+ 16 &+ firstLane(m1)!
            }
            i &+= 32
        }
        while i &+ 17 <= n {
            if let lane = firstLane(mask(at: i)) { return i &+ lane }
            i &+= 16
        }
        if n >= 17 && i < n &- 1 {
            // The rest as one chunk that ends at n-2 and overlaps bytes before `i`: their lanes
            // are cleared (they may well be special: `from` is often just after a special byte).
            let offset = n &- 17
            var m = mask(at: offset)
            let skip = UInt64(truncatingIfNeeded: i &- offset) &* 8  // 8...120 bits
            if skip >= 64 {
                m[0] = 0
                m[1] &= ~0 &<< (skip &- 64)
            } else {
                m[0] &= ~0 &<< skip
            }
            if let lane = firstLane(m) { return offset &+ lane }
            i = n &- 1
        }
        while i < n {
            let b = p[i]
            if b == lt { return i }
            if !onlyTags {
                if b == amp || b < space || (b &- 0xC2) < 0xE4 - 0xC2 { return i }
                if b == space && i + 1 < n && p[i + 1] == space { return i }
            }
            i += 1
        }
        return n
    }

    /// Copies `src` to `dst` without its tags (`start` is the first `<`), the text between tags in
    /// bulk; returns the copy, or nil when there was no tag (every `<` is literal text). Unless
    /// `needsDecoding` is already set, also looks for anything else to do, and sets it: entities
    /// and whitespace in the text, and spaces that end up at an end or next to each other once
    /// the tags are gone.
    ///
    /// Linear: a tag's search for `>` resumes after the previous tag, and once a search has found
    /// no `>` at all, no later `<` can start a tag either.
    @inline(__always)
    private static func stripTags(_ src: UnsafeBufferPointer<UInt8>, from start: Int,
                                  into dst: UnsafeMutableBufferPointer<UInt8>,
                                  needsDecoding: inout Bool) -> UnsafeBufferPointer<UInt8>? {
        let n = src.count
        let p = src.baseAddress!, out = dst.baseAddress!
        var o = 0
        var spanStart = 0  // start of the text not copied yet
        var stripped = false
        var closeFound = true  // false once we know no `>` follows
        var i = start
        while i < n {
            if !closeFound && needsDecoding { break }  // nothing left to find
            let b = p[i]
            if b == lt && closeFound && i + 1 < n && isTagStart(p[i + 1]) {
                var j = i + 2
                while j < n && p[j] != gt { j += 1 }
                if j < n {
                    if i > spanStart {
                        // A space before the tag meeting one after an earlier tag.
                        if o > 0 && out[o - 1] == space && p[spanStart] == space { needsDecoding = true }
                        (out + o).initialize(from: p + spanStart, count: i - spanStart)
                        o += i - spanStart
                    }
                    stripped = true
                    spanStart = j + 1
                    i = nextSpecial(p, count: n, from: spanStart, onlyTags: needsDecoding)
                    continue
                }
                closeFound = false
            } else if b != lt && needsWork(p, count: n, at: i) {
                needsDecoding = true
            }
            i = nextSpecial(p, count: n, from: i + 1, onlyTags: needsDecoding)
        }
        guard stripped else { return nil }
        if n > spanStart {
            // (Same as above, for the last tag.)
            if o > 0 && out[o - 1] == space && p[spanStart] == space { needsDecoding = true }
            (out + o).initialize(from: p + spanStart, count: n - spanStart)
            o += n - spanStart
        }
        if o > 0 && (out[0] == space || out[o - 1] == space) { needsDecoding = true }
        return UnsafeBufferPointer(start: out, count: o)
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
            guard n > 0, let p = src.baseAddress else { return 0 }
            var i = 0
            while i < n {
                // Copy the text up to the next byte that may need work in one go. It has no two
                // spaces in a row, so only a space at either end needs care (it may meet other
                // whitespace, or an end).
                let special = nextSpecial(p, count: n, from: i, onlyTags: false)
                if special > i {
                    var start = i, end = special
                    if p[start] == space { sink.whitespace(); start += 1 }
                    let trailingSpace = end > start && p[end - 1] == space
                    if trailingSpace { end -= 1 }
                    if end > start { sink.bytes(p + start, count: end - start) }
                    if trailingSpace { sink.whitespace() }
                    i = special
                    if i == n { break }
                }
                let b = p[i]
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

        /// Visible text (no whitespace at either end).
        @inline(__always)
        mutating func bytes(_ p: UnsafePointer<UInt8>, count k: Int) {
            if pendingSpace {
                pendingSpace = false
                put(TitleCleaner.space)
            }
            precondition(k <= out.count - count, "TitleCleaner output overflow")
            (out.baseAddress! + count).initialize(from: p, count: k)
            count += k
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
