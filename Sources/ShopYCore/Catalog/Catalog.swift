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
    /// The parts searched together, in order: the embedded items, then the local catalog's.
    package let parts: [CatalogPart]
    private let hidden: [Set<Int>]
    private let allItems = LazyValue<[WireItem]>()

    /// Every item, in the catalog's order (decoded on first use: a search does not need it).
    public var items: [WireItem] {
        allItems.value {
            var out: [WireItem] = []
            for (p, part) in parts.enumerated() {
                for (i, item) in part.items.enumerated() where !hidden[p].contains(i) { out.append(item) }
            }
            return out
        }
    }

    /// The parts, a later part's record replacing an earlier one with the same productId.
    package init(parts: [CatalogPart]) {
        self.parts = parts
        var hidden = [Set<Int>](repeating: [], count: parts.count)
        if parts.count > 1 {
            for p in 0..<(parts.count - 1) {
                let index = parts[p].index
                for i in 0..<index.count {
                    guard let record = index.record(i) else { continue }
                    let id = Array(index.bytes(record.id))
                    if parts[(p + 1)...].contains(where: { !$0.index.ordinals(ofId: id).isEmpty }) { hidden[p].insert(i) }
                }
            }
        }
        self.hidden = hidden
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

    private var segments: [CatalogMatcher.Segment] {
        var base = 0
        return parts.enumerated().map { p, part in
            defer { base += part.index.count }
            return CatalogMatcher.Segment(index: part.index, base: base, hidden: hidden[p])
        }
    }

    /// Every matching item in the requested order (before paging), as (part, ordinal).
    func hits(for request: SearchRequest) -> [CatalogMatcher.Hit] {
        CatalogMatcher(request: request).matches(in: segments)
    }

    /// Answers a request the way the API would: one page, titles bolded. Only the page's items
    /// are decoded.
    public func search(_ request: SearchRequest) -> WireSearchResponse {
        let order = hits(for: request)
        let terms = Catalog.terms(of: request.query)
        let from = request.start - 1
        let page = from < order.count ? Array(order[from..<min(order.count, from + request.display)]) : []
        let found = page.compactMap { hit -> WireItem? in
            guard var item = parts[hit.segment].item(at: hit.ordinal) else { return nil }
            item.title = Catalog.bold(item.title, terms: terms)
            return item
        }
        return WireSearchResponse(total: order.count, start: request.start, display: found.count, items: found)
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
