/// How many terminal columns text occupies, for lining up tables of product titles.
///
/// Swift knows grapheme clusters (`Character`) but not East_Asian_Width, so the per-scalar widths
/// come from the generated `widthSteps` table (WidthTable.swift, made by Scripts/gen-width-table.py)
/// and the per-Character rules below turn scalars into what terminals actually draw.
/// Strings should go through `Sanitizer.clean` first: controls measure 0 here.
public enum DisplayWidth {
    /// Terminal columns of one scalar: 0, 1 or 2.
    ///
    /// ASCII and precomposed Hangul (the bulk of shop titles) are answered without the table.
    @inline(__always)
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v >= 0xAC00 && v <= 0xD7A3 { return 2 }
        return tableWidth(v)
    }

    /// Terminal columns of one grapheme cluster (Character).
    ///
    /// A cluster is drawn as one glyph, so only its first visible scalar counts, except that an
    /// emoji presentation selector (U+FE0F) or a pair of regional indicators (a flag) makes it an
    /// emoji, which terminals draw two columns wide.
    ///
    /// Prepend characters (Grapheme_Cluster_Break=Prepend, e.g. U+111C2) join the cluster that
    /// follows them, even a space, yet terminals draw them as glyphs of their own: their widths
    /// are added to the cluster's. Otherwise padding after one (`pad`) would come out a column
    /// short, the first space of the padding having joined its cluster.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var prepended = 0
        var leading = true
        var first = 0
        var regionalIndicators = 0
        for scalar in scalars {
            let v = scalar.value
            if leading && isPrepend(v) {
                prepended += of(scalar)
                continue
            }
            leading = false
            if v == 0xFE0F { return prepended + 2 }
            if v >= 0x1F1E6 && v <= 0x1F1FF { regionalIndicators += 1 }
            if first == 0 { first = of(scalar) }
        }
        if regionalIndicators >= 2 { return prepended + 2 }
        return prepended + min(first, 2)
    }

    /// Grapheme_Cluster_Break=Prepend (Unicode 15.1, GraphemeBreakProperty.txt).
    @inline(__always)
    static func isPrepend(_ v: UInt32) -> Bool {
        if v < 0x0600 { return false }
        switch v {
        case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x0D4E, 0x110BD, 0x110CD, 0x111C2...0x111C3,
             0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:
            return true
        default:
            return false
        }
    }

    /// Terminal columns of a string (sum over its Characters).
    public static func of(_ string: String) -> Int {
        if let width = simpleWidth(string) { return width }
        var total = 0
        for character in string { total += of(character) }
        return total
    }

    /// The longest prefix (whole Characters only) whose width is <= `width`; when the string had to
    /// be cut and `ellipsis` is true, the result ends with "…" (width 1) and still fits in `width`.
    ///
    /// Cutting whole Characters keeps combining marks, ZWJ emoji and flags intact, so the result
    /// never shows half a glyph; a wide Character that does not fit is dropped entirely, which can
    /// leave the result one column short of `width` (`pad` fills that column).
    public static func truncate(_ string: String, toWidth width: Int, ellipsis: Bool = true) -> String {
        if width <= 0 { return "" }
        if of(string) <= width { return string }
        let budget = ellipsis ? width - 1 : width
        var used = 0
        var end = string.startIndex
        while end < string.endIndex {
            let w = of(string[end])
            if used + w > budget { break }
            used += w
            end = string.index(after: end)
        }
        let prefix = String(string[..<end])
        return ellipsis ? prefix + "…" : prefix
    }

    /// The longest suffix (whole Characters only) whose width is <= `width`: what stays in view
    /// of a line typed at its end. One walk back from the end, which stops at the first
    /// Character that does not fit: it costs what it keeps, however long the text (a 48 KB
    /// paste in browse's prompt). A wide Character that does not fit is left out whole.
    public static func suffix(_ string: String, toWidth width: Int) -> Substring {
        var used = 0
        var start = string.endIndex
        while start > string.startIndex {
            let before = string.index(before: start)
            let w = of(string[before])
            if used + w > width { break }
            used += w
            start = before
        }
        return string[start...]
    }

    /// Pads with spaces on the right (or left when `alignRight`) to exactly `width` columns;
    /// truncates first (with ellipsis) when wider.
    public static func pad(_ string: String, toWidth width: Int, alignRight: Bool = false) -> String {
        if width <= 0 { return "" }
        let fitted = truncate(string, toWidth: width)
        let missing = width - of(fitted)
        if missing <= 0 { return fitted }
        let spaces = String(repeating: " ", count: missing)
        return alignRight ? spaces + fitted : fitted + spaces
    }

    // MARK: - Internals

    /// Width from the generated step table: the run whose start is the last one <= `v`.
    static func tableWidth(_ v: UInt32) -> Int {
        widthSteps.withUnsafeBufferPointer { steps in
            // Invariant: steps[lo] starts at or before v (steps[0] starts at U+0000); steps[hi]
            // starts after v, or hi == count.
            var lo = 0
            var hi = steps.count
            while hi - lo > 1 {
                let mid = (lo + hi) >> 1
                if steps[mid] >> 2 <= v { lo = mid } else { hi = mid }
            }
            return Int(steps[lo] & 3)
        }
    }

    /// Width of strings made only of printable ASCII and precomposed Hangul syllables, read
    /// straight from the UTF-8 bytes; nil for anything else.
    ///
    /// For such strings every scalar is its own grapheme cluster (no two of them join: a Hangul
    /// syllable only joins following conjoining jamo, which are not in the set), so the sum of
    /// scalar widths equals the sum of Character widths without paying for grapheme breaking.
    static func simpleWidth(_ string: String) -> Int? {
        let result: Int?? = string.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var width = 0
            var i = 0
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if b >= 0x20 && b < 0x7F {
                    width += 1
                    i += 1
                } else if b >= 0xEA && b <= 0xED && i + 2 < n {
                    // U+AC00...U+D7A3 is EA B0 80 ... ED 9E A3.
                    let v = UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                    guard v >= 0xAC00 && v <= 0xD7A3 else { return nil }
                    width += 2
                    i += 3
                } else {
                    return nil
                }
            }
            return width
        }
        return result ?? nil
    }
}
