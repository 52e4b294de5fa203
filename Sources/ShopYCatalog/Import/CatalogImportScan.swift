#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The import's fast path: a bare JSON array of items, or an answer (`{"items": [...]}`), read
/// as byte spans of the input: each item's members are located, validated by the same scanner
/// (`skipString`, `skipValue`), and only values with escapes are decoded. What it gives is
/// exactly what `CatalogImportParsing.parse` gives: an item it is not sure of (a member of an
/// unexpected kind, an escaped key, a missing or unusable productId, an element that is not an
/// object) goes through `parse`'s own per-item path, and a file that is
/// not such a document, or does not parse, through `parse` as a whole.
extension CatalogImportParsing {
    struct RawParsed {
        var format: Format
        /// The items (fields 0–13), each with its own first-seen date (field 14) when the file
        /// carries a valid one.
        var items: CatalogRawRecords
        var skipped: [CatalogImportReport.Skip]
    }

    static func parseRaw(_ bytes: [UInt8], name: String, store: CatalogByteStore) throws(CatalogImportError) -> RawParsed {
        if bytes.count <= maxBytes, let fast = scanned(bytes, store: store) { return fast }
        let parsed = try parse(bytes, name: name)
        var items = CatalogRawRecords(store: store, capacity: parsed.items.count)
        for (n, item) in parsed.items.enumerated() { items.append(item, firstSeen: n < parsed.firstSeen.count ? parsed.firstSeen[n] : nil) }
        return RawParsed(format: parsed.format, items: items, skipped: parsed.skipped)
    }

    /// Nil when the file is not valid UTF-8 holding an array or an answer that parses.
    private static func scanned(_ bytes: [UInt8], store: CatalogByteStore) -> RawParsed? {
        let whole = store.keep(bytes)
        var from = 0
        if whole.count >= 3, whole[0] == 0xEF, whole[1] == 0xBB, whole[2] == 0xBF { from = 3 }
        let buffer = UnsafeBufferPointer(rebasing: whole[from...])
        guard JSONParser.isValidUTF8(buffer) else { return nil }
        return scan(buffer, store: store, capacity: bytes.count / 400)
    }

    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, store: CatalogByteStore, capacity: Int) -> RawParsed? {
        var parser = JSONParser(buffer)
        parser.validatesUTF8 = false  // checked above
        var scan = ItemScan(buffer: buffer, store: store, items: CatalogRawRecords(store: store, capacity: capacity))
        var format = Format.array
        do throws(JSONParseError) {
            guard let first = parser.peekByte() else { return nil }
            if first == UInt8(ascii: "[") {
                try scan.elements(&parser)
            } else if first == UInt8(ascii: "{") {
                format = .answer
                var sawItems = false, usable = true
                try parser.forEachMemberRaw { key, parser throws(JSONParseError) in
                    guard UnsafeBufferPointer(rebasing: buffer[key]).elementsEqual("items".utf8) else { return }
                    guard !sawItems, parser.peekByte() == UInt8(ascii: "[") else { usable = false; return }
                    sawItems = true
                    try scan.elements(&parser)
                }
                guard sawItems && usable else { return nil }
            } else {
                return nil
            }
            try parser.expectEnd()
        } catch {
            return nil
        }
        return RawParsed(format: format, items: scan.items, skipped: scan.skipped)
    }

    /// The items of one array, as `streamed` takes them.
    struct ItemScan {
        let buffer: UnsafeBufferPointer<UInt8>
        let store: CatalogByteStore
        var items: CatalogRawRecords
        var skipped: [CatalogImportReport.Skip] = []
        var index = 0
        var fields = [CatalogRawRecords.Span](repeating: .absent, count: 15)

        /// The elements of the array at the parser, each taken by `fast` or, when it is not an
        /// ordinary item, by `slow`.
        mutating func elements(_ parser: inout JSONParser) throws(JSONParseError) {
            try parser.forEachElement { start, parser throws(JSONParseError) in
                if try !fast(&parser) { try slow(&parser, from: start) }
                index += 1
            }
        }

        /// Takes the element at the parser when it is an ordinary item; false (the parser moved
        /// past the element, or left where it was) when `slow` must take it.
        private mutating func fast(_ parser: inout JSONParser) throws(JSONParseError) -> Bool {
            guard parser.peekByte() == UInt8(ascii: "{") else { return false }
            for k in 0..<fields.count { fields[k] = .absent }
            var seen: UInt32 = 0
            var unusual = false
            let buffer = self.buffer, store = self.store
            try parser.forEachMemberRaw { key, parser throws(JSONParseError) in
                let keyBytes = UnsafeBufferPointer(rebasing: buffer[key])
                if ItemScan.hasBackslash(keyBytes) { unusual = true; return }  // an escaped key: decoded by the slow path
                let k = ItemScan.field(keyBytes)
                guard k >= 0, seen & (1 << k) == 0 else { return }  // unknown, or a later duplicate (the first one counts)
                seen |= 1 << k
                guard let byte = parser.peekByte() else { return }
                let start = parser.offset
                switch byte {
                case UInt8(ascii: "\""):
                    try parser.skipString()
                    let content = UnsafeBufferPointer(rebasing: buffer[(start + 1)..<(parser.offset - 1)])
                    if ItemScan.hasBackslash(content) {
                        var decoder = JSONParser(buffer, at: start)
                        fields[k] = store.copy(try decoder.parseString())
                    } else {
                        fields[k] = CatalogRawRecords.Span(start: content.baseAddress, count: content.count)
                    }
                case UInt8(ascii: "n"):
                    try parser.skipValue()  // null: absent
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try parser.skipValue()
                    // A number is its text for the item's fields; firstSeen must be a string.
                    if k < 14 { fields[k] = CatalogRawRecords.Span(start: buffer.baseAddress.map { $0 + start }, count: parser.offset - start) }
                default:
                    if k < 14 { unusual = true }  // a boolean, object or array: the slow path says so
                }
            }
            guard !unusual else { return false }
            // The productId: trimmed, 1 to ProductID.maxLength digits.
            var id = fields[CatalogRawRecords.Field.productId.rawValue]
            guard !id.isAbsent, let base = id.start else { return false }
            var lower = 0, upper = id.count
            while lower < upper, ItemScan.isASCIISpace(base[lower]) { lower += 1 }
            while upper > lower, ItemScan.isASCIISpace(base[upper - 1]) { upper -= 1 }
            guard upper > lower, upper - lower <= ProductID.maxLength,
                  UnsafeBufferPointer(start: base + lower, count: upper - lower).allSatisfy({ $0 &- 0x30 < 10 }) else { return false }
            id = CatalogRawRecords.Span(start: base + lower, count: upper - lower)
            fields[CatalogRawRecords.Field.productId.rawValue] = id
            var title = fields[CatalogRawRecords.Field.title.rawValue]
            if title.isAbsent { title = CatalogRawRecords.Span(start: nil, count: 0) }
            fields[CatalogRawRecords.Field.title.rawValue] = CatalogRawBytes.unbolded(title, store: store)
            let seenAt = CatalogRawRecords.Field.firstSeen.rawValue
            if !fields[seenAt].isAbsent, !CatalogRawBytes.isTimestamp(fields[seenAt].buffer) { fields[seenAt] = .absent }
            let r = items.appendAbsent()
            for k in 0..<fields.count { items.spans[r * CatalogRawRecords.fieldCount + k] = fields[k] }
            items.bound(r)
            return true
        }

        /// The element through `takeOne`, exactly as `parse` takes it.
        private mutating func slow(_ parser: inout JSONParser, from start: Int) throws(JSONParseError) {
            var probe = JSONParser(buffer, at: start)
            probe.validatesUTF8 = false
            let range = try probe.skipValue()
            if parser.offset == start { try parser.skipValue() }
            let element = try JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))
            var one = Parsed(format: .array, items: [], skipped: [])
            CatalogImportParsing.takeOne(element, index: index, place: "item \(index + 1)", into: &one)
            skipped += one.skipped
            for (n, item) in one.items.enumerated() { items.append(item, firstSeen: n < one.firstSeen.count ? one.firstSeen[n] : nil) }
        }

        /// Whether the bytes hold a backslash (an escape), found with memchr.
        @inline(__always) static func hasBackslash(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = b.baseAddress, b.count > 0 else { return false }
            return memchr(base, 0x5C, b.count) != nil
        }

        @inline(__always) static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

        /// The field number of a member's key (0–13 the item's, 14 firstSeen), -1 for others.
        static func field(_ key: UnsafeBufferPointer<UInt8>) -> Int {
            guard let p = key.baseAddress else { return -1 }
            func equal(_ name: StaticString) -> Bool { memcmp(p, name.utf8Start, key.count) == 0 }
            switch key.count {
            case 4: return equal("link") ? 1 : -1
            case 5:
                switch p[0] {
                case UInt8(ascii: "t"): return equal("title") ? 0 : -1
                case UInt8(ascii: "i"): return equal("image") ? 2 : -1
                case UInt8(ascii: "b"): return equal("brand") ? 8 : -1
                case UInt8(ascii: "m"): return equal("maker") ? 9 : -1
                default: return -1
                }
            case 6:
                if p[0] == UInt8(ascii: "l") { return equal("lprice") ? 3 : -1 }
                return equal("hprice") ? 4 : -1
            case 8: return equal("mallName") ? 5 : -1
            case 9:
                switch p[0] {
                case UInt8(ascii: "p"): return equal("productId") ? 6 : -1
                case UInt8(ascii: "f"): return equal("firstSeen") ? 14 : -1
                case UInt8(ascii: "c"):
                    guard memcmp(p, ("category" as StaticString).utf8Start, 8) == 0, p[8] &- 0x31 < 4 else { return -1 }
                    return 10 + Int(p[8] &- 0x31)
                default: return -1
                }
            case 11: return equal("productType") ? 7 : -1
            default: return -1
            }
        }
    }
}
