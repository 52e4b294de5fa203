import ShopYBase

/// The catalog's search over its indexes, with the API's semantics (see `Catalog`): the
/// candidates are the items whose postings hold every key of every term (`CatalogCandidates`),
/// then each candidate is verified and scored on its record and text (`verify`). The cost grows
/// with the matches, not with the catalog.
struct CatalogMatcher: Sendable {
    /// One index with the place its items take in the catalog's order, and the ordinals it hides
    /// (embedded items a local record replaces).
    struct Segment: Sendable {
        var index: CatalogIndex
        var base: Int
        var hidden: @Sendable (Int) -> Bool = { _ in false }
    }

    struct Hit: Sendable {
        var segment: Int
        var ordinal: Int
        var score: Int
        var global: Int
        var price: Int?
    }

    let terms: [[UInt8]]
    let phrase: [UInt8]
    let request: SearchRequest

    init(request: SearchRequest) {
        self.request = request
        terms = Catalog.terms(of: request.query).map { Array($0.utf8) }
        phrase = Array(Catalog.terms(of: request.query).joined(separator: " ").utf8)
    }

    /// Every matching item in the requested order (before paging).
    func matches(in segments: [Segment]) -> [Hit] {
        matches(in: segments, first: Int.max).hits
    }

    /// The number of matching items, and the first `first` of them in the requested order (all
    /// of them for a sort other than `sim`): relevance order needs only the page's items ranked,
    /// so the best are kept as the candidates are verified (`CatalogBestHits`), and no other hit
    /// is stored.
    func matches(in segments: [Segment], first: Int) -> (total: Int, hits: [Hit]) {
        guard !terms.isEmpty else { return (0, []) }
        let termKeys = terms.map(CatalogText.termKeys)
        let candidates = segments.map { CatalogCandidates.ordinals($0.index, keys: termKeys) }
        if request.sort == .sim && first <= CatalogBestHits.mostKept && candidates.reduce(0, { $0 + $1.count }) < Int(UInt32.max) {
            var best = CatalogBestHits(keeping: first)
            var order = 0
            for (s, segment) in segments.enumerated() {
                verify(segment, s, candidates[s]) { hit in
                    best.add(hit, order: order)
                    order += 1
                }
            }
            return (best.count, best.sorted())
        }
        var hits: [Hit] = []
        for (s, segment) in segments.enumerated() {
            verify(segment, s, candidates[s]) { hits.append($0) }
        }
        // Relevance order: score descending, then catalog order (the order the hits were found
        // in). The other sorts break their ties in relevance order.
        let total = hits.count
        hits = hits.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
        switch request.sort {
        case .sim:
            return (total, hits)
        case .date:
            let keyed = hits.enumerated().map { rank, hit -> (Hit, Int, UnsafeBufferPointer<UInt8>, Int) in
                let record = segments[hit.segment].index.record(hit.ordinal)!
                return (hit, record.idCharacters, segments[hit.segment].index.bytes(record.id), rank)
            }
            return (total, keyed.sorted { a, b in
                if a.1 != b.1 { return a.1 > b.1 }
                let order = compare(a.2, b.2)
                return order != 0 ? order > 0 : a.3 < b.3
            }.map(\.0))
        case .asc, .dsc:
            let ascending = request.sort == .asc
            let keyed = hits.enumerated().map { rank, hit in (hit, hit.price, rank) }
            return (total, keyed.sorted { a, b in
                switch (a.1, b.1) {
                case let (x?, y?) where x != y: return ascending ? x < y : x > y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return a.2 < b.2
                }
            }.map(\.0))
        }
    }

    /// Hands `found` the hits among these candidates of `segment` (its `s`th), in their order:
    /// each candidate's record read, the filters applied, the match scored.
    private func verify(_ segment: Segment, _ s: Int, _ candidates: [Int], _ found: (Hit) -> Void) {
        let index = segment.index
        for ordinal in candidates {
            guard let record = index.record(ordinal), !segment.hidden(ordinal) else { continue }
            if request.naverPayOnly && !record.flags.contains(.naverPay) { continue }
            if request.exclude.contains(.used) && record.flags.contains(.used) { continue }
            if request.exclude.contains(.rental) && record.flags.contains(.rental) { continue }
            if request.exclude.contains(.cbshop) && record.flags.contains(.crossBorder) { continue }
            guard let score = score(index, record) else { continue }
            found(Hit(segment: s, ordinal: ordinal, score: score, global: segment.base + ordinal, price: record.price))
        }
    }

    /// Nil when a term matches nowhere. Title matches weigh most, at a word start more, and a
    /// title holding the whole phrase most of all (the scores of the scan it replaced).
    func score(_ index: CatalogIndex, _ record: CatalogIndex.Record) -> Int? {
        let title = index.bytes(record.title)
        let fields = index.bytes(record.fields)
        var total = 0
        for term in terms {
            var best = 0
            term.withUnsafeBufferPointer { needle in
                if let at = CatalogText.find(needle, in: title) {
                    best = at == 0 || CatalogText.spaceBefore(title, at) ? 10 : 6
                }
                guard best < 5 else { return }
                var start = 0
                for i in 0..<fields.count where fields[i] == 0x1F {
                    let field = UnsafeBufferPointer(rebasing: fields[start..<i])
                    if CatalogText.equal(field, needle) { best = max(best, 5); break }
                    if best < 3, CatalogText.find(needle, in: field) != nil { best = 3 }
                    start = i + 1
                }
            }
            if best == 0 { return nil }
            total += best
        }
        if terms.count > 1, phrase.withUnsafeBufferPointer({ CatalogText.find($0, in: title) }) != nil { total += 5 }
        return total
    }

    private func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for i in 0..<min(a.count, b.count) where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
