import ShopYBase

/// Byte-level text helpers for the catalog's hot path: no Foundation string search.
enum CatalogText {
    /// The index keys of a lowercased term or field, handed to `body`: each scalar's, and each
    /// pair of adjacent scalars' (bigram). Whitespace never appears in a term, so pairs across
    /// whitespace are left out.
    @inline(__always)
    static func forEachKey(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) {
        var previous: UInt32 = 0
        var i = 0
        while i < bytes.count {
            let (scalar, width) = decode(bytes, at: i)
            i += width
            if isSpace(scalar) { previous = 0; continue }
            body(unigram(scalar))
            if previous != 0 { body(bigram(previous, scalar)) }
            previous = scalar
        }
    }

    /// The keys a term's matches must all hold: its bigrams, or its one scalar.
    static func termKeys(_ term: [UInt8]) -> [UInt64] {
        var all: [UInt64] = []
        term.withUnsafeBufferPointer { CatalogText.forEachKey($0) { all.append($0) } }
        let pairs = all.filter { $0 >> 42 == 0 }
        return pairs.isEmpty ? all : Array(Set(pairs)).sorted()
    }

    @inline(__always) static func unigram(_ a: UInt32) -> UInt64 { (1 << 42) | UInt64(a) }
    @inline(__always) static func bigram(_ a: UInt32, _ b: UInt32) -> UInt64 { (UInt64(a) << 21) | UInt64(b) }

    @inline(__always) static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let c = UInt32(b[i])
        if c < 0x80 { return (c, 1) }
        if c >> 5 == 0x6, i + 1 < b.count { return (((c & 0x1F) << 6) | (UInt32(b[i + 1]) & 0x3F), 2) }
        if c >> 4 == 0xE, i + 2 < b.count { return (((c & 0x0F) << 12) | ((UInt32(b[i + 1]) & 0x3F) << 6) | (UInt32(b[i + 2]) & 0x3F), 3) }
        if c >> 3 == 0x1E, i + 3 < b.count {
            return (((c & 0x07) << 18) | ((UInt32(b[i + 1]) & 0x3F) << 12) | ((UInt32(b[i + 2]) & 0x3F) << 6) | (UInt32(b[i + 3]) & 0x3F), 4)
        }
        return (0xFFFD, 1)
    }

    static func isSpace(_ scalar: UInt32) -> Bool {
        if scalar == 0x20 || (0x09...0x0D).contains(scalar) { return true }
        // Unicode's White_Space beyond ASCII, listed: no property lookup on the hot path.
        switch scalar {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Whether the scalar that ends just before `offset` is whitespace.
    static func spaceBefore(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var start = offset - 1
        while start > 0 && b[start] & 0xC0 == 0x80 { start -= 1 }
        return isSpace(decode(b, at: start).0)
    }

    /// The first offset of `needle` in `hay`, or nil.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = needle.count, h = hay.count
        guard n > 0, n <= h, let first = needle.first else { return n == 0 ? 0 : nil }
        var i = 0
        let last = h - n
        while i <= last {
            if hay[i] == first {
                var j = 1
                while j < n && hay[i + j] == needle[j] { j += 1 }
                if j == n { return i }
            }
            i += 1
        }
        return nil
    }

    /// Whether `needle` occurs in `hay` (UTF-8 bytes).
    static func contains(_ hay: String, _ needle: String) -> Bool {
        var hay = hay, needle = needle
        return hay.withUTF8 { h in needle.withUTF8 { n in find(n, in: h) != nil } }
    }

    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogText {
    /// `text.lowercased()` as UTF-8 bytes, folded byte by byte when every scalar is ASCII or of a
    /// script without case (Hangul, CJK, kana, punctuation and symbols); otherwise the standard
    /// library's full mapping.
    static func lowercased(_ text: String) -> [UInt8] {
        var out = Array(text.utf8)
        let simple = out.withUnsafeMutableBufferPointer { foldInPlace($0, from: 0) }
        return simple ? out : Array(text.lowercased().utf8)
    }

    /// Folds ASCII capitals in `bytes[from...]` to lowercase in place; false (the rest left as it
    /// is) at the first scalar that is neither ASCII nor caseless: the caller then takes the
    /// standard library's full mapping.
    @inline(__always)
    static func foldInPlace(_ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b &- 0x41 < 26 { bytes[i] = b | 0x20 }
                i += 1
                continue
            }
            let (scalar, width) = decode(UnsafeBufferPointer(bytes), at: i)
            guard caseless(scalar) else { return false }
            i += width
        }
        return true
    }

    /// Scalars whose lowercase mapping is themselves, in the ranges catalog texts use.
    @inline(__always) static func caseless(_ s: UInt32) -> Bool {
        switch s {
        case 0xA0...0xBF, 0xD7, 0xF7, 0x1100...0x11FF, 0x2000...0x206F, 0x2190...0x23FF, 0x2500...0x27BF,
             0x3000...0x303F, 0x3040...0x30FF, 0x3130...0x318F, 0x3200...0x33FF, 0x4E00...0x9FFF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFFEF:
            return true
        default:
            return false
        }
    }
}
