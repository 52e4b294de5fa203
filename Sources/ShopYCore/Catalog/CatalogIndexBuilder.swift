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
        return build(count: items.count, ranges: ranges, generation: generation, itemsLength: itemsLength) { ordinal, text, keys, _ -> Entry in
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
        }.bytes
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
    /// field followed by 0x1F, then its productId, with the keys of the title and fields (in
    /// `keys`, or noted in the table for the ordinal directly).
    static func build(count: Int, ranges: [Range<Int>], generation: UInt64, itemsLength: Int, textCapacity: Int = 0, parallel: Bool = false,
                      entry: (_ ordinal: Int, _ text: inout [UInt8], _ keys: inout [UInt64], _ table: KeyTable) -> Entry) -> Pieces {
        precondition(count == ranges.count)
        // Ordinals are noted as Int32s, -1 meaning none (and postings are UInt32s): a bound far
        // past any catalog (an import reads at most 1 GiB, a few million items), checked here.
        precondition(count < Int(Int32.max), "a catalog index holds fewer than 2,147,483,647 items")
        // Two halves on two threads (each its own text and key table, joined afterwards), or one.
        let halves = parallel && count >= 4096 ? [0..<(count / 2), (count / 2)..<count] : [0..<count]
        // The first part's arrays have room for the whole index: the second's are appended in place.
        let parts = halves.enumerated().map { i, half in
            let share = textCapacity * half.count / max(count, 1)
            return Part(range: half, textCapacity: share, room: i == 0 ? (count, textCapacity) : (half.count, share))
        }
        if parts.count == 1 {
            parts[0].fill(ranges: ranges, entry: entry)
        } else {
            withoutActuallyEscaping(entry) { entry in CatalogParallel.run(parts.count) { i in parts[i].fill(ranges: ranges, entry: entry) } }
        }
        let first = parts[0]
        let table = first.table
        // Moved out of the part (not shared with it), so that appending copies nothing.
        var records = first.records, text = first.text, ids = first.ids
        (first.records, first.text, first.ids) = ([], [], [])
        // The second half's keys in the first's table (each key one dense number), its texts after.
        var second: (part: Part, dense: [Int])?
        // The first half's own posting counts, by dense number (its keys come first in the table).
        let firstCounts = [UInt32](UnsafeBufferPointer(start: table.counts, count: table.count))
        if parts.count == 2 {
            let part = parts[1]
            var dense = [Int](repeating: 0, count: part.table.count)
            for d in 0..<part.table.count { dense[d] = table.merge(part.table.keys[d], count: part.table.counts[d]) }
            part.records.withUnsafeMutableBytes { out in
                for o in 0..<part.range.count {
                    let at = o * CatalogIndexFormat.recordSize + 16
                    let start = UInt64(littleEndian: out.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    out.storeBytes(of: (start + UInt64(text.count)).littleEndian, toByteOffset: at, as: UInt64.self)
                }
            }
            records += part.records
            text += part.text
            ids += part.ids
            second = (part, dense)
        }

        // The keys in ascending order, each key's first posting, then the postings.
        let keyCount = table.count
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
        var pieces = Pieces()
        pieces.header = [UInt8](repeating: 0, count: CatalogIndexFormat.headerSize)
        pieces.header.withUnsafeMutableBytes { out in
            func put(_ value: UInt64, _ at: Int) { out.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt64.self) }
            out.copyBytes(from: CatalogIndexFormat.magic)
            for (i, value) in [count, keyCount, postingCount, text.count].enumerated() { put(UInt64(value), 8 + i * 8) }
            put(generation, 40)
            put(UInt64(itemsLength), 48)
        }
        pieces.records = records
        pieces.keys = [UInt8](unsafeUninitializedCapacity: (2 * keyCount + 1) * 8) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            for (rank, dense) in order.enumerated() { raw.storeBytes(of: table.keys[dense].littleEndian, toByteOffset: rank * 8, as: UInt64.self) }
            for (rank, start) in startsByRank.enumerated() { raw.storeBytes(of: start.littleEndian, toByteOffset: (keyCount + rank) * 8, as: UInt64.self) }
            initialized = (2 * keyCount + 1) * 8
        }
        let paddedPostings = (postingCount * 4 + 7) / 8 * 8
        pieces.postings = [UInt8](unsafeUninitializedCapacity: paddedPostings) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            // Each key's postings are its first half's ordinals, then its second half's: the halves
            // fill places of their own, each on its thread, from cursors by their own dense numbers.
            let firstCursor = UnsafeMutablePointer<Int>.allocate(capacity: max(keyCount, 1))
            defer { firstCursor.deallocate() }
            cursor.withUnsafeBufferPointer { firstCursor.initialize(from: $0.baseAddress!, count: keyCount) }
            if let (part, map) = second {
                let laterCursor = UnsafeMutablePointer<Int>.allocate(capacity: max(map.count, 1))
                defer { laterCursor.deallocate() }
                for d in 0..<map.count {
                    let dense = map[d]
                    laterCursor[d] = cursor[dense] + (dense < firstCounts.count ? Int(firstCounts[dense]) : 0)
                }
                CatalogParallel.run(2) { i in scatter(i == 0 ? first : part, cursor: i == 0 ? firstCursor : laterCursor, into: raw) }
            } else {
                scatter(first, cursor: firstCursor, into: raw)
            }
            for pad in (postingCount * 4)..<paddedPostings { raw[pad] = 0 }
            initialized = paddedPostings
        }
        sortIds(&ids)
        pieces.ids = [UInt8](unsafeUninitializedCapacity: count * 16) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            for (i, (hash, ordinal)) in ids.enumerated() {
                raw.storeBytes(of: hash.littleEndian, toByteOffset: i * 16, as: UInt64.self)
                raw.storeBytes(of: ordinal.littleEndian, toByteOffset: i * 16 + 8, as: UInt64.self)
            }
            initialized = count * 16
        }
        pieces.text = text
        return pieces
    }

    /// Sorts (hash, ordinal) pairs by hash, then ordinal. They come in ascending ordinal order
    /// (the parts' in turn), and a least-significant-digit radix sort on the hash (four 16-bit
    /// digits) keeps that order among equal hashes. (`sort` with a comparator: ~48 M
    /// instructions for 100,000, this a fifth of that.)
    static func sortIds(_ ids: inout [(UInt64, UInt64)]) {
        let n = ids.count
        guard n > 1 else { return }
        var other = [(UInt64, UInt64)](repeating: (0, 0), count: n)
        var counts = [Int](repeating: 0, count: 1 << 16)
        for pass in 0..<4 {
            let shift = UInt64(pass * 16)
            counts.withUnsafeMutableBufferPointer { c in
                c.update(repeating: 0)
                ids.withUnsafeBufferPointer { source in
                    for id in source { c[Int(truncatingIfNeeded: (id.0 >> shift) & 0xFFFF)] += 1 }
                    var sum = 0
                    for d in 0..<c.count {
                        let k = c[d]
                        c[d] = sum
                        sum += k
                    }
                    other.withUnsafeMutableBufferPointer { target in
                        for id in source {
                            let d = Int(truncatingIfNeeded: (id.0 >> shift) & 0xFFFF)
                            target[c[d]] = id
                            c[d] += 1
                        }
                    }
                }
            }
            swap(&ids, &other)
        }
    }

    /// Writes the ordinal of each of a part's occurrences at its key's cursor (by the part's own
    /// dense numbers), moving the cursor on.
    private static func scatter(_ part: Part, cursor: UnsafeMutablePointer<Int>, into raw: UnsafeMutableRawBufferPointer) {
        let occurrences = part.table.occurrences
        part.ends.withUnsafeBufferPointer { ends in
            var from = 0
            for o in 0..<part.range.count {
                let to = ends[o]
                let ordinal = UInt32(part.range.lowerBound + o).littleEndian
                for k in from..<to {
                    let dense = Int(occurrences[k])
                    raw.storeBytes(of: ordinal, toByteOffset: cursor[dense] * 4, as: UInt32.self)
                    cursor[dense] += 1
                }
                from = to
            }
        }
    }

    /// The index file in the parts it is laid out in (written one after the other, never
    /// copied into one buffer): header, records, keys and starts, postings, ids, text.
    struct Pieces {
        var header: [UInt8] = [], records: [UInt8] = [], keys: [UInt8] = [], postings: [UInt8] = [], ids: [UInt8] = [], text: [UInt8] = []
        var all: [[UInt8]] { [header, records, keys, postings, ids, text] }
        var bytes: [UInt8] { Array(all.joined()) }

        /// Sets each record's place in the items file, and the file's length.
        mutating func locate(ranges: [Range<Int>], itemsLength: Int) {
            header.withUnsafeMutableBytes { $0.storeBytes(of: UInt64(itemsLength).littleEndian, toByteOffset: 48, as: UInt64.self) }
            records.withUnsafeMutableBytes { out in
                for (ordinal, range) in ranges.enumerated() {
                    let at = ordinal * CatalogIndexFormat.recordSize
                    out.storeBytes(of: UInt64(range.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                    out.storeBytes(of: UInt32(clamping: range.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
                }
            }
        }
    }

    /// One run of ordinals: its texts, keys and records, as if it were the whole index.
    final class Part: @unchecked Sendable {
        let range: Range<Int>
        var text: [UInt8] = []
        let table: KeyTable
        var ends: [Int]  // by ordinal in the run: the end of its occurrences in the table
        var ids: [(UInt64, UInt64)] = []
        var records: [UInt8]

        /// `room`: how many items' records and ids, and how many bytes of text, the arrays are
        /// reserved for.
        init(range: Range<Int>, textCapacity: Int, room: (items: Int, text: Int)) {
            self.range = range
            // Reserved generously: pages never written are never touched.
            text.reserveCapacity(max(range.count * 160, room.text))
            table = KeyTable(occurrenceCapacity: max(range.count * 96, textCapacity * 2))
            ends = [Int](repeating: 0, count: range.count)
            ids.reserveCapacity(max(room.items, range.count))
            records = []
            records.reserveCapacity(max(room.items, range.count) * CatalogIndexFormat.recordSize)
            records.append(contentsOf: repeatElement(0, count: range.count * CatalogIndexFormat.recordSize))
        }

        func fill(ranges: [Range<Int>], entry: (_ ordinal: Int, _ text: inout [UInt8], _ keys: inout [UInt64], _ table: KeyTable) -> Entry) {
            var keys: [UInt64] = []
            keys.reserveCapacity(256)
            let table = self.table
            for ordinal in range {
                let textStart = text.count
                keys.removeAll(keepingCapacity: true)
                let facts = entry(ordinal, &text, &keys, table)
                let mark = Int32(truncatingIfNeeded: ordinal)
                keys.withUnsafeBufferPointer { for key in $0 { table.note(key, ordinal: mark) } }
                let o = ordinal - range.lowerBound
                ends[o] = table.occurrenceCount
                ids.append((facts.idHash, UInt64(ordinal)))
                let place = ranges[ordinal]
                records.withUnsafeMutableBytes { out in
                    let at = o * CatalogIndexFormat.recordSize
                    out.storeBytes(of: UInt64(place.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                    out.storeBytes(of: UInt32(clamping: place.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
                    out.storeBytes(of: UInt32(clamping: facts.titleLength).littleEndian, toByteOffset: at + 12, as: UInt32.self)
                    out.storeBytes(of: UInt64(textStart).littleEndian, toByteOffset: at + 16, as: UInt64.self)
                    out.storeBytes(of: UInt32(clamping: facts.fieldsLength).littleEndian, toByteOffset: at + 24, as: UInt32.self)
                    out.storeBytes(of: UInt16(facts.idLength).littleEndian, toByteOffset: at + 28, as: UInt16.self)
                    out.storeBytes(of: UInt16(clamping: facts.idCharacters).littleEndian, toByteOffset: at + 30, as: UInt16.self)
                    out.storeBytes(of: UInt64(bitPattern: Int64(facts.price ?? 0)).littleEndian, toByteOffset: at + 32, as: UInt64.self)
                    out[at + 40] = facts.flags.rawValue
                }
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
