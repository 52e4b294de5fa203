import ShopYBase
/// One listing from several sources: the one service that merges, so that search, popular,
/// rank, browse and the widget never branch on how many sources there are.
///
/// Every source is asked at once (each with its own deadline), for the same request: `--size`
/// and `--page` apply to each source, so a page lists up to size items from each and `total` is
/// the sum. `sim` interleaves the sources' own orders (round robin, in the order they were
/// named); `asc`/`dsc` order every item by price (unknown prices last; the round-robin order
/// among equal ones). A source that fails is reported in `failures` and the others are listed;
/// only when every source failed is the first failure (in the sources' order) thrown.
public struct SourceMerge: ProductSource {
    public let sources: [any ProductSource]

    public init(_ sources: [any ProductSource]) {
        precondition(!sources.isEmpty, "a merge needs a source")
        self.sources = sources
    }

    public var kind: SourceKind { sources[0].kind }
    public var kinds: [SourceKind] { sources.flatMap(\.kinds) }

    public func check(_ request: SearchRequest) throws {
        for source in sources { try source.check(request) }
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let outcomes: [Result<SearchPage, any Error>] = await withTaskGroup(of: (Int, Result<SearchPage, any Error>).self) { group in
            for (index, source) in sources.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await source.search(request)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            // Collected as they come, then put in the sources' order. (Not into an array of
            // optionals by index: Swift 6.3's optimizer miscompiles that with `for await` over
            // `Result<_, any Error>` and the release build trapped.)
            var results: [(Int, Result<SearchPage, any Error>)] = []
            results.reserveCapacity(sources.count)
            for await pair in group { results.append(pair) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return try Self.merge(outcomes, kinds: sources.map(\.kind), request: request)
    }

    /// The merged page of the sources' outcomes (in the sources' order).
    public static func merge(_ outcomes: [Result<SearchPage, any Error>], kinds: [SourceKind], request: SearchRequest) throws -> SearchPage {
        var pages: [SearchPage] = []
        var failures: [SourceFailure] = []
        for (kind, outcome) in zip(kinds, outcomes) {
            switch outcome {
            case .success(let page): pages.append(page)
            case .failure(let error): failures.append(SourceFailure(source: kind, error: error))
            }
        }
        guard !pages.isEmpty else { throw failures[0].error }
        if kinds.count == 1 { return pages[0] }

        // Round robin: the first item of each source, then the second of each, …
        var items: [Product] = []
        items.reserveCapacity(pages.reduce(0) { $0 + $1.items.count })
        let deepest = pages.map(\.items.count).max() ?? 0
        for depth in 0..<deepest {
            for page in pages where depth < page.items.count { items.append(page.items[depth]) }
        }
        if request.sort == .asc || request.sort == .dsc { items = PriceOrder.sorted(items, ascending: request.sort == .asc) }
        // Page p of n sources holds up to size × n rows: its first rank is (p − 1) · size · n + 1,
        // so rows stay unique across pages (`shopy like ROW`).
        let size = max(1, request.display)
        let page = (max(1, request.start) - 1) / size
        let (scaled, overflow) = page.multipliedReportingOverflow(by: size * kinds.count)
        let start = overflow ? Int.max : Checked.sum(scaled, 1)
        let total = pages.reduce(0) { Checked.sum($0, max(0, $1.total)) }
        return SearchPage(query: request.query, sort: request.sort, source: kinds[0], total: total, start: start,
                          display: items.count, items: items, dropped: pages.reduce(0) { $0 + $1.dropped },
                          sources: kinds, failures: failures)
    }
}
