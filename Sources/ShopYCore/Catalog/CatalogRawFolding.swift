/// The import's one pass over a text's scalars: folded to lowercase, its keys noted, the title
/// flags' words looked for, each scalar decoded once.
extension CatalogRawBytes {
    /// The words of the title flags (`CatalogEntryFacts`) a text holds.
    struct FlagWords: OptionSet {
        let rawValue: UInt8
        static let rental = FlagWords(rawValue: 1)  // 렌탈
        static let crossBorder = FlagWords(rawValue: 2)  // 해외직구 or 구매대행
    }

    /// Appends `CatalogText.lowercased` of the text and notes its keys; returns its length, and
    /// the flag words it holds (nil when the text took the standard library's full mapping: the
    /// caller then looks for them itself).
    ///
    /// The pass folds ASCII capitals and notes each scalar's keys as it goes; at the first scalar
    /// that is neither ASCII nor caseless it stops, and the whole text is lowercased by the
    /// standard library and its keys noted. The keys the pass noted before stopping are keys of
    /// that text too (its prefix is ASCII and caseless scalars, which `lowercased()` maps as the
    /// pass does), and a key noted twice for one item counts once, so the result is the same.
    static func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], table: CatalogIndexBuilder.KeyTable,
                                 ordinal: Int32) -> (length: Int, words: FlagWords?) {
        let start = text.count
        guard bytes.count > 0 else { return (0, []) }
        text.append(contentsOf: bytes)
        let words: FlagWords? = text.withUnsafeMutableBufferPointer { all in
            foldAndNote(UnsafeMutableBufferPointer(rebasing: all[start...]), table: table, ordinal: ordinal)
        }
        if words == nil {
            text.removeSubrange(start...)
            text.append(contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8)
            text.withUnsafeBufferPointer { noteKeys(UnsafeBufferPointer(rebasing: $0[start...]), table: table, ordinal: ordinal) }
        }
        return (text.count - start, words)
    }

    /// Folds and notes `text` in place (see `appendLowercased`); nil at the first scalar that
    /// is neither ASCII nor caseless.
    ///
    /// The flag words are found in a window of the last four scalars, 16 bits each (a scalar
    /// beyond the BMP, which no word holds, as 0): a word is there when the window ends with it.
    /// The text is valid UTF-8 (an import checks each file whole; stored records are Strings),
    /// so a scalar decodes as `contains` on the bytes sees it.
    @inline(__always)
    private static func foldAndNote(_ text: UnsafeMutableBufferPointer<UInt8>, table: CatalogIndexBuilder.KeyTable, ordinal: Int32) -> FlagWords? {
        let n = text.count
        var previous: UInt32 = 0
        var window: UInt64 = 0
        var words: FlagWords = []
        var i = 0
        while i < n {
            var scalar = UInt32(text[i])
            var width = 1
            var space: Bool
            if scalar < 0x80 {
                if scalar &- 0x41 < 26 {
                    scalar |= 0x20
                    text[i] = UInt8(scalar)
                }
                space = scalar == 0x20 || scalar &- 0x09 < 5
            } else {
                (scalar, width) = CatalogText.decode(UnsafeBufferPointer(text), at: i)
                if scalar &- 0xAC00 < 11_172 {  // a Hangul syllable: caseless, not a space
                    space = false
                } else {
                    guard CatalogText.caseless(scalar) else { return nil }
                    space = CatalogText.isSpace(scalar)
                }
            }
            i += width
            window = window << 16 | UInt64(scalar <= 0xFFFF ? scalar : 0)
            if window & 0xFFFF_FFFF == 0xB80C_D0C8 { words.insert(.rental) }
            if window == 0xD574_C678_C9C1_AD6C || window == 0xAD6C_B9E4_B300_D589 { words.insert(.crossBorder) }
            if space {
                previous = 0
                continue
            }
            table.note(CatalogText.unigram(scalar), ordinal: ordinal)
            if previous != 0 { table.note(CatalogText.bigram(previous, scalar), ordinal: ordinal) }
            previous = scalar
        }
        return words
    }
}
