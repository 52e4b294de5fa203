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

    static let lt: UInt8 = 0x3C, gt: UInt8 = 0x3E, amp: UInt8 = 0x26
    static let hash: UInt8 = 0x23, semicolon: UInt8 = 0x3B, space: UInt8 = 0x20

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
    package static func clean(bytes: UnsafeBufferPointer<UInt8>) -> String? {
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
    static func needsWork(_ p: UnsafePointer<UInt8>, count n: Int, at i: Int) -> Bool {
        let b = p[i]
        let bytes = UnsafeBufferPointer(start: p, count: n)
        if b >= 0x80 { return whitespaceLength(bytes, at: i) > 0 }
        if b == amp { return mayStartEntity(bytes, at: i) }
        return b == space || (b >= 0x09 && b <= 0x0D)
    }

    /// Whether the `&` at `i` starts an entity, now or once tags are stripped: `&am<b>p;` is one
    /// because its name runs into a `<`. Otherwise the `&` stays literal whatever tags go.
    static func mayStartEntity(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        if entity(s, at: i) != nil { return true }
        // Everything `entity` reads is an ASCII letter, digit or `#`.
        var j = i + 1
        while j < s.count, case let b = s[j], b == hash || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) {
            j += 1
        }
        return j < s.count && s[j] == lt
    }
}
