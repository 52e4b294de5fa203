/// The decoding pass: entities decoded, whitespace collapsed and trimmed, into one String.
extension TitleCleaner {
    /// Decodes entities and collapses/trims whitespace into a new String.
    ///
    /// The output is never longer than the input: every entity is at least as long as its UTF-8
    /// (checked by a test for the named ones; `&#0;` is 4 bytes for U+FFFD's 3), and a whitespace
    /// run of k >= 1 bytes becomes at most one space.
    static func decodeAndCollapse(_ src: UnsafeBufferPointer<UInt8>) -> String {
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
        mutating func put(_ b: UInt8) {
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
}
