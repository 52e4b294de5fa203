/// `shopy catalog`'s counts read from the tails of catalog.json's records, where shopy writes
/// `…,"category1":"…","category2":"…","category3":"…","category4":"…","firstSeen":"…",
/// "updated":"…","origin":"…"}` (`CatalogRecord.write`): nothing is decoded but those values,
/// so a million-item catalog is summed up in a fraction of a second rather than ten seconds.
/// A record not in that form makes the caller decode the catalog as before.
extension CatalogService {
    /// The categories and origins with their counts, from the index's record ranges; nil when
    /// there is no mapped local catalog or a record is not as shopy writes it.
    func scannedCounts() throws(StoreError) -> (records: Int, categories: [String: Int], origins: [String: Int])? {
        guard let part = try local.part() else { return nil }
        var categories: [String: Int] = [:], origins: [String: Int] = [:]
        for ordinal in 0..<part.index.count {
            guard let bytes = part.storedBytes(at: ordinal), let fields = CatalogSummaryScan.fields(bytes) else { return nil }
            let name = [fields.category1, fields.category2].filter { !$0.isEmpty }.joined(separator: " > ")
            categories[name.isEmpty ? "(none)" : name, default: 0] += 1
            origins[fields.origin.isEmpty ? "(unknown)" : fields.origin, default: 0] += 1
        }
        return (part.index.count, categories, origins)
    }
}

enum CatalogSummaryScan {
    /// category1, category2 and origin of one stored record, read from its end; nil when the
    /// bytes do not end as shopy writes a record. (A key pattern starting and ending with a quote
    /// cannot occur inside a JSON string, whose quotes are escaped: each match is structural.)
    static func fields(_ record: UnsafeBufferPointer<UInt8>) -> (category1: String, category2: String, origin: String)? {
        guard record.count >= 2, record[record.count - 1] == UInt8(ascii: "}"), record[record.count - 2] == UInt8(ascii: "\"") else { return nil }
        let closing = record.count - 2
        guard let origin = lastIndex(of: originKey, in: record, before: closing),
              let category4 = lastIndex(of: category4Key, in: record, before: origin),
              let category3 = lastIndex(of: category3Key, in: record, before: category4),
              let category2 = lastIndex(of: category2Key, in: record, before: category3),
              let category1 = lastIndex(of: category1Key, in: record, before: category2),
              let c1 = value(record, category1 + category1Key.count, category2),
              let c2 = value(record, category2 + category2Key.count, category3),
              let o = value(record, origin + originKey.count, closing + 1) else { return nil }
        return (c1, c2, o)
    }

    static let originKey = Array(#","origin":""#.utf8)
    static let category1Key = Array(#","category1":""#.utf8)
    static let category2Key = Array(#","category2":""#.utf8)
    static let category3Key = Array(#","category3":""#.utf8)
    static let category4Key = Array(#","category4":""#.utf8)

    /// The string from `start` to the quote just before `end` (the next member's comma, or the
    /// record's end), escapes decoded; nil when that byte is not a quote or the text is not JSON.
    static func value(_ record: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        let close = end - 1
        guard start <= close, record[close] == UInt8(ascii: "\"") else { return nil }
        let text = UnsafeBufferPointer(rebasing: record[start..<close])
        guard text.contains(UInt8(ascii: "\\")) else { return String(validating: text, as: UTF8.self) }
        return (try? JSONParser.parse([UInt8(ascii: "\"")] + Array(text) + [UInt8(ascii: "\"")]))?.stringValue
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
