/// Where a product, or a store's products, ranks for a keyword: the matchers and the depth.
import ShopYBase

public struct RankQuery: Sendable, Equatable {
    public var keyword: String
    public var productID: String?
    public var mall: String?
    public var title: String?
    public var depth: Int
    /// Every match within the depth, not only the first.
    public var all: Bool

    public init(keyword: String, productID: String? = nil, mall: String? = nil, title: String? = nil, depth: Int = 1000, all: Bool = false) {
        self.keyword = keyword
        self.productID = productID
        self.mall = mall
        self.title = title
        self.depth = depth
        self.all = all
    }

    /// Case- and spacing-insensitive form for matching: lowercased, every space removed (`다 샵`
    /// matches `다샵`, `자석방충망` matches `자석 방충망`).
    public static func normalize(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    public func matches(_ product: Product) -> Bool {
        if let productID, product.productId != productID { return false }
        if let mall, Self.normalize(product.mall ?? "") != Self.normalize(mall) { return false }
        if let title, !Self.normalize(product.title).contains(Self.normalize(title)) { return false }
        return true
    }
}

/// The rank scan: fetches relevance-ordered pages concurrently (at most a few in flight, paced)
/// in rank order, and stops once the first match is certain: every page before it has arrived.
/// It reports progress as events; it prints nothing.
public enum RankScan {
    public struct Match: Sendable {
        public var rank: Int
        public var product: Product
        public var webPage: Int { ListingArithmetic.webPlace(rank: rank).page }
        public var webPosition: Int { ListingArithmetic.webPlace(rank: rank).position }

        public init(rank: Int, product: Product) {
            self.rank = rank
            self.product = product
        }
    }

    /// The scan's outcome.
    public struct Outcome: Sendable {
        public var matches: [Match]
        public var scannedTo: Int
        public var total: Int
        /// Requests that went to the server; nil on the catalog, which sends none.
        public var requests: Int?
    }

    public enum Event: Sendable {
        /// Ranks scanned so far, of `depth`.
        case progress(scanned: Int, depth: Int)
        case finished(Outcome)
    }

    /// The pages a scan to `depth` needs: (start, display).
    public static func pages(depth: Int) -> [(start: Int, display: Int)] {
        var pages: [(Int, Int)] = []
        var start = 1
        while start <= min(depth, SearchRequest.maxStart) && start <= 901 {
            pages.append((start, min(100, depth - start + 1)))
            start += 100
        }
        if depth > 1000 {
            // start is capped at 1000: the last page repeats rank 1000 and reaches 1099.
            pages.append((SearchRequest.maxStart, depth - SearchRequest.maxStart + 1))
        }
        return pages
    }

    /// The scan as a stream of events, the last one `.finished`. Ending the iteration early
    /// cancels the scan.
    package static func events(_ query: RankQuery, source: any ProductSource, pacer: ScanPacer?) -> AsyncThrowingStream<Event, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let outcome = try await run(query, source: source, pacer: pacer) { continuation.yield($0) }
                    continuation.yield(.finished(outcome))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The scan. `pacer` (for a source that sends requests) admits each page when the rate
    /// limiter releases it, and never one past the total an answer reported.
    package static func run(_ query: RankQuery, source: any ProductSource, pacer: ScanPacer?,
                            progress: @Sendable (Event) -> Void = { _ in }) async throws -> Outcome {
        let pages = pages(depth: query.depth)
        let maxInFlight = 6
        let pacer = source.kind == .catalog ? nil : pacer
        var results = [SearchPage?](repeating: nil, count: pages.count)
        // The total the answers report (the smallest); nil until the first answer comes back.
        var reported: Int?
        var total: Int { reported ?? Int.max }
        var stopAt = pages.count  // no page at or after this index is needed

        try await withThrowingTaskGroup(of: (Int, SearchPage?).self) { group in
            var next = 0
            var inFlight = 0
            func launch() {
                while inFlight < maxInFlight && next < stopAt && pages[next].start <= total {
                    let index = next
                    let page = pages[index]
                    let request = SearchRequest(query: query.keyword, sort: .sim, start: page.start, display: page.display)
                    group.addTask {
                        guard let pacer else { return (index, try await source.search(request)) }
                        // Past the total learnt meanwhile: not sent at all.
                        guard await pacer.admit(start: page.start) else { return (index, nil) }
                        return (index, try await pacer.sendAdmitted { try await source.search(request) })
                    }
                    next += 1
                    inFlight += 1
                }
            }
            launch()
            while let (index, answer) = try await group.next() {
                inFlight -= 1
                if let answer {
                    results[index] = answer
                    reported = min(reported ?? answer.total, answer.total)
                    pacer?.learn(total: answer.total)
                }
                if !query.all {
                    // The first match is certain once every page up to the one holding it is in.
                    var i = 0
                    while i < stopAt, let done = results[i] {
                        if done.items.contains(where: query.matches) {
                            stopAt = i + 1
                            break
                        }
                        i += 1
                    }
                }
                progress(.progress(scanned: results.reduce(0) { $0 + ($1?.items.count ?? 0) }, depth: query.depth))
                let needed = (0..<stopAt).filter { pages[$0].start <= total }
                if needed.allSatisfy({ results[$0] != nil }) {
                    group.cancelAll()
                    break
                }
                launch()
            }
        }

        var matches: [Match] = []
        var scannedTo = 0
        for (index, page) in results.enumerated() where index < stopAt {
            guard let page else { continue }
            for (i, product) in page.items.enumerated() {
                // Answers are checked (`AnswerCheck`), and the sum saturates all the same.
                let rank = ListingArithmetic.rank(start: page.start, index: i)
                // The last page starts at 1000 and repeats that rank.
                if rank <= scannedTo || rank > query.depth { continue }
                scannedTo = rank
                if query.matches(product), query.all || matches.isEmpty {
                    matches.append(Match(rank: rank, product: product))
                }
            }
        }
        return Outcome(matches: matches, scannedTo: scannedTo, total: max(0, reported ?? 0), requests: pacer?.sent)
    }
}
