/// The scan for the next byte that may need work, 16 bytes at a time.
extension TitleCleaner {
    /// Offset of the first byte at or after `from` that may need work, or `n`: `<`, `&`, a control,
    /// a space followed by a space, or a lead byte 0xC2–0xE3 (where every non-ASCII White_Space
    /// scalar starts). With `onlyTags`, just `<`.
    ///
    /// Korean syllables (lead bytes 0xEA–0xED, continuation bytes 0x80–0xBF), ASCII letters,
    /// digits and punctuation and single spaces are never special, so typical titles are skipped
    /// 16 bytes at a time: per lane, one vector compare each, OR-ed together; the first set lane
    /// is found through the two 64-bit halves of the mask.
    @inline(__always)
    static func nextSpecial(_ p: UnsafePointer<UInt8>, count n: Int, from: Int, onlyTags: Bool) -> Int {
        typealias V = SIMD16<UInt8>
        @inline(__always)
        func mask(at offset: Int) -> SIMD2<UInt64> {
            let raw = UnsafeRawPointer(p)
            let a = raw.loadUnaligned(fromByteOffset: offset, as: V.self)
            // Compare with vectors, not scalars: the vector-to-scalar forms of these operators
            // build their masks lane by lane.
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
}
