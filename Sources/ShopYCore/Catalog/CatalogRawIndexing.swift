/// The index of raw records (the import path): the same bytes `build(items:)` gives for their
/// items, the facts taken from the fields' bytes (`CatalogEntryFacts`'s rules on bytes).
extension CatalogIndexBuilder {
    static func build(records: CatalogRawRecords, ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> [UInt8] {
        typealias Field = CatalogRawRecords.Field
        let fields: [Field] = [.brand, .maker, .category1, .category2, .category3, .category4]
        return build(count: records.count, ranges: ranges, generation: generation, itemsLength: itemsLength) { r, text, keys in
            var entry = Entry()
            CatalogRawBytes.withCleaned(records[r, .title].buffer) { cleaned in
                entry.titleLength = CatalogRawBytes.appendLowercased(cleaned, to: &text, keys: &keys)
                var flags: CatalogIndexFormat.Flags = []
                if CatalogRawBytes.contains(cleaned, "렌탈") { flags.insert(.rental) }
                if CatalogRawBytes.contains(cleaned, "해외직구") || CatalogRawBytes.contains(cleaned, "구매대행") { flags.insert(.crossBorder) }
                entry.flags = flags
            }
            for field in fields {
                let span = records[r, field]
                guard span.count > 0 else { continue }
                CatalogRawBytes.withCleaned(span.buffer) { cleaned in
                    let length = CatalogRawBytes.appendLowercased(cleaned, to: &text, keys: &keys)
                    if length > 0 {
                        text.append(0x1F)
                        entry.fieldsLength += length + 1
                    }
                }
            }
            let lprice = records[r, .lprice]
            entry.price = lprice.isAbsent ? nil : CatalogRawBytes.int(CatalogRawBytes.trimmed(lprice.buffer)).flatMap { $0 > 0 ? $0 : nil }
            let link = records[r, .link].buffer
            if CatalogRawBytes.contains(link, "://smartstore.naver.com/") || CatalogRawBytes.contains(link, "://brand.naver.com/") {
                entry.flags.insert(.naverPay)
            }
            let type = records[r, .productType]
            let t = type.isAbsent ? 0 : (CatalogRawBytes.int(type.buffer) ?? 0)
            if (4...6).contains(t) { entry.flags.insert(.used) }
            let id = records[r, .productId].buffer
            appendId(id, to: &text, entry: &entry)
            entry.idCharacters = id.count  // a usable productId is ASCII digits
            return entry
        }
    }
}

extension CatalogRawBytes {
    /// `TitleCleaner.clean` of the text, as bytes handed to `body`.
    @inline(__always)
    static func withCleaned<R>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard var cleaned = TitleCleaner.clean(bytes: raw) else { return body(raw) }
        return cleaned.withUTF8(body)
    }

    /// Appends `CatalogText.lowercased` of the text and notes its keys; returns its length.
    static func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], keys: inout [UInt64]) -> Int {
        let start = text.count
        text.append(contentsOf: bytes)
        let simple = text.withUnsafeMutableBufferPointer { all -> Bool in
            var i = start
            while i < all.count {
                let b = all[i]
                if b < 0x80 {
                    if b &- 0x41 < 26 { all[i] = b | 0x20 }
                    i += 1
                    continue
                }
                let (scalar, width) = CatalogText.decode(UnsafeBufferPointer(all), at: i)
                guard CatalogText.caseless(scalar) else { return false }
                i += width
            }
            return true
        }
        if !simple {
            text.removeSubrange(start...)
            text.append(contentsOf: String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        }
        text.withUnsafeBufferPointer { CatalogText.keys(UnsafeBufferPointer(rebasing: $0[start...]), into: &keys) }
        return text.count - start
    }

    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        CatalogText.find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: hay) != nil
    }

    /// Without ASCII whitespace at either end (`trimmingASCIIWhitespace`).
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0, upper = b.count
        func space(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while lower < upper, space(b[lower]) { lower += 1 }
        while upper > lower, space(b[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: b[lower..<upper])
    }

    /// `Int(text)`: an optional sign, then one or more ASCII digits, nil on overflow.
    static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        var negative = false
        if let first = b.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            i = 1
        }
        guard i < b.count else { return nil }
        var value = 0
        while i < b.count {
            let digit = b[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            guard !o1 && !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }
}
