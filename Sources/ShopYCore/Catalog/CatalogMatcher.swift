/// The catalog's search over its indexes, with the API's semantics (see `Catalog`): the
/// candidates are the items whose postings hold every key of every term (found by walking the
/// shortest list and seeking in the others), then each candidate is scored on its bytes. The cost
/// grows with the matches, not with the catalog.
struct CatalogMatcher {
    /// One index with the place its items take in the catalog's order, and the ordinals it hides
    /// (embedded items a local record replaces).
    struct Segment {
        var index: CatalogIndex
        var base: Int
        var hidden: (Int) -> Bool = { _ in false }
    }

    struct Hit {
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
    /// so they are selected from the others rather than all sorted.
    func matches(in segments: [Segment], first: Int) -> (total: Int, hits: [Hit]) {
        guard !terms.isEmpty else { return (0, []) }
        var hits: [Hit] = []
        let termKeys = terms.map(CatalogText.termKeys)
        for (s, segment) in segments.enumerated() {
            let index = segment.index
            var records: [CatalogIndex.Record?] = []
            candidates(index, keys: termKeys) { batch in
                // In chunks, each in three passes: the records read, the texts' first lines
                // touched, then the scoring. Each of the first two passes is a run of independent
                // loads the processor overlaps, rather than one cache miss at a time between
                // scorings (a search of a million items is bound by those misses).
                var from = 0
                while from < batch.count {
                    let chunk = batch[from..<min(batch.count, from + 256)]
                    from = chunk.endIndex
                    records.removeAll(keepingCapacity: true)
                    for ordinal in chunk { records.append(index.record(ordinal)) }
                    var touched: UInt8 = 0
                    for case let record? in records {
                        touched &+= index.byte(record.title.lowerBound) &+ index.byte(record.title.lowerBound + 64) &+ index.byte(record.fields.lowerBound)
                    }
                    CatalogMatcher.keep(touched)
                    for (ordinal, record) in zip(chunk, records) {
                        guard let record, !segment.hidden(ordinal) else { continue }
                        if request.naverPayOnly && !record.flags.contains(.naverPay) { continue }
                        if request.exclude.contains(.used) && record.flags.contains(.used) { continue }
                        if request.exclude.contains(.rental) && record.flags.contains(.rental) { continue }
                        if request.exclude.contains(.cbshop) && record.flags.contains(.crossBorder) { continue }
                        guard let score = score(index, record) else { continue }
                        hits.append(Hit(segment: s, ordinal: ordinal, score: score, global: segment.base + ordinal, price: record.price))
                    }
                }
            }
        }
        // Relevance order: score descending, then catalog order, which is the order the hits
        // were found in: one integer key each, sorted without a comparison closure.
        let total = hits.count
        if hits.count > 1 && hits.count < Int(UInt32.max) {
            var keys = hits.indices.map { UInt64(UInt32.max - UInt32(clamping: hits[$0].score)) << 32 | UInt64($0) }
            if request.sort == .sim && first < keys.count / 8 {
                keys = CatalogMatcher.smallest(first, of: keys)
            } else {
                keys.sort()
            }
            hits = keys.map { hits[Int($0 & 0xFFFF_FFFF)] }
        }
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

    /// Calls `body` with the ordinals whose postings hold every key, a window of the catalog at
    /// a time (ascending), before the window's pages are handed back.
    private func candidates(_ index: CatalogIndex, keys: [[UInt64]], _ body: ([Int]) -> Void) {
        var lists: [CatalogIndex.Postings] = []
        for key in Set(keys.joined()) {
            let list = index.postings(key)
            if list.count == 0 { return }
            lists.append(list)
        }
        lists.sort { $0.count < $1.count }
        guard let driver = lists.first else { return }
        var cursors = [Int](repeating: 0, count: lists.count)
        // A mapped index's records and texts are read in ordinal order: what lies behind the
        // scan is handed back to the kernel as it goes, so a search of a million items keeps a
        // bounded part of them resident.
        // (Mapping each window's pages ahead in one call, MADV_POPULATE_READ, measured slower than
        // letting the batched reads fault them in: 44 against 34 ms at a million items.)
        let step = 16_384
        var released = 0, windowEnd = 0
        var batch: [Int] = []
        batch.reserveCapacity(min(driver.count, step))
        func flush() {
            if !batch.isEmpty { body(batch) }
            batch.removeAll(keepingCapacity: true)
        }
        defer {
            flush()
            if driver.count > 0 { index.releasePages(ordinals: released..<index.count) }
        }
        outer: for i in 0..<driver.count {
            let ordinal = driver[i]
            // A damaged index may list an ordinal out of order or past the items: skipped (it
            // answers less), never a range that runs backwards.
            guard ordinal >= released, ordinal < index.count else { continue }
            if ordinal >= windowEnd {
                flush()
                index.releasePages(ordinals: released..<ordinal)
                released = ordinal
                windowEnd = ordinal + step
            }
            for l in 1..<max(lists.count, 1) where l < lists.count {
                let at = lists[l].seek(ordinal, from: cursors[l])
                cursors[l] = at
                if at == lists[l].count { break outer }
                if lists[l][at] != ordinal { continue outer }
            }
            if ordinal < index.count { batch.append(ordinal) }
        }
    }

    /// Nil when a term matches nowhere. Title matches weigh most, at a word start more, and a
    /// title holding the whole phrase most of all (the scores of the scan it replaced).
    private func score(_ index: CatalogIndex, _ record: CatalogIndex.Record) -> Int? {
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
