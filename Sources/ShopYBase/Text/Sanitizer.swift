/// Makes network text safe to print on a terminal or to put in one TSV/CSV cell.
///
/// Product titles and shop names are third-party data: an ESC or CSI in them could recolour or
/// rewrite the user's terminal, a TAB or newline would break a TSV row, and bidi overrides can
/// make text display in a different order than it is stored ("Trojan Source").
public enum Sanitizer {
    /// For text that came from the network and goes to a terminal or a TSV/CSV cell:
    /// TAB, LF, CR, VT, FF and other whitespace controls (U+0085 NEL) become one space each; other
    /// C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F, including CSI
    /// U+009B) become U+FFFD; bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
    /// U+061C) are removed. Everything else unchanged.
    ///
    /// Controls are replaced by U+FFFD rather than dropped so that the user can see something was
    /// there. Nearly all real text needs no change, and then the input itself is returned: one
    /// read-only scan over its UTF-8 bytes, no allocation.
    public static func clean(_ text: String) -> String {
        guard let first = firstUnsafeOffset(text) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        out.append(contentsOf: bytes[..<first])
        bytes.withUnsafeBufferPointer { bytes in
            var i = first
            while i < bytes.count {
                switch classify(bytes, at: i) {
                case .keep:
                    out.append(bytes[i])
                    i += 1
                case .space(let length):
                    out.append(0x20)
                    i += length
                case .replace(let length):
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
                    i += length
                case .remove(let length):
                    i += length
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when `clean` would change the text.
    public static func needsCleaning(_ text: String) -> Bool {
        firstUnsafeOffset(text) != nil
    }

    // MARK: - Internals

    /// What to do with the scalar starting at a byte offset (`length` = its UTF-8 length).
    private enum Action {
        case keep, space(Int), replace(Int), remove(Int)
    }

    /// Byte offset of the first scalar `clean` would change, or nil.
    private static func firstUnsafeOffset(_ text: String) -> Int? {
        if let found = text.utf8.withContiguousStorageIfAvailable({ scan($0) }) { return found }
        return Array(text.utf8).withUnsafeBufferPointer { scan($0) }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // Only these bytes can start something to change: C0/DEL, and the lead bytes of
            // C1 (C2), U+061C (D8) and the U+200E/U+202A/U+2066 families (E2). Hangul and most
            // other text never hit the slow check.
            if b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 {
                if case .keep = classify(bytes, at: i) {} else { return i }
            }
            i += 1
        }
        return nil
    }

    /// The rules of `clean`, on UTF-8: `i` is the start of a scalar (or a continuation byte,
    /// which is always kept: the input is valid UTF-8, so its lead byte decided already).
    @inline(__always)
    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Action {
        let b = bytes[i]
        let n = bytes.count
        if b < 0x20 {
            return (b >= 0x09 && b <= 0x0D) ? .space(1) : .replace(1)
        }
        if b == 0x7F { return .replace(1) }
        if b == 0xC2 && i + 1 < n {
            let c = bytes[i + 1]
            if c == 0x85 { return .space(2) }                   // NEL, a whitespace control
            if c >= 0x80 && c <= 0x9F { return .replace(2) }    // C1 controls, CSI included
            return .keep
        }
        if b == 0xD8 && i + 1 < n && bytes[i + 1] == 0x9C { return .remove(2) }  // U+061C ALM
        if b == 0xE2 && i + 2 < n {
            let c = bytes[i + 1], d = bytes[i + 2]
            if c == 0x80 && (d == 0x8E || d == 0x8F) { return .remove(3) }        // LRM, RLM
            if c == 0x80 && d >= 0xAA && d <= 0xAE { return .remove(3) }          // LRE...RLO
            if c == 0x81 && d >= 0xA6 && d <= 0xA9 { return .remove(3) }          // LRI...PDI
        }
        return .keep
    }
}
