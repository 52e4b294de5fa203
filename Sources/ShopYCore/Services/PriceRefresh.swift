import Foundation
import ShopYBase

/// `shopy likes refresh` as work (the widget calls it too): finds each liked product again at
/// its source and records its price. Each like goes to the source its id names:
/// - a bare id (Naver's, the catalog's): Naver's API cannot look a product up by id, so the like
///   is searched for by its title (relevance order), page by page down to the depth, until its
///   productId turns up; found without a usable price (`lprice` 0 or empty), it is that like's
///   `error` (exit 65), never `same` at the old price; on the catalog (a recording) nothing is
///   searched;
/// - `11st:…`: one `ProductInfo` lookup by its code (`ElevenStreetSource.lookup`); an answer
///   without a usable price is that like's `error` (exit 65), never `same` at the old price;
/// - `coupang:…`: `untracked`: Coupang's terms forbid keeping its data, so a Coupang like keeps
///   what the user chose to keep and no price history.
public enum PriceRefresh {
    public enum Outcome: String, Sendable {
        case same, down, up, gone, error, untracked
    }

    /// Why a Coupang like is not refreshed.
    public static let untrackedReason = "Coupang's terms forbid keeping its data: a Coupang like keeps what you liked, and no price history"

    /// What one like's refresh found.
    public struct Result: Sendable {
        public var like: Like
        public var outcome: Outcome
        /// The product as found (nil: gone or error).
        public var found: Product?
        /// The price known before this refresh (the latest point, else the liked price).
        public var previous: Int?
        public var rank: Int?
        public var error: (any Error)?
        /// The requests sent for this like (each attempt handed to the transport, retries
        /// included), whatever the outcome: an `error` after three pages says 3.
        public var requests: Int
        /// Why nothing was asked (`untracked`).
        public var reason: String? = nil

        public var price: Int? { found?.price }
    }

    /// An alert that fired in this refresh.
    public struct Fired: Sendable {
        public var like: Like
        public var alert: PriceAlert
        public var price: Int
        public var at: String
    }

    /// Words of the title a search keeps: a long title finds fewer results than its first words.
    static let queryWords = 6

    /// The search for a like: its cleaned title's first words.
    public static func query(for title: String) -> String {
        let words = TitleCleaner.clean(title).split(whereSeparator: { $0.isWhitespace })
        var query = words.prefix(queryWords).joined(separator: " ")
        while query.utf8.count > 100, let space = query.lastIndex(of: " ") { query = String(query[..<space]) }
        return query
    }

    /// Searches for one like, down to `depth` ranks, stopping at the page that holds it.
    static func find(_ like: Like, source: any ProductSource, depth: Int) async throws -> (product: Product?, rank: Int?) {
        let query = query(for: like.product.title)
        guard !query.isEmpty else { return (nil, nil) }
        var seen = 0
        for page in RankScan.pages(depth: depth) {
            try Task.checkCancellation()
            let answer = try await source.search(SearchRequest(query: query, sort: .sim, start: page.start, display: page.display))
            for (i, product) in answer.items.enumerated() {
                let rank = ListingArithmetic.rank(start: page.start, index: i)
                if rank <= seen || rank > depth { continue }
                seen = rank
                if product.productId == like.product.productId { return (product, rank) }
            }
            if answer.items.isEmpty || page.start + page.display > answer.total { break }
        }
        return (nil, nil)
    }

    /// One like's refresh at its source (`requests` is left to the caller, which counts what
    /// was sent). A product found without a usable price learned nothing: that like's `error`,
    /// never `same` at the old price, and no point is recorded.
    static func refresh(_ like: Like, previous: Int?, source: any ProductSource, depth: Int,
                        elevenStreet: Swift.Result<ElevenStreetSource, any Error>?) async -> Result {
        let id = like.product.productId
        let namespace = ProductID.namespace(of: id)
        if namespace == .coupang {
            return Result(like: like, outcome: .untracked, found: nil, previous: previous, rank: nil, error: nil, requests: 0, reason: untrackedReason)
        }
        if namespace == nil && source.kind == .catalog {
            // A recording: its prices never change, so nothing is searched.
            return Result(like: like, outcome: .same, found: nil, previous: previous, rank: nil, error: nil, requests: 0)
        }
        do {
            let (product, rank): (Product?, Int?)
            if namespace == .elevenst {
                guard let elevenStreet else { throw SourceError.keysNotSet(source: .elevenst, variables: SourceKeys.variables(of: .elevenst)) }
                (product, rank) = (try await elevenStreet.get().lookup(id), nil)
                if let product, product.price == nil {
                    throw NamedSourceError.wrap(SourceError.impossibleAnswer(
                        "ProductInfo for \(ProductID.bare(id)) has no price (neither LowestPrice nor Price is a positive number of won)"),
                        source: .elevenst)
                }
            } else {
                (product, rank) = try await find(like, source: source, depth: depth)
                if let product, product.price == nil {
                    throw NamedSourceError.wrap(SourceError.unpriced(
                        "found at rank \(rank.map(Money.grouped) ?? "?") without a price (its lprice is not a positive number of won): no price recorded"),
                        source: source.kind)
                }
            }
            guard let product else {
                return Result(like: like, outcome: .gone, found: nil, previous: previous, rank: nil, error: nil, requests: 0)
            }
            let outcome: Outcome
            switch (product.price, previous) {
            case let (now?, before?) where now < before: outcome = .down
            case let (now?, before?) where now > before: outcome = .up
            default: outcome = .same
            }
            return Result(like: like, outcome: outcome, found: product, previous: previous, rank: rank, error: nil, requests: 0)
        } catch {
            return Result(like: like, outcome: .error, found: nil, previous: previous, rank: nil, error: error, requests: 0)
        }
    }

    /// Refreshes `likes` concurrently (at most `workers` requests in flight; the sources'
    /// `beforeRequest` holds them to the rate). One like's failure is its own `error`.
    /// `source` refreshes the bare ids (Naver, or the catalog, where nothing is searched);
    /// `elevenStreet` the `11st:` ones (nil: none are liked; a failure: why it cannot be asked).
    public static func run(_ likes: [Like], book: PriceBook, source: any ProductSource, depth: Int, workers: Int = 16,
                           elevenStreet: Swift.Result<ElevenStreetSource, any Error>? = nil,
                           progress: (@Sendable (Int) -> Void)? = nil) async -> [Result] {
        var results = [Result?](repeating: nil, count: likes.count)
        // Nothing to ask at all (the catalog's likes, Coupang's): answered at once, no progress.
        if likes.allSatisfy({ ProductID.namespace(of: $0.product.productId) == .coupang
                || (ProductID.namespace(of: $0.product.productId) == nil && source.kind == .catalog) }) {
            return likes.map { like in
                let previous = book[like.product.productId]?.latest ?? like.likedPrice
                return ProductID.namespace(of: like.product.productId) == .coupang
                    ? Result(like: like, outcome: .untracked, found: nil, previous: previous, rank: nil, error: nil, requests: 0, reason: untrackedReason)
                    : Result(like: like, outcome: .same, found: nil, previous: previous, rank: nil, error: nil, requests: 0)
            }
        }
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            var done = 0
            func launch() {
                guard next < likes.count else { return }
                let index = next
                let like = likes[index]
                let previous = book[like.product.productId]?.latest ?? like.likedPrice
                group.addTask {
                    // Every request this like's refresh hands to the transport, whatever it ends in.
                    let sent = RequestCounter()
                    var result = await RequestCounter.$current.withValue(sent) {
                        await refresh(like, previous: previous, source: source, depth: depth, elevenStreet: elevenStreet)
                    }
                    result.requests = sent.count
                    return (index, result)
                }
                next += 1
            }
            for _ in 0..<min(workers, likes.count) { launch() }
            while let (index, result) = await group.next() {
                results[index] = result
                done += 1
                progress?(done)
                launch()
            }
        }
        return results.map { $0! }
    }

    /// Applies the results inside a transaction on likes and prices: a point per found like,
    /// the snapshot (title, mall, link, image) when it changed, and the alerts. Likes unliked
    /// meanwhile are skipped; likes added meanwhile are kept (the transaction re-reads both).
    public static func apply(_ results: [Result], to settings: Settings, at time: String) throws -> [Fired] {
        var likes = settings.likes
        var book = settings.prices
        var fired: [Fired] = []
        var likesChanged = false
        for result in results {
            guard let found = result.found else { continue }
            let id = result.like.product.productId
            guard let current = try likes.like(id) else { continue }
            var record = book[id] ?? PriceRecord()
            record.record(PricePoint(at: time, price: found.price))
            if var alert = record.alert {
                if alert.observe(price: found.price, likedPrice: current.likedPrice, at: time), let price = found.price {
                    fired.append(Fired(like: current, alert: alert, price: price, at: time))
                }
                record.alert = alert
            }
            book[id] = record
            var updated = current
            updated.product.title = found.title.isEmpty ? current.product.title : found.title
            updated.product.mall = found.mall ?? current.product.mall
            updated.product.link = found.link ?? current.product.link
            updated.product.image = found.image ?? current.product.image
            if updated != current {
                // Through the likes' own journal: an unlike and a like of the new snapshot, with
                // likedAt and likedPrice as they were.
                likes.remove(id)
                likes.add(updated)
                likesChanged = true
            }
        }
        book.keepOnly(Set(likes.ids))
        if likesChanged { settings.likes = likes }
        if book != settings.prices { settings.prices = book }
        return fired
    }
}
