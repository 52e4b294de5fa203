import ShopYBase

/// `shopy catalog`'s counts read from the tails of catalog.json's records, where shopy writes
/// `…,"category1":"…","category2":"…","category3":"…","category4":"…","firstSeen":"…",
/// "updated":"…","origin":"…"}` (`CatalogRecord.write`): nothing is decoded but those values,
/// so a large catalog is summed up without decoding its items. A record not in that form makes
/// the caller decode the catalog instead.
extension CatalogService {
    /// The top-level categories (category1, "(none)" when empty) and origins of the local
    /// part's records with their counts; nil when a record is not as shopy writes it.
    func scannedCounts(_ part: CatalogPart) -> (categories: [String: Int], origins: [String: Int])? {
        // Counted by their bytes first (a few hundred distinct values among a million records),
        // then each distinct value decoded once.
        var categoryBytes = CatalogSummaryScan.Tally(), originBytes = CatalogSummaryScan.Tally()
        for ordinal in 0..<part.index.count {
            guard let bytes = part.storedBytes(at: ordinal), let spans = CatalogSummaryScan.spans(bytes) else { return nil }
            categoryBytes.add(spans.category1)
            originBytes.add(spans.origin)
        }
        var categories: [String: Int] = [:], origins: [String: Int] = [:]
        for (category, count) in categoryBytes.entries {
            guard let name = CatalogSummaryScan.decode(category) else { return nil }
            categories[CatalogService.categoryName(name), default: 0] += count
        }
        for (origin, count) in originBytes.entries {
            guard let name = CatalogSummaryScan.decode(origin) else { return nil }
            origins[name.isEmpty ? "(unknown)" : name, default: 0] += count
        }
        return (categories, origins)
    }
}

enum CatalogSummaryScan {
    typealias Span = UnsafeBufferPointer<UInt8>

    /// category1, category2 and origin of one stored record, decoded; nil when the bytes do not
    /// end as shopy writes a record.
    static func fields(_ record: Span) -> (category1: String, category2: String, origin: String)? {
        guard let spans = spans(record), let c1 = decode(spans.category1), let c2 = decode(spans.category2),
              let o = decode(spans.origin) else { return nil }
        return (c1, c2, o)
    }

    /// The bytes of category1, category2 and origin (as stored: escapes not decoded), read from
    /// the record's end; nil when it does not end as shopy writes a record. (A key pattern that
    /// starts and ends with a quote cannot occur inside a JSON string, whose quotes are escaped:
    /// each match is structural.)
    static func spans(_ record: Span) -> (category1: Span, category2: Span, origin: Span)? {
        guard record.count >= 2, record[record.count - 1] == UInt8(ascii: "}"), record[record.count - 2] == UInt8(ascii: "\"") else { return nil }
        let closing = record.count - 2
        guard let origin = lastIndex(of: originKey, in: record, before: closing),
              let category4 = lastIndex(of: category4Key, in: record, before: origin),
              let category3 = lastIndex(of: category3Key, in: record, before: category4),
              let category2 = lastIndex(of: category2Key, in: record, before: category3),
              let category1 = lastIndex(of: category1Key, in: record, before: category2),
              let c1 = span(record, category1 + category1Key.count, category2),
              let c2 = span(record, category2 + category2Key.count, category3),
              let o = span(record, origin + originKey.count, closing + 1) else { return nil }
        return (c1, c2, o)
    }

    static let originKey = Array(#","origin":""#.utf8)
    static let category1Key = Array(#","category1":""#.utf8)
    static let category2Key = Array(#","category2":""#.utf8)
    static let category3Key = Array(#","category3":""#.utf8)
    static let category4Key = Array(#","category4":""#.utf8)

    /// The bytes from `start` to the quote just before `end` (the next member's comma, or the
    /// record's end); nil when that byte is not a quote.
    static func span(_ record: Span, _ start: Int, _ end: Int) -> Span? {
        let close = end - 1
        guard start <= close, record[close] == UInt8(ascii: "\"") else { return nil }
        return Span(rebasing: record[start..<close])
    }

    /// A stored string's text, escapes decoded; nil when it is not valid JSON string text.
    static func decode(_ text: Span) -> String? {
        guard text.contains(UInt8(ascii: "\\")) else { return String(validating: text, as: UTF8.self) }
        return (try? JSONParser.parse([UInt8(ascii: "\"")] + Array(text) + [UInt8(ascii: "\"")]))?.stringValue
    }

    /// Counts of byte values, without making a String of each.
    struct Tally {
        private var slots: [UInt64: [Int]] = [:]
        private(set) var entries: [(Span, Int)] = []

        mutating func add(_ value: Span) {
            var hash: UInt64 = 0xcbf29ce484222325
            for b in value { hash = (hash ^ UInt64(b)) &* 0x100000001b3 }
            for i in slots[hash, default: []] where entries[i].0.elementsEqual(value) {
                entries[i].1 += 1
                return
            }
            slots[hash, default: []].append(entries.count)
            entries.append((value, 1))
        }
    }

    /// The last place before `end` where `pattern` starts, ending at or before `end`.
    static func lastIndex(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        var at = end - pattern.count
        while at >= 0 {
            if bytes[at] == pattern[0] {
                var i = 1
                while i < pattern.count && bytes[at + i] == pattern[i] { i += 1 }
                if i == pattern.count { return at }
            }
            at -= 1
        }
        return nil
    }
}
