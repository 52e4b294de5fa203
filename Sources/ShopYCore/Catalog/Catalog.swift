import Foundation

/// The recorded items, searchable with the API's semantics:
/// - every query term must match the title, brand, maker or a category (case-insensitively);
/// - matched terms come back wrapped in `<b>` in the raw title;
/// - `sim` ranks by match quality, `date` by newest (productId descending stands in for the
///   registration date), `asc`/`dsc` by price (unknown prices last), ties in relevance order;
/// - total, start and display as the API reports them; duplicates kept as the data has them.
///
/// Offline stand-ins where the recorded data has no field: `naverpay` keeps items sold on
/// Naver's own store platform (smartstore.naver.com, brand.naver.com); `exclude=used` removes
/// productType 4–6; `rental` and `cbshop` remove titles that say 렌탈 or 해외직구/구매대행.
public final class Catalog: Sendable {
    public let items: [WireItem]
    /// The search index, built on first search: `like --id` only needs the items.
    private let index = LazyValue<[Entry]>()
    private var entries: [Entry] { index.value { Catalog.entries(for: items) } }

    private struct Entry: Sendable {
        var title: String      // cleaned, lowercased
        var fields: [String]   // brand, maker, categories: lowercased, non-empty
        var price: Int?
        var numericId: (Int, String)  // for date order: length first, then text
        var naverPay: Bool
        var used: Bool
        var rental: Bool
        var crossBorder: Bool
    }

    /// The catalog built into shopy (Fixtures/recorded-items.json).
    public static let embedded: Catalog = {
        do {
            return try Catalog(json: Array(embeddedCatalogJSON.utf8))
        } catch {
            fatalError("the embedded catalog does not decode: \(error)")
        }
    }()

    public convenience init(json: [UInt8]) throws(WireDecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw WireDecodingError("the catalog is not JSON: \(error)")
        }
        guard case .array(let array) = value else { throw WireDecodingError("the catalog is not an array of items") }
        var items: [WireItem] = []
        items.reserveCapacity(array.count)
        for (i, element) in array.enumerated() { items.append(try WireItem(json: element, index: i)) }
        self.init(items: items)
    }

    public init(items: [WireItem]) {
        self.items = items
    }

    private static func entries(for items: [WireItem]) -> [Entry] {
        items.map { item in
            let title = TitleCleaner.clean(item.title)
            let fields = [item.brand, item.maker, item.category1, item.category2, item.category3, item.category4]
                .compactMap { $0.map(TitleCleaner.clean)?.lowercased() }
                .filter { !$0.isEmpty }
            let link = item.link ?? ""
            let type = item.productType.flatMap { Int($0) } ?? 0
            return Entry(
                title: title.lowercased(),
                fields: fields,
                price: ProductMapper.price(item.lprice),
                numericId: (item.productId.count, item.productId),
                naverPay: link.contains("://smartstore.naver.com/") || link.contains("://brand.naver.com/"),
                used: (4...6).contains(type),
                rental: title.contains("렌탈"),
                crossBorder: title.contains("해외직구") || title.contains("구매대행")
            )
        }
    }

    /// One item of the built-in catalog by productId, found by walking the embedded JSON
    /// without building the catalog (what `shopy like --id` needs, in well under a millisecond).
    public static func embeddedItem(productId: String) -> WireItem? {
        var text = embeddedCatalogJSON
        let wanted = Array(productId.utf8)
        return text.withUTF8 { buffer -> WireItem? in
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false  // a string literal: valid UTF-8
            var found: Int?
            do throws(JSONParseError) {
                try parser.forEachElement { start, parser throws(JSONParseError) in
                    guard found == nil else { return }
                    try parser.forEachMemberRaw { key, parser throws(JSONParseError) in
                        guard UnsafeBufferPointer(rebasing: buffer[key]).elementsEqual("productId".utf8) else { return }
                        let value = try parser.skipValue()
                        if value.count == wanted.count + 2,
                           UnsafeBufferPointer(rebasing: buffer[(value.lowerBound + 1)..<(value.upperBound - 1)]).elementsEqual(wanted) {
                            found = start
                        }
                    }
                }
                guard let found else { return nil }
                var item = JSONParser(buffer, at: found)
                return try? WireItem(json: try item.parseValue(), index: 0)
            } catch {
                return nil
            }
        }
    }

    /// The query's terms: split on whitespace, lowercased, empties dropped.
    public static func terms(of query: String) -> [String] {
        query.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// Every matching item in the requested order (before paging), with its score.
    public func matches(for request: SearchRequest) -> [Int] {
        let terms = Catalog.terms(of: request.query)
        guard !terms.isEmpty else { return [] }
        var scored: [(index: Int, score: Int)] = []
        let phrase = terms.joined(separator: " ")
        for (index, entry) in entries.enumerated() {
            if request.naverPayOnly && !entry.naverPay { continue }
            if request.exclude.contains(.used) && entry.used { continue }
            if request.exclude.contains(.rental) && entry.rental { continue }
            if request.exclude.contains(.cbshop) && entry.crossBorder { continue }
            guard let score = Catalog.score(entry, terms: terms, phrase: phrase) else { continue }
            scored.append((index, score))
        }
        // Relevance first (stable on the recorded order); the other orders keep relevance as the tie-break.
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        var order = scored.map(\.index)
        switch request.sort {
        case .sim:
            break
        case .date:
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            order.sort { a, b in
                let x = entries[a].numericId, y = entries[b].numericId
                if x != y { return x.0 != y.0 ? x.0 > y.0 : x.1 > y.1 }
                return rank[a]! < rank[b]!
            }
        case .asc, .dsc:
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            let ascending = request.sort == .asc
            order.sort { a, b in
                switch (entries[a].price, entries[b].price) {
                case let (x?, y?) where x != y: return ascending ? x < y : x > y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return rank[a]! < rank[b]!
                }
            }
        }
        return order
    }

    /// Answers a request the way the API would: one page, titles bolded.
    public func search(_ request: SearchRequest) -> WireSearchResponse {
        let order = matches(for: request)
        let terms = Catalog.terms(of: request.query)
        let from = request.start - 1
        let page = from < order.count ? Array(order[from..<min(order.count, from + request.display)]) : []
        let found = page.map { index -> WireItem in
            var item = items[index]
            item.title = Catalog.bold(item.title, terms: terms)
            return item
        }
        return WireSearchResponse(total: order.count, start: request.start, display: found.count, items: found)
    }

    // MARK: - Scoring

    /// Nil when a term matches nowhere. Title matches weigh most, at a word start more, and a
    /// title holding the whole phrase most of all.
    private static func score(_ entry: Entry, terms: [String], phrase: String) -> Int? {
        var total = 0
        for term in terms {
            var best = 0
            if let range = entry.title.range(of: term) {
                let atWordStart = range.lowerBound == entry.title.startIndex
                    || entry.title[entry.title.index(before: range.lowerBound)].isWhitespace
                best = atWordStart ? 10 : 6
            }
            for field in entry.fields where best < 5 {
                if field == term { best = max(best, 5) } else if field.contains(term) { best = max(best, 3) }
            }
            if best == 0 { return nil }
            total += best
        }
        if terms.count > 1 && entry.title.contains(phrase) { total += 5 }
        return total
    }

    // MARK: - Bolding

    /// Wraps each case-insensitive occurrence of each term in `<b>…</b>`, as the API does. The
    /// raw title may hold entities, so a term is looked for in its escaped form, and never
    /// inside an entity.
    public static func bold(_ raw: String, terms: [String]) -> String {
        let bytes = Array(raw.utf8)
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        let entities = entitySpans(bytes)
        var ranges: [Range<Int>] = []
        for term in terms {
            let needle = Array(escapeForTitle(term).utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard !needle.isEmpty, needle.count <= lowered.count else { continue }
            var i = 0
            while i + needle.count <= lowered.count {
                if lowered[i] == needle[0] && lowered[i..<(i + needle.count)].elementsEqual(needle) {
                    let range = i..<(i + needle.count)
                    let cutsEntity = entities.contains { $0.overlaps(range) && !(range.lowerBound <= $0.lowerBound && $0.upperBound <= range.upperBound) }
                    if !cutsEntity {
                        ranges.append(range)
                        i += needle.count
                        continue
                    }
                }
                i += 1
            }
        }
        guard !ranges.isEmpty else { return raw }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + merged.count * 7)
        var at = 0
        for range in merged {
            out.append(contentsOf: bytes[at..<range.lowerBound])
            out.append(contentsOf: Array("<b>".utf8))
            out.append(contentsOf: bytes[range])
            out.append(contentsOf: Array("</b>".utf8))
            at = range.upperBound
        }
        out.append(contentsOf: bytes[at...])
        return String(decoding: out, as: UTF8.self)
    }

    private static func escapeForTitle(_ term: String) -> String {
        var out = ""
        for ch in term {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Byte ranges of `&name;` / `&#…;` sequences.
    private static func entitySpans(_ bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "&") {
                var j = i + 1
                while j < bytes.count, j - i <= 32,
                      (bytes[j] >= 0x30 && bytes[j] <= 0x39) || (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x7A) || bytes[j] == UInt8(ascii: "#") {
                    j += 1
                }
                if j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > i + 1 {
                    spans.append(i..<(j + 1))
                    i = j + 1
                    continue
                }
            }
            i += 1
        }
        return spans
    }
}

/// A value computed once, on first use, safely across threads.
final class LazyValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    func value(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}
