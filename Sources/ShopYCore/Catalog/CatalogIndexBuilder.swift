/// Builds the catalog index (`CatalogIndexFormat`) of raw records: for each item its normalized
/// texts, the facts the sorts and filters need, and the postings of every bigram and scalar.
/// One pass over the items: each key gets a dense number in a `KeyTable`, each item's distinct
/// keys are noted once, and the postings are laid out from the counts afterwards (ascending
/// ordinals by construction). The only implementation of the format: imports, the index rebuilt
/// from catalog.json, items held in memory and the embedded catalog all go through it.
enum CatalogIndexBuilder {
    /// `ranges` locate each item's JSON in the items file (empty ranges for items in memory).
    static func build(_ records: CatalogRawRecords, ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> [UInt8] {
        let count = records.count
        precondition(ranges.count == count)
        // Ordinals are noted as Int32s and postings are UInt32s: a bound far past any catalog
        // (an import reads at most 512 MiB, under a million items), checked here.
        precondition(count < Int(Int32.max), "a catalog index holds fewer than 2,147,483,647 items")
        var table = KeyTable()
        var text: [UInt8] = []
        var recordBytes = [UInt8](repeating: 0, count: count * CatalogIndexFormat.recordSize)
        var ids: [(hash: UInt64, ordinal: UInt64)] = []
        ids.reserveCapacity(count)
        var ends = [Int](repeating: 0, count: count)  // by ordinal: the end of its occurrences in the table
        var keys: [UInt64] = []
        for ordinal in 0..<count {
            let textStart = text.count
            keys.removeAll(keepingCapacity: true)
            let entry = appendEntry(records, ordinal, to: &text, keys: &keys)
            for key in keys { table.note(key, ordinal: Int32(ordinal)) }
            ends[ordinal] = table.occurrences.count
            ids.append((entry.idHash, UInt64(ordinal)))
            let place = ranges[ordinal]
            recordBytes.withUnsafeMutableBytes { out in
                let at = ordinal * CatalogIndexFormat.recordSize
                out.storeBytes(of: UInt64(place.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                out.storeBytes(of: UInt32(clamping: place.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
                out.storeBytes(of: UInt32(clamping: entry.titleLength).littleEndian, toByteOffset: at + 12, as: UInt32.self)
                out.storeBytes(of: UInt64(textStart).littleEndian, toByteOffset: at + 16, as: UInt64.self)
                out.storeBytes(of: UInt32(clamping: entry.fieldsLength).littleEndian, toByteOffset: at + 24, as: UInt32.self)
                out.storeBytes(of: UInt16(entry.idLength).littleEndian, toByteOffset: at + 28, as: UInt16.self)
                out.storeBytes(of: UInt16(clamping: entry.idCharacters).littleEndian, toByteOffset: at + 30, as: UInt16.self)
                out.storeBytes(of: UInt64(bitPattern: Int64(entry.price ?? 0)).littleEndian, toByteOffset: at + 32, as: UInt64.self)
                out[at + 40] = entry.flags.rawValue
                let record = UnsafeRawBufferPointer(rebasing: out[at..<(at + CatalogIndexFormat.recordSize)])
                let sum = text.withUnsafeBytes { CatalogIndexFormat.recordChecksum(record, text: UnsafeRawBufferPointer(rebasing: $0[textStart...])) }
                out.storeBytes(of: sum.littleEndian, toByteOffset: at + CatalogIndexFormat.recordChecksum, as: UInt32.self)
            }
        }

        // The keys in ascending order, each key's first posting, then the postings: each
        // occurrence's ordinal written at its key's cursor.
        let keyCount = table.keys.count
        let order = (0..<keyCount).sorted { table.keys[$0] < table.keys[$1] }
        var cursor = [Int](repeating: 0, count: keyCount)  // by dense number
        var sortedKeys: [UInt64] = [], starts: [UInt64] = []
        sortedKeys.reserveCapacity(keyCount)
        starts.reserveCapacity(keyCount + 1)
        var running = 0
        for dense in order {
            sortedKeys.append(table.keys[dense].littleEndian)
            starts.append(UInt64(running).littleEndian)
            cursor[dense] = running
            running += Int(table.counts[dense])
        }
        starts.append(UInt64(running).littleEndian)
        var postings = [UInt32](repeating: 0, count: (running + 1) / 2 * 2)  // padded to 8 bytes
        var from = 0
        for ordinal in 0..<count {
            for k in from..<ends[ordinal] {
                let dense = Int(table.occurrences[k])
                postings[cursor[dense]] = UInt32(ordinal).littleEndian
                cursor[dense] += 1
            }
            from = ends[ordinal]
        }
        // Each key's postings checksummed as the file holds them (`littleEndian` values).
        let sums = postings.withUnsafeBytes { all in
            (0..<keyCount).map { rank -> UInt64 in
                let from = Int(UInt64(littleEndian: starts[rank])), to = Int(UInt64(littleEndian: starts[rank + 1]))
                return CatalogIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: all[(from * 4)..<(to * 4)])).littleEndian
            }
        }
        ids.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.ordinal < $1.ordinal }

        let layout = CatalogIndexFormat.Layout(count: count, keyCount: keyCount, postingCount: running, textLength: text.count)
        var out: [UInt8] = []
        out.reserveCapacity(layout.total)
        out += CatalogIndexFormat.magic
        for word in [UInt64(count), UInt64(keyCount), UInt64(running), UInt64(text.count), generation, UInt64(itemsLength), 0] {  // the checksum last
            withUnsafeBytes(of: word.littleEndian) { out += $0 }
        }
        out += recordBytes
        sortedKeys.withUnsafeBytes { out += $0 }
        starts.withUnsafeBytes { out += $0 }
        sums.withUnsafeBytes { out += $0 }
        postings.withUnsafeBytes { out += $0 }
        for id in ids {
            withUnsafeBytes(of: id.hash.littleEndian) { out += $0 }
            withUnsafeBytes(of: id.ordinal.littleEndian) { out += $0 }
        }
        out += text
        assert(out.count == layout.total)
        let sum = out.withUnsafeBytes { CatalogIndexFormat.headerChecksum($0, layout) }
        out.withUnsafeMutableBytes { $0.storeBytes(of: sum.littleEndian, toByteOffset: 56, as: UInt64.self) }
        return out
    }

    /// What one item's record holds beside its place in the items file and in the text.
    struct Entry {
        var titleLength = 0, fieldsLength = 0, idLength = 0, idCharacters = 0
        var idHash: UInt64 = 0
        var price: Int?
        var flags: CatalogIndexFormat.Flags = []
    }

    /// The fields a search matches beside the title, in the order the text holds them.
    static let matchedFields: [CatalogRawRecords.Field] = [.brand, .maker, .category1, .category2, .category3, .category4]

    /// Appends item `r`'s text (its cleaned, lowercased title; each non-empty matched field,
    /// cleaned and lowercased, followed by 0x1F; its productId) and notes the keys of its title
    /// and fields; the rest of its record.
    static func appendEntry(_ records: CatalogRawRecords, _ r: Int, to text: inout [UInt8], keys: inout [UInt64]) -> Entry {
        var entry = Entry()
        CatalogRawBytes.withCleaned(records[r, .title].buffer) { cleaned in
            if CatalogRawBytes.contains(cleaned, "렌탈") { entry.flags.insert(.rental) }
            if CatalogRawBytes.contains(cleaned, "해외직구") || CatalogRawBytes.contains(cleaned, "구매대행") { entry.flags.insert(.crossBorder) }
            entry.titleLength = appendLowercased(cleaned, to: &text, keys: &keys)
        }
        for field in matchedFields where records[r, field].count > 0 {
            CatalogRawBytes.withCleaned(records[r, field].buffer) { cleaned in
                let length = appendLowercased(cleaned, to: &text, keys: &keys)
                if length > 0 {
                    text.append(0x1F)
                    entry.fieldsLength += length + 1
                }
            }
        }
        let link = records[r, .link].buffer
        if CatalogRawBytes.contains(link, "://smartstore.naver.com/") || CatalogRawBytes.contains(link, "://brand.naver.com/") {
            entry.flags.insert(.naverPay)
        }
        let type = records[r, .productType]
        if let t = type.isAbsent ? nil : CatalogRawBytes.int(type.buffer), (4...6).contains(t) { entry.flags.insert(.used) }
        let lprice = records[r, .lprice]
        entry.price = lprice.isAbsent ? nil : CatalogRawBytes.int(CatalogRawBytes.trimmed(lprice.buffer)).flatMap { $0 > 0 ? $0 : nil }
        // The productId: its first 65,535 bytes, its hash, and its length in Characters (the
        // date sort's first key: a usable productId is ASCII digits, one Character a byte).
        let id = UnsafeBufferPointer(rebasing: records[r, .productId].buffer.prefix(Int(UInt16.max)))
        text.append(contentsOf: id)
        entry.idLength = id.count
        entry.idHash = CatalogIndexFormat.fnv(id)
        let whole = records[r, .productId].buffer
        entry.idCharacters = whole.allSatisfy({ $0 < 0x80 }) ? whole.count : String(decoding: whole, as: UTF8.self).count
        return entry
    }

    /// Appends the text lowercased (`CatalogText.lowercased`) and notes its keys; its length.
    static func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], keys: inout [UInt64]) -> Int {
        let start = text.count
        text.append(contentsOf: bytes)
        let folded = text.withUnsafeMutableBufferPointer { CatalogText.foldInPlace($0, from: start) }
        if !folded {
            text.removeSubrange(start...)
            text.append(contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        }
        text.withUnsafeBufferPointer { CatalogText.keys(UnsafeBufferPointer(rebasing: $0[start...]), into: &keys) }
        return text.count - start
    }

    /// Keys to dense numbers (open addressing, linear probing), with each key's posting count,
    /// the last ordinal that noted it, and every dense number noted, item after item.
    struct KeyTable {
        private var slots = [Int32](repeating: -1, count: 1 << 12)
        private(set) var keys: [UInt64] = []
        private(set) var counts: [UInt32] = []
        private var lastSeen: [Int32] = []
        private(set) var occurrences: [UInt32] = []

        private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slots.count - 1) }

        /// Notes `key` for the item `ordinal` (once per item: a key noted again is left alone).
        mutating func note(_ key: UInt64, ordinal: Int32) {
            var s = slot(key)
            var dense = -1
            while dense < 0 {
                let d = Int(slots[s])
                if d < 0 {
                    dense = insert(key, at: s)
                } else if keys[d] == key {
                    dense = d
                } else {
                    s = (s + 1) & (slots.count - 1)
                }
            }
            guard lastSeen[dense] != ordinal else { return }
            lastSeen[dense] = ordinal
            counts[dense] += 1
            occurrences.append(UInt32(dense))
        }

        private mutating func insert(_ key: UInt64, at s: Int) -> Int {
            let dense = keys.count
            slots[s] = Int32(dense)
            keys.append(key)
            counts.append(0)
            lastSeen.append(-1)
            if keys.count * 2 > slots.count {
                // Half full: twice the slots, every key placed again.
                slots = [Int32](repeating: -1, count: slots.count * 2)
                for (d, key) in keys.enumerated() {
                    var s = slot(key)
                    while slots[s] >= 0 { s = (s + 1) & (slots.count - 1) }
                    slots[s] = Int32(d)
                }
            }
            return dense
        }
    }
}
