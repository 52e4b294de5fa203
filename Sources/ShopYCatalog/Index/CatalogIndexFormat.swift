import ShopYBase

/// The catalog index file (`catalog.index`, beside `catalog.json`), little-endian:
///
///     header   64 bytes: "SHPYIDX2", count, keyCount, postingCount, textLength, generation,
///              itemsLength, checksum (of the header's words before it, keys, starts, sums, ids)
///     records  count × 48: itemStart u64, itemLength u32, titleLength u32, textStart u64,
///              fieldsLength u32, idLength u16, idCharacters u16, price i64 (0: none), flags u8,
///              3 bytes 0, checksum u32 (of the record's bytes 12–43 and its text; its place
///              in the items is checked by reading the item there, which must have its productId)
///     keys     keyCount × u64, ascending (a bigram of lowercased scalars, or one scalar)
///     starts   (keyCount + 1) × u64: each key's postings are postings[starts[k]..<starts[k+1]]
///     sums     keyCount × u64: the checksum of each key's postings
///     postings postingCount × u32 item ordinals, ascending per key (padded to 8 bytes)
///     ids      count × 16: FNV-1a of the productId, ordinal; ascending by hash
///     text     per item: the cleaned lowercased title, each field (brand, maker, categories,
///              lowercased) followed by 0x1F, then the productId
///
/// It is mapped, not read: a search touches the keys it looks up, their postings, and the
/// records and text of the items that hold every key. What a search relies on is checked where
/// it is read (`CatalogIndex`): the header, keys, starts, sums and ids when the file is opened,
/// a key's postings and an item's record with its text when they are read. So a damaged file is
/// found out at the cost of what a search reads anyway, never by reading the whole file.
enum CatalogIndexFormat {
    static let magic: [UInt8] = Array("SHPYIDX2".utf8)
    static let headerSize = 64
    static let recordSize = 48
    /// Where a record's checksum is; it covers the bytes from `recordChecked` up to it.
    static let recordChecksum = 44
    static let recordChecked = 12

    struct Flags: OptionSet {
        let rawValue: UInt8
        static let naverPay = Flags(rawValue: 1)
        static let used = Flags(rawValue: 2)
        static let rental = Flags(rawValue: 4)
        static let crossBorder = Flags(rawValue: 8)
    }

    struct Layout {
        var count: Int, keyCount: Int, postingCount: Int, textLength: Int
        var records: Int { headerSize }
        var keys: Int { records + count * recordSize }
        var starts: Int { keys + keyCount * 8 }
        var sums: Int { starts + (keyCount + 1) * 8 }
        var postings: Int { sums + keyCount * 8 }
        var ids: Int { postings + (postingCount * 4 + 7) / 8 * 8 }
        var text: Int { ids + count * 16 }
        var total: Int { text + textLength }
    }

    static func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100000001b3 }
        return hash
    }

    /// A checksum of `bytes` continuing from `seed` (0 to start), eight bytes at a time: it
    /// finds damage (a cut, zeros, changed bytes), not a forger.
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hash = seed ^ 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            hash = (hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            i += 8
        }
        while i < bytes.count {
            hash = (hash ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return hash
    }

    /// The header's checksum: of its words before it, then of the sections from keys to the
    /// postings (keys, starts, sums), then of the ids.
    static func headerChecksum(_ file: UnsafeRawBufferPointer, _ layout: Layout) -> UInt64 {
        var sum = checksum(UnsafeRawBufferPointer(rebasing: file[8..<56]))
        sum = checksum(UnsafeRawBufferPointer(rebasing: file[layout.keys..<layout.postings]), seed: sum)
        return checksum(UnsafeRawBufferPointer(rebasing: file[layout.ids..<layout.text]), seed: sum)
    }

    /// A record's checksum: of its bytes from `recordChecked` to `recordChecksum`, then of its
    /// text.
    static func recordChecksum(_ record: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(truncatingIfNeeded: checksum(text, seed: checksum(UnsafeRawBufferPointer(rebasing: record[recordChecked..<recordChecksum]))))
    }
}
