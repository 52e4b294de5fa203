/// The catalog index file (`catalog.index`, beside `catalog.json`), little-endian:
///
///     header   64 bytes: "SHPYIDX1", count, keyCount, postingCount, textLength, generation,
///              itemsLength, 0
///     records  count × 48: itemStart u64, itemLength u32, titleLength u32, textStart u64,
///              fieldsLength u32, idLength u16, idCharacters u16, price i64 (0: none), flags u8, pad
///     keys     keyCount × u64, ascending (a bigram of lowercased scalars, or one scalar)
///     starts   (keyCount + 1) × u64: each key's postings are postings[starts[k]..<starts[k+1]]
///     postings postingCount × u32 item ordinals, ascending per key (padded to 8 bytes)
///     ids      count × 16: FNV-1a of the productId, ordinal; ascending by hash
///     text     per item: the cleaned lowercased title, each field (brand, maker, categories,
///              lowercased) followed by 0x1F, then the productId
///
/// It is mapped, not read: a search touches the keys it looks up, their postings, and the
/// records and text of the items that hold every key.
package enum CatalogIndexFormat {
    static let magic: [UInt8] = Array("SHPYIDX1".utf8)
    static let headerSize = 64
    static let recordSize = 48

    struct Flags: OptionSet {
        let rawValue: UInt8
        static let naverPay = Flags(rawValue: 1)
        static let used = Flags(rawValue: 2)
        static let rental = Flags(rawValue: 4)
        static let crossBorder = Flags(rawValue: 8)
    }

    package struct Layout {
        package var count: Int, keyCount: Int, postingCount: Int, textLength: Int
        var records: Int { headerSize }
        var keys: Int { records + count * recordSize }
        var starts: Int { keys + keyCount * 8 }
        var postings: Int { starts + (keyCount + 1) * 8 }
        var ids: Int { postings + (postingCount * 4 + 7) / 8 * 8 }
        var text: Int { ids + count * 16 }
        var total: Int { text + textLength }
    }

    static func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100000001b3 }
        return hash
    }
}
