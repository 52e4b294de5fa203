import ShopYBase

/// Builds the catalog index (`CatalogIndexFormat`) of raw records: for each item its normalized
/// texts, the facts the sorts and filters need, and the postings of every bigram and scalar.
/// One pass over the items: each key gets a dense number in a `KeyTable`, each item's distinct
/// keys are noted once, and the postings are laid out from the counts afterwards (ascending
/// ordinals by construction). The only implementation of the format: imports, the index rebuilt
/// from catalog.json, items held in memory and the embedded catalog all go through it.
enum CatalogIndexBuilder {
    /// The index file in the sections it is laid out in (written one after the other, never
    /// copied into one buffer), each holding its values as the file does (little-endian).
    struct Pieces {
        var header: [UInt8], records: [UInt8], directory: [UInt64], postings: [UInt32], ids: [UInt64], text: [UInt8]

        /// Hands each section's bytes to `body` in the file's order; the first non-nil result.
        func forEachSection<R>(_ body: (UnsafeRawBufferPointer) -> R?) -> R? {
            if let r = header.withUnsafeBytes(body) { return r }
            if let r = records.withUnsafeBytes(body) { return r }
            if let r = directory.withUnsafeBytes(body) { return r }
            if let r = postings.withUnsafeBytes(body) { return r }
            if let r = ids.withUnsafeBytes(body) { return r }
            return text.withUnsafeBytes(body)
        }

        /// Sets each record's place in the items file and the file's length (for an index built
        /// before the items were written), and the header's checksum again.
        mutating func locate(ranges: [Range<Int>], itemsLength: Int) {
            precondition(ranges.count * CatalogIndexFormat.recordSize == records.count)
            records.withUnsafeMutableBytes { out in
                for (ordinal, place) in ranges.enumerated() {
                    let at = ordinal * CatalogIndexFormat.recordSize
                    out.storeBytes(of: UInt64(place.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                    out.storeBytes(of: UInt32(clamping: place.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
                }
            }
            header.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(itemsLength).littleEndian, toByteOffset: 48, as: UInt64.self) }
            seal()
        }

        /// Sets the header's checksum (`CatalogIndexFormat.headerChecksum`: of its words before
        /// it, the keys, starts and sums, then the ids).
        mutating func seal() {
            var sum = header.withUnsafeBytes { CatalogIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: $0[8..<56])) }
            sum = directory.withUnsafeBytes { CatalogIndexFormat.checksum($0, seed: sum) }
            sum = ids.withUnsafeBytes { CatalogIndexFormat.checksum($0, seed: sum) }
            header.withUnsafeMutableBytes { $0.storeBytes(of: sum.littleEndian, toByteOffset: 56, as: UInt64.self) }
        }

        /// The whole file, for an index held in memory.
        var bytes: [UInt8] {
            var all: [UInt8] = []
            _ = forEachSection { section -> Void? in all += section; return nil }
            return all
        }
    }

    /// `ranges` locate each item's JSON in the items file (empty ranges for items in memory).
    static func build(_ records: CatalogRawRecords, ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> Pieces {
        let count = records.count
        precondition(ranges.count == count)
        // Ordinals are noted as Int32s and postings are UInt32s: a bound far past any catalog
        // (an import reads at most 512 MiB, under a million items), checked here.
        precondition(count < Int(Int32.max), "a catalog index holds fewer than 2,147,483,647 items")
        var textCapacity = 0
        for r in 0..<count {
            for field in [CatalogRawRecords.Field.title, .productId] + matchedFields { textCapacity += max(records[r, field].count, 0) + 1 }
        }
        var table = KeyTable(occurrenceCapacity: textCapacity)
        var text: [UInt8] = []
        text.reserveCapacity(textCapacity)
        var recordBytes = [UInt8](repeating: 0, count: count * CatalogIndexFormat.recordSize)
        var ids: [(hash: UInt64, ordinal: UInt64)] = []
        ids.reserveCapacity(count)
        var ends = [Int](repeating: 0, count: count)  // by ordinal: the end of its occurrences in the table
        for ordinal in 0..<count {
            let textStart = text.count
            let entry = appendEntry(records, ordinal, to: &text, table: &table)
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

        // The keys in ascending order with each key's first posting and the checksum of its
        // postings, then the postings: each occurrence's ordinal written at its key's cursor.
        let keyCount = table.keys.count
        let order = (0..<keyCount).sorted { table.keys[$0] < table.keys[$1] }
        var cursor = [Int](repeating: 0, count: keyCount)  // by dense number
        var directory: [UInt64] = []  // keys, then starts, then sums: written as the file holds them
        directory.reserveCapacity(keyCount * 3 + 1)
        var running = 0
        for dense in order { directory.append(table.keys[dense].littleEndian) }
        for dense in order {
            directory.append(UInt64(running).littleEndian)
            cursor[dense] = running
            running += Int(table.counts[dense])
        }
        directory.append(UInt64(running).littleEndian)
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
        postings.withUnsafeBytes { all in
            for rank in 0..<keyCount {
                let from = Int(UInt64(littleEndian: directory[keyCount + rank])), to = Int(UInt64(littleEndian: directory[keyCount + rank + 1]))
                directory.append(CatalogIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: all[(from * 4)..<(to * 4)])).littleEndian)
            }
        }
        ids.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.ordinal < $1.ordinal }
        var idBytes: [UInt64] = []
        idBytes.reserveCapacity(count * 2)
        for id in ids {
            idBytes.append(id.hash.littleEndian)
            idBytes.append(id.ordinal.littleEndian)
        }

        let layout = CatalogIndexFormat.Layout(count: count, keyCount: keyCount, postingCount: running, textLength: text.count)
        var header = CatalogIndexFormat.magic
        for word in [UInt64(count), UInt64(keyCount), UInt64(running), UInt64(text.count), generation, UInt64(itemsLength), 0] {
            withUnsafeBytes(of: word.littleEndian) { header += $0 }
        }
        var pieces = Pieces(header: header, records: recordBytes, directory: directory, postings: postings, ids: idBytes, text: text)
        pieces.seal()
        assert(pieces.bytes.count == layout.total)
        return pieces
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
    /// and fields in the table; the rest of its record.
    static func appendEntry(_ records: CatalogRawRecords, _ r: Int, to text: inout [UInt8], table: inout KeyTable) -> Entry {
        let ordinal = Int32(r)
        var entry = Entry()
        CatalogRawBytes.withCleaned(records[r, .title].buffer) { cleaned in
            if CatalogRawBytes.contains(cleaned, "렌탈") { entry.flags.insert(.rental) }
            if CatalogRawBytes.contains(cleaned, "해외직구") || CatalogRawBytes.contains(cleaned, "구매대행") { entry.flags.insert(.crossBorder) }
            entry.titleLength = appendLowercased(cleaned, to: &text, table: &table, ordinal: ordinal)
        }
        for field in matchedFields where records[r, field].count > 0 {
            CatalogRawBytes.withCleaned(records[r, field].buffer) { cleaned in
                let length = appendLowercased(cleaned, to: &text, table: &table, ordinal: ordinal)
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

    /// Appends the text lowercased (`CatalogText.lowercased`) and notes its keys for `ordinal`;
    /// its length.
    static func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], table: inout KeyTable, ordinal: Int32) -> Int {
        let start = text.count
        text.append(contentsOf: bytes)
        let folded = text.withUnsafeMutableBufferPointer { CatalogText.foldInPlace($0, from: start) }
        if !folded {
            text.removeSubrange(start...)
            text.append(contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        }
        text.withUnsafeBufferPointer { all in
            CatalogText.forEachKey(UnsafeBufferPointer(rebasing: all[start...])) { table.note($0, ordinal: ordinal) }
        }
        return text.count - start
    }

    /// Keys to dense numbers, with each key's posting count, the last ordinal that noted it, and
    /// every dense number noted, item after item. A one-scalar key of the BMP (about half of what
    /// an item notes) is numbered through a table indexed by its scalar; the others through
    /// open addressing with linear probing.
    struct KeyTable {
        private var scalars = [Int32](repeating: -1, count: 0x10000)
        private var slots = [Int32](repeating: -1, count: 1 << 12)
        private var slotted = 0
        private(set) var keys: [UInt64] = []
        private(set) var counts: [UInt32] = []
        private var lastSeen: [Int32] = []
        private(set) var occurrences: [UInt32] = []

        /// Room for about `occurrenceCapacity` notes before the table grows.
        init(occurrenceCapacity: Int) {
            occurrences.reserveCapacity(occurrenceCapacity)
        }

        private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slots.count - 1) }

        /// The scalar of a one-scalar key of the BMP, nil for any other key.
        private static func bmpScalar(_ key: UInt64) -> Int? {
            key >> 16 == CatalogText.unigram(0) >> 16 ? Int(key & 0xFFFF) : nil
        }

        /// Notes `key` for the item `ordinal` (once per item: a key noted again is left alone).
        mutating func note(_ key: UInt64, ordinal: Int32) {
            var dense: Int
            if let scalar = Self.bmpScalar(key) {
                dense = Int(scalars[scalar])
                if dense < 0 {
                    dense = add(key)
                    scalars[scalar] = Int32(dense)
                }
            } else {
                var s = slot(key)
                dense = -1
                while dense < 0 {
                    let d = Int(slots[s])
                    if d < 0 {
                        dense = add(key)
                        slots[s] = Int32(dense)
                        slotted += 1
                        if slotted * 2 > slots.count { grow() }
                    } else if keys[d] == key {
                        dense = d
                    } else {
                        s = (s + 1) & (slots.count - 1)
                    }
                }
            }
            guard lastSeen[dense] != ordinal else { return }
            lastSeen[dense] = ordinal
            counts[dense] += 1
            occurrences.append(UInt32(dense))
        }

        private mutating func add(_ key: UInt64) -> Int {
            keys.append(key)
            counts.append(0)
            lastSeen.append(-1)
            return keys.count - 1
        }

        /// Twice the slots, every slotted key placed again (the slots half full).
        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for (d, key) in keys.enumerated() where Self.bmpScalar(key) == nil {
                var s = slot(key)
                while slots[s] >= 0 { s = (s + 1) & (slots.count - 1) }
                slots[s] = Int32(d)
            }
        }
    }
}
