/// Builds the index of a list of items (at import time; the generator script mirrors it for the
/// embedded catalog): the normalized texts, the per-item facts the sorts and filters need, and
/// the postings of every bigram and scalar. One pass over the items: each key gets a dense
/// number from an open-addressing table, each item's distinct keys are noted once, and the
/// postings are laid out from the counts afterwards (ascending ordinals by construction).
enum CatalogIndexBuilder {
    /// What one item adds beside the text and keys `build`'s `entry` appends.
    struct Entry {
        var titleLength = 0, fieldsLength = 0, idLength = 0, idCharacters = 0
        var idHash: UInt64 = 0
        var price: Int?
        var flags: CatalogIndexFormat.Flags = []
    }

    /// `ranges` locate each item's JSON in the items file (or the embedded literal).
    static func build(items: [WireItem], ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> [UInt8] {
        precondition(items.count == ranges.count)
        return build(count: items.count, ranges: ranges, generation: generation, itemsLength: itemsLength) { ordinal, text, keys in
            let item = items[ordinal]
            let facts = CatalogEntryFacts(item)
            var entry = Entry(price: facts.price, flags: facts.flags)
            facts.title.withUnsafeBufferPointer { entry.titleLength = appendText($0, to: &text, keys: &keys) }
            for field in facts.fields {
                field.withUnsafeBufferPointer { entry.fieldsLength += appendText($0, to: &text, keys: &keys) + 1 }
                text.append(0x1F)
            }
            var productId = item.productId
            productId.withUTF8 { appendId($0, to: &text, entry: &entry) }
            entry.idCharacters = item.productId.count
            return entry
        }
    }

    /// Appends a normalized text and notes its keys; returns its length.
    @inline(__always)
    static func appendText(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], keys: inout [UInt64]) -> Int {
        text.append(contentsOf: bytes)
        CatalogText.keys(bytes, into: &keys)
        return bytes.count
    }

    /// Appends the productId (its first 65,535 bytes) and notes its length and hash.
    @inline(__always)
    static func appendId(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], entry: inout Entry) {
        let id = UnsafeBufferPointer(rebasing: bytes.prefix(Int(UInt16.max)))
        text.append(contentsOf: id)
        entry.idLength = id.count
        entry.idHash = CatalogIndexFormat.fnv(id)
    }

    /// The index of `count` items, each appended by `entry`: its normalized title, then each
    /// field followed by 0x1F, then its productId, with the keys of the title and fields.
    static func build(count: Int, ranges: [Range<Int>], generation: UInt64, itemsLength: Int,
                      entry: (_ ordinal: Int, _ text: inout [UInt8], _ keys: inout [UInt64]) -> Entry) -> [UInt8] {
        precondition(count == ranges.count)
        var records = [UInt8](repeating: 0, count: count * CatalogIndexFormat.recordSize)
        var text: [UInt8] = []
        text.reserveCapacity(count * 160)
        var table = KeyTable()
        var occurrences: [UInt32] = []  // per item, the dense numbers of its distinct keys
        occurrences.reserveCapacity(count * 96)
        var ends = [Int](repeating: 0, count: count)
        var ids: [(UInt64, UInt64)] = []
        ids.reserveCapacity(count)
        var keys: [UInt64] = []
        keys.reserveCapacity(256)
        for ordinal in 0..<count {
            let textStart = text.count
            keys.removeAll(keepingCapacity: true)
            let facts = entry(ordinal, &text, &keys)
            for key in keys {
                let dense = table.number(of: key)
                if table.lastSeen[dense] != Int32(truncatingIfNeeded: ordinal) {
                    table.lastSeen[dense] = Int32(truncatingIfNeeded: ordinal)
                    table.counts[dense] += 1
                    occurrences.append(UInt32(dense))
                }
            }
            ends[ordinal] = occurrences.count
            ids.append((facts.idHash, UInt64(ordinal)))
            let range = ranges[ordinal]
            records.withUnsafeMutableBytes { out in
                let at = ordinal * CatalogIndexFormat.recordSize
                out.storeBytes(of: UInt64(range.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                out.storeBytes(of: UInt32(clamping: range.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
                out.storeBytes(of: UInt32(clamping: facts.titleLength).littleEndian, toByteOffset: at + 12, as: UInt32.self)
                out.storeBytes(of: UInt64(textStart).littleEndian, toByteOffset: at + 16, as: UInt64.self)
                out.storeBytes(of: UInt32(clamping: facts.fieldsLength).littleEndian, toByteOffset: at + 24, as: UInt32.self)
                out.storeBytes(of: UInt16(facts.idLength).littleEndian, toByteOffset: at + 28, as: UInt16.self)
                out.storeBytes(of: UInt16(clamping: facts.idCharacters).littleEndian, toByteOffset: at + 30, as: UInt16.self)
                out.storeBytes(of: UInt64(bitPattern: Int64(facts.price ?? 0)).littleEndian, toByteOffset: at + 32, as: UInt64.self)
                out[at + 40] = facts.flags.rawValue
            }
        }

        // The keys in ascending order, each key's first posting, then the postings.
        let keyCount = table.keys.count
        let order = (0..<keyCount).sorted { table.keys[$0] < table.keys[$1] }
        var cursor = [Int](repeating: 0, count: keyCount)  // by dense number
        var startsByRank = [UInt64](repeating: 0, count: keyCount + 1)
        var running = 0
        for (rank, dense) in order.enumerated() {
            startsByRank[rank] = UInt64(running)
            cursor[dense] = running
            running += Int(table.counts[dense])
        }
        startsByRank[keyCount] = UInt64(running)
        let postingCount = running
        let layout = CatalogIndexFormat.Layout(count: count, keyCount: keyCount, postingCount: postingCount, textLength: text.count)
        var out = [UInt8](repeating: 0, count: layout.total)
        ids.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        out.withUnsafeMutableBytes { out in
            func put(_ value: UInt64, _ at: Int) { out.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt64.self) }
            out.copyBytes(from: CatalogIndexFormat.magic)
            for (i, value) in [count, keyCount, postingCount, text.count].enumerated() { put(UInt64(value), 8 + i * 8) }
            put(generation, 40)
            put(UInt64(itemsLength), 48)
            records.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[layout.records..<(layout.records + $0.count)]).copyMemory(from: $0) }
            for (rank, dense) in order.enumerated() { put(table.keys[dense], layout.keys + rank * 8) }
            for (rank, start) in startsByRank.enumerated() { put(start, layout.starts + rank * 8) }
            var from = 0
            for ordinal in 0..<count {
                for o in from..<ends[ordinal] {
                    let dense = Int(occurrences[o])
                    out.storeBytes(of: UInt32(ordinal).littleEndian, toByteOffset: layout.postings + cursor[dense] * 4, as: UInt32.self)
                    cursor[dense] += 1
                }
                from = ends[ordinal]
            }
            for (i, (hash, ordinal)) in ids.enumerated() {
                put(hash, layout.ids + i * 16)
                put(ordinal, layout.ids + i * 16 + 8)
            }
            text.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: out[layout.text..<layout.total]).copyMemory(from: $0) }
        }
        return out
    }

    /// Keys to dense numbers (open addressing, linear probing), with each key's posting count
    /// and the last ordinal that noted it.
    struct KeyTable {
        private var slots = [Int32](repeating: -1, count: 1 << 12)
        private var mask = (1 << 12) - 1
        var keys: [UInt64] = []
        var counts: [UInt32] = []
        var lastSeen: [Int32] = []

        @inline(__always) private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask }

        mutating func number(of key: UInt64) -> Int {
            var s = slot(key)
            while true {
                let dense = slots[s]
                if dense < 0 { break }
                if keys[Int(dense)] == key { return Int(dense) }
                s = (s + 1) & mask
            }
            let dense = keys.count
            slots[s] = Int32(dense)
            keys.append(key)
            counts.append(0)
            lastSeen.append(-1)
            if keys.count * 2 > slots.count { grow() }
            return dense
        }

        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (dense, key) in keys.enumerated() {
                var s = slot(key)
                while slots[s] >= 0 { s = (s + 1) & mask }
                slots[s] = Int32(dense)
            }
        }
    }
}

/// What the search needs of one item, normalized as the API matches: the cleaned title and the
/// brand, maker and categories, lowercased; the price; the stand-in filters' facts.
struct CatalogEntryFacts {
    var title: [UInt8]
    var fields: [[UInt8]]
    var price: Int?
    var flags: CatalogIndexFormat.Flags

    init(_ item: WireItem) {
        let cleaned = TitleCleaner.clean(item.title)
        title = CatalogText.lowercased(cleaned)
        fields = []
        for field in [item.brand, item.maker, item.category1, item.category2, item.category3, item.category4] {
            guard let field, !field.isEmpty else { continue }
            let lowered = CatalogText.lowercased(TitleCleaner.clean(field))
            if !lowered.isEmpty { fields.append(lowered) }
        }
        price = ProductMapper.price(item.lprice)
        let link = item.link ?? ""
        let type = item.productType.flatMap { Int($0) } ?? 0
        var flags: CatalogIndexFormat.Flags = []
        if CatalogText.contains(link, "://smartstore.naver.com/") || CatalogText.contains(link, "://brand.naver.com/") { flags.insert(.naverPay) }
        if (4...6).contains(type) { flags.insert(.used) }
        if CatalogText.contains(cleaned, "렌탈") { flags.insert(.rental) }
        if CatalogText.contains(cleaned, "해외직구") || CatalogText.contains(cleaned, "구매대행") { flags.insert(.crossBorder) }
        self.flags = flags
    }
}
