/// Tag stripping: the `<b>…</b>` the API puts around query matches, and any other tag.
extension TitleCleaner {
    /// Copies `src` to `dst` without its tags (`start` is the first `<`), the text between tags in
    /// bulk; returns the copy, or nil when there was no tag (every `<` is literal text). Unless
    /// `needsDecoding` is already set, also looks for anything else to do, and sets it: entities
    /// and whitespace in the text, and spaces that end up at an end or next to each other once
    /// the tags are gone.
    ///
    /// Linear: a tag's search for `>` resumes after the previous tag, and once a search has found
    /// no `>` at all, no later `<` can start a tag either.
    @inline(__always)
    static func stripTags(_ src: UnsafeBufferPointer<UInt8>, from start: Int,
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
}
