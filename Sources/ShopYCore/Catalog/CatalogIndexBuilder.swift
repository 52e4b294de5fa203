/// Builds the index of a list of items (at import time, and for the embedded catalog by the
/// generator script): the normalized texts, the per-item facts the sorts and filters need, and
/// the postings of every bigram and scalar.
enum CatalogIndexBuilder {
    /// `ranges` locate each item's JSON in the items file (or the embedded literal).
    static func build(items: [WireItem], ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> [UInt8] {
        precondition(items.count == ranges.count)
        var records: [UInt8] = []
        records.reserveCapacity(items.count * CatalogIndexFormat.recordSize)
        var text: [UInt8] = []
        var postings: [UInt64: [UInt32]] = [:]
        var ids: [(UInt64, UInt64)] = []
        ids.reserveCapacity(items.count)
        var keys: [UInt64] = []
        for (ordinal, item) in items.enumerated() {
            let facts = CatalogEntryFacts(item)
            let textStart = text.count
            text.append(contentsOf: facts.title)
            keys.removeAll(keepingCapacity: true)
            facts.title.withUnsafeBufferPointer { CatalogText.keys($0, into: &keys) }
            var fieldsLength = 0
            for field in facts.fields {
                text.append(contentsOf: field)
                text.append(0x1F)
                fieldsLength += field.count + 1
                field.withUnsafeBufferPointer { CatalogText.keys($0, into: &keys) }
            }
            let id = Array(item.productId.utf8.prefix(Int(UInt16.max)))
            text.append(contentsOf: id)
            keys.sort()
            var last: UInt64? = nil
            for key in keys where key != last {
                postings[key, default: []].append(UInt32(ordinal))
                last = key
            }
            ids.append((id.withUnsafeBufferPointer(CatalogIndexFormat.fnv), UInt64(ordinal)))
            let range = ranges[ordinal]
            append(&records, UInt64(range.lowerBound))
            append(&records, UInt32(clamping: range.count))
            append(&records, UInt32(clamping: facts.title.count))
            append(&records, UInt64(textStart))
            append(&records, UInt32(clamping: fieldsLength))
            append(&records, UInt16(id.count))
            append(&records, UInt16(clamping: item.productId.count))
            append(&records, UInt64(bitPattern: Int64(facts.price ?? 0)))
            records.append(facts.flags.rawValue)
            records.append(contentsOf: repeatElement(0, count: 7))
        }
        let sortedKeys = postings.keys.sorted()
        let postingCount = postings.values.reduce(0) { $0 + $1.count }
        let layout = CatalogIndexFormat.Layout(count: items.count, keyCount: sortedKeys.count, postingCount: postingCount, textLength: text.count)
        var out: [UInt8] = []
        out.reserveCapacity(layout.total)
        out.append(contentsOf: CatalogIndexFormat.magic)
        for value in [items.count, sortedKeys.count, postingCount, text.count] { append(&out, UInt64(value)) }
        append(&out, generation)
        append(&out, UInt64(itemsLength))
        append(&out, UInt64(0))
        out.append(contentsOf: records)
        for key in sortedKeys { append(&out, key) }
        var start: UInt64 = 0
        append(&out, start)
        for key in sortedKeys { start += UInt64(postings[key]!.count); append(&out, start) }
        for key in sortedKeys { for ordinal in postings[key]! { append(&out, ordinal) } }
        while out.count < layout.ids { out.append(0) }
        ids.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        for (hash, ordinal) in ids { append(&out, hash); append(&out, ordinal) }
        out.append(contentsOf: text)
        precondition(out.count == layout.total)
        return out
    }

    @inline(__always) static func append<T: FixedWidthInteger>(_ out: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
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
        title = Array(cleaned.lowercased().utf8)
        fields = [item.brand, item.maker, item.category1, item.category2, item.category3, item.category4]
            .compactMap { $0.map(TitleCleaner.clean)?.lowercased() }
            .filter { !$0.isEmpty }
            .map { Array($0.utf8) }
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
