import Foundation
import ShopYBase

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
    /// The parts searched together, in order: the embedded items, then the local catalog's.
    let parts: [CatalogPart]
    private let allItems = LazyValue<[WireItem]>()

    /// Every item, in the catalog's order (decoded on first use: a search does not need it).
    public var items: [WireItem] {
        allItems.value {
            var out: [WireItem] = []
            let hidden = self.hidden
            for (p, part) in parts.enumerated() {
                for (i, item) in part.items.enumerated() where !hidden[p].contains(i) { out.append(item) }
            }
            return out
        }
    }

    /// Builds a local part's damaged index again and gives the catalog with it (see `page`).
    private let repair: (@Sendable (String) throws(StoreError) -> Catalog)?
    private let repaired = Locked<Catalog?>(nil)

    /// The parts, a later part's record replacing an earlier one with the same productId (found
    /// when needed: a search asks only about the items it matched).
    init(parts: [CatalogPart], repair: (@Sendable (String) throws(StoreError) -> Catalog)? = nil) {
        self.parts = parts
        self.repair = repair
    }

    private let hiddenSets = LazyValue<[Set<Int>]>()

    /// The ordinals of each part that a later part's record replaces.
    var hidden: [Set<Int>] {
        hiddenSets.value {
            // The last part hides nothing of its own (no part comes after it): not walked.
            parts.indices.map { p in p + 1 < parts.count ? Set((0..<parts[p].index.count).filter { isHidden(part: p, ordinal: $0) }) : [] }
        }
    }

    /// Whether a later part holds a record with the productId of this part's item.
    func isHidden(part p: Int, ordinal: Int) -> Bool {
        guard p + 1 < parts.count, let record = parts[p].index.record(ordinal) else { return false }
        let id = Array(parts[p].index.bytes(record.id))
        return parts[(p + 1)...].contains { !$0.index.ordinals(ofId: id).isEmpty }
    }

    /// The catalog built into shopy (Fixtures/recorded-items.json), decoded and indexed at its
    /// first use.
    public static let embedded = Catalog(parts: [EmbeddedCatalog.part])

    public convenience init(json: [UInt8]) throws(WireDecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw WireDecodingError("the catalog is not JSON: \(error)")
        }
        // A bare array, or an object with "items": a Naver answer, `shopy catalog export`, catalog.json.
        var elements = value
        if case .object(let object) = value, let items = object["items"] { elements = items }
        guard case .array(let array) = elements else { throw WireDecodingError("the catalog is not an array of items, nor an object with \"items\"") }
        var items: [WireItem] = []
        items.reserveCapacity(array.count)
        for (i, element) in array.enumerated() { items.append(try WireItem(json: element, index: i)) }
        self.init(items: items)
    }

    public convenience init(items: [WireItem]) {
        self.init(parts: [CatalogPart(items: items)])
    }

    /// One item of the built-in catalog by productId (the index's id table: one lookup).
    public static func embeddedItem(productId: String) -> WireItem? {
        embedded.parts[0].item(productId: productId)
    }

    /// The query's terms: split on whitespace, lowercased, empties dropped.
    public static func terms(of query: String) -> [String] {
        query.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    private var segments: [CatalogMatcher.Segment] {
        var base = 0
        return parts.enumerated().map { p, part in
            defer { base += part.index.count }
            let last = p + 1 == parts.count
            return CatalogMatcher.Segment(index: part.index, base: base, hidden: { last ? false : self.isHidden(part: p, ordinal: $0) })
        }
    }

    /// Every matching item in the requested order (before paging), as (part, ordinal).
    func hits(for request: SearchRequest) -> [CatalogMatcher.Hit] {
        CatalogMatcher(request: request).matches(in: segments)
    }

    /// One page of results for shopy's listings (the catalog source). A search that finds the
    /// local catalog's index damaged (`CatalogIndex.damage`) does not answer from it: the index
    /// is built again from catalog.json (`current` says so) and the search runs on that.
    public func page(_ request: SearchRequest) throws(StoreError) -> SearchPage {
        ProductMapper.page(from: try checkedSearch(request), query: request.query, sort: request.sort, source: .catalog)
    }

    private func checkedSearch(_ request: SearchRequest) throws(StoreError) -> WireSearchResponse {
        if let catalog = repaired.value { return try catalog.checkedSearch(request) }
        let response = search(request)
        guard let damage = parts.lazy.compactMap(\.index.damage).first else { return response }
        guard let repair else { throw .damaged(path: "the catalog's index", problem: damage) }
        let catalog = try repair(damage)
        repaired.value = catalog
        return try catalog.checkedSearch(request)
    }

    /// Answers a request the way the API would: one page, titles bolded. Only the page's items
    /// are decoded (and, sorted by relevance, only the page's items ranked).
    public func search(_ request: SearchRequest) -> WireSearchResponse {
        let from = max(request.start - 1, 0)
        let (total, order) = CatalogMatcher(request: request).matches(in: segments, first: from > Int.max - max(request.display, 0) ? Int.max : from + max(request.display, 0))
        let terms = Catalog.terms(of: request.query)
        let page = from < order.count ? Array(order[from..<min(order.count, from + request.display)]) : []
        let found = page.compactMap { hit -> WireItem? in
            guard var item = parts[hit.segment].item(at: hit.ordinal) else { return nil }
            item.title = Catalog.bold(item.title, terms: terms)
            return item
        }
        return WireSearchResponse(total: total, start: request.start, display: found.count, items: found)
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

/// A value read and replaced under a lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}
