/// Makes network text safe to print on a terminal or to put in one TSV/CSV cell.
///
/// Product titles and shop names are third-party data: an ESC or CSI in them could recolour or
/// rewrite the user's terminal, a TAB or newline would break a TSV row, and bidi overrides can
/// make text display in a different order than it is stored ("Trojan Source"); invisible format
/// characters (a BOM, a zero width space) hide text from the reader and throw off column widths.
public enum Sanitizer {
    /// For text that came from the network and goes to a terminal or a TSV/CSV cell:
    /// TAB, LF, CR, VT, FF and other whitespace controls (U+0085 NEL) become one space each; other
    /// C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F, including CSI
    /// U+009B) become U+FFFD; bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
    /// U+061C) and the invisible format characters (general category Cf) that only hide or mark
    /// text are removed: U+200B ZERO WIDTH SPACE, U+2060–U+2064 (word joiner, invisible
    /// operators), U+206A–U+206F (deprecated format controls), U+FEFF ZERO WIDTH NO-BREAK SPACE
    /// (the BOM), U+FFF9–U+FFFB (interlinear annotation), U+E0001 LANGUAGE TAG and the tag
    /// characters U+E0020–U+E007F, unless they spell an emoji tag sequence (a subdivision flag:
    /// U+1F3F4, 1 to 7 tag characters, U+E007F CANCEL TAG); so are the Hangul fillers (U+115F,
    /// U+1160, U+3164, U+FFA0: letters that draw nothing, a name made of them reads as blank),
    /// and the noncharacters U+FFFE and U+FFFF become U+FFFD. Everything else unchanged: the Cf
    /// characters that shape text (U+200C ZWNJ, U+200D ZWJ of emoji sequences, U+180E), and those
    /// terminals draw (U+00AD SOFT HYPHEN, the prepended number signs U+0600–U+0605 …), stay.
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
                case .keep(1):
                    out.append(bytes[i])
                    i += 1
                case .keep(let length):
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + length]))
                    i += length
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

    /// What to do with the scalar starting at a byte offset (`length` = its UTF-8 length; a kept
    /// emoji tag sequence is kept whole).
    private enum Action {
        case keep(Int), space(Int), replace(Int), remove(Int)
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
            // C1 (C2), U+061C (D8), the Hangul fillers (E1, E3, EF), the U+200B/U+202A/U+2060
            // families (E2), U+FEFF, U+FFF9 and the noncharacters (EF), the tags (F3) and the
            // black flag that may start a tag sequence (F0). Hangul syllables (EA–ED) and most
            // other text never hit the slow check.
            if b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE1 || b == 0xE2 || b == 0xE3 || b >= 0xEF {
                guard case .keep(let length) = classify(bytes, at: i) else { return i }
                i += length
                continue
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
            return .keep(1)
        }
        if b == 0xD8 && i + 1 < n && bytes[i + 1] == 0x9C { return .remove(2) }  // U+061C ALM
        if b == 0xE1 && i + 2 < n && bytes[i + 1] == 0x85 && (bytes[i + 2] == 0x9F || bytes[i + 2] == 0xA0) { return .remove(3) }  // U+115F, U+1160
        if b == 0xE3 && i + 2 < n && bytes[i + 1] == 0x85 && bytes[i + 2] == 0xA4 { return .remove(3) }  // U+3164 HANGUL FILLER
        if b == 0xE2 && i + 2 < n {
            let c = bytes[i + 1], d = bytes[i + 2]
            if c == 0x80 && (d == 0x8B || d == 0x8E || d == 0x8F) { return .remove(3) }  // ZWSP, LRM, RLM
            if c == 0x80 && d >= 0xAA && d <= 0xAE { return .remove(3) }                 // LRE...RLO
            if c == 0x81 && d >= 0xA0 && d <= 0xA4 { return .remove(3) }                 // WJ...invisible plus
            if c == 0x81 && d >= 0xA6 && d <= 0xAF { return .remove(3) }                 // LRI...PDI, U+206A...U+206F
            return .keep(1)
        }
        if b == 0xEF && i + 2 < n {
            let c = bytes[i + 1], d = bytes[i + 2]
            if c == 0xBB && d == 0xBF { return .remove(3) }                              // U+FEFF
            if c == 0xBF && d >= 0xB9 && d <= 0xBB { return .remove(3) }                 // U+FFF9...U+FFFB
            if c == 0xBE && d == 0xA0 { return .remove(3) }                              // U+FFA0 HALFWIDTH HANGUL FILLER
            if c == 0xBF && (d == 0xBE || d == 0xBF) { return .replace(3) }              // U+FFFE, U+FFFF
            return .keep(1)
        }
        if b == 0xF3, let tag = tagValue(bytes, at: i), tag == 0xE0001 || tag >= 0xE0020 { return .remove(4) }  // a stray tag
        if b == 0xF0 && i + 3 < n && bytes[i + 1] == 0x9F && bytes[i + 2] == 0x8F && bytes[i + 3] == 0xB4 {
            return .keep(4 + tagSequenceLength(bytes, at: i + 4))                        // U+1F3F4
        }
        return .keep(1)
    }

    /// The scalar value at `i` when it is in U+E0000–U+E007F (F3 A0 80/81 xx: the tags and
    /// U+E0001), or nil.
    @inline(__always)
    private static func tagValue(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32? {
        guard i + 3 < bytes.count, bytes[i] == 0xF3, bytes[i + 1] == 0xA0, bytes[i + 2] == 0x80 || bytes[i + 2] == 0x81 else {
            return nil
        }
        return 0xE0000 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
    }

    /// The UTF-8 length of the emoji tag sequence's tags at `i` (after U+1F3F4): 1 to 7 tag
    /// characters U+E0020–U+E007E, then U+E007F. 0 when they do not form one (then they are
    /// stray tags, removed one by one). Subdivision codes are at most 7 characters (CLDR), so a
    /// longer run cannot be a flag.
    @inline(__always)
    private static func tagSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        var i = start
        var count = 0
        while let tag = tagValue(bytes, at: i) {
            if tag == 0xE007F { return count > 0 ? i + 4 - start : 0 }
            guard tag >= 0xE0020, count < 7 else { return 0 }
            count += 1
            i += 4
        }
        return 0
    }
}
