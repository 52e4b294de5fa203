import Foundation
import ShopYCore
import ShopYBase

/// `shopy rank <keyword>`: where does a product, or a store's products, rank for a keyword?
public struct RankCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "rank",
        abstract: "Find where a product or a store ranks for a keyword (relevance order).",
        discussion: "Scans the relevance-ordered results 100 at a time (start=1, 101, …, 901, then start=1000 for ranks 1,001–1,099) down to --depth, several pages at once but never faster than --rate requests a second. It stops as soon as the first match is certain, unless --all asks for every match. Every matcher given must hold: --product compares productIds, --mall whole mall names, --title a part of the cleaned title (case and spacing ignored). The web page and position are those of Naver's 40-per-page listing.",
        arguments: [ArgumentSpec("keyword", help: "The search keyword to rank for.", variadic: true)],
        options: [product.spec, mall.spec, title.spec, depth.spec, all.spec, rate.spec] + formats.specs
            + [SharedOptions.source.spec, SharedOptions.requestTimeout.spec],
        examples: ["shopy rank 방충망 --mall 다샵", "shopy rank 고양이 --product 88159546540 --json",
                   "shopy rank 세제 --mall 티에스shop --title 세탁세제 --all --depth 500", "shopy rank 방충망 --title 자석 --mall 다샵"])

    /// A matcher's text, trimmed; an empty one is refused.
    static func matcher(_ name: String, value: String, help: String) -> Option<String?> {
        Option.optional(name, value: value, help: help, type: ValueType<String>(choices: []) { text, option throws(UsageError) in
            let trimmed = text.trimmingASCIIWhitespace()
            if trimmed.isEmpty { throw UsageError("--\(option) is empty") }
            return trimmed
        })
    }

    static let product = matcher("product", value: "id", help: "Match this productId.")
    static let mall = matcher("mall", value: "name", help: "Match this mall (store) name, whole.")
    static let title = matcher("title", value: "text", help: "Match titles containing this text.")
    static let depth = Option.value("depth", value: "n", help: "Scan this many ranks, 1 to \(SearchRequest.maxRank) (default 1,000).",
                                    type: .integer(1...SearchRequest.maxRank), default: 1000)
    static let all = Option.flag("all", help: "List every match within the depth, not only the first.")
    static let rate = SharedOptions.rate.withHelp("At most this many requests a second, 0.1 to 100 (default 8; the API throttles at about 10).")
    static let formats = SharedOptions.listingFormats

    /// The keyword, the matchers and the depth: what the scan looks for.
    package var query: RankQuery
    public var rate: Double
    public var format: OutputFormat?
    public var source: SourceSelection?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let keyword = parsed.positionals.joined(separator: " ").trimmingASCIIWhitespace()
        if keyword.split(whereSeparator: { $0.isWhitespace }).isEmpty {
            throw UsageError("rank needs a keyword", hint: "e.g. shopy rank 방충망 --mall 다샵")
        }
        try QueryLimit.check(keyword, what: "the keyword")
        let productID = try Self.product.read(parsed), mall = try Self.mall.read(parsed), title = try Self.title.read(parsed)
        if let productID, ProductID.usable(productID) == nil {
            // An id no product can have: the scan could never match it.
            throw UsageError("--product '\(Echo.value(productID))' is not a productId (a productId is \(ProductID.described))")
        }
        if productID == nil && mall == nil && title == nil {
            throw UsageError("rank needs something to look for", hint: "give --product ID, --mall NAME and/or --title TEXT")
        }
        query = RankQuery(keyword: keyword, productID: productID, mall: mall, title: title,
                          depth: try Self.depth.read(parsed), all: parsed[Self.all])
        rate = try Self.rate.read(parsed)
        format = try Self.formats.read(parsed)
        source = try SharedOptions.source.read(parsed)
        timeout = try SharedOptions.requestTimeout.read(parsed)
    }

    /// The pages a scan to `depth` needs: (start, display) (the benchmark plans its scans with it).
    public static func pages(depth: Int) -> [(start: Int, display: Int)] { RankScan.pages(depth: depth) }

    public typealias Match = RankScan.Match

    /// The scan's outcome with the liked marks.
    public struct Outcome: Sendable {
        package var scan: RankScan.Outcome
        package var liked: Set<String>?
    }

    /// On a terminal, the progress bar is drawn from the scan's events while it runs; then the
    /// presenter shows the outcome.
    public func run(_ context: Context) async throws -> ExitCode {
        let bar = ProgressBar(context: context, total: query.depth, keyword: query.keyword)
        defer { bar.finish() }
        let outcome = try await execute(context) { event in
            if case .progress(let scanned, _) = event { bar.update(scanned: scanned) }
        }
        bar.finish()
        return presenter.present(outcome, context: context)
    }

    public func execute(_ context: Context) async throws -> Outcome {
        try await execute(context) { _ in }
    }

    /// Scans (pages paced by --rate, none past the total), hands each progress event to
    /// `progress`, remembers the matches as the listing's rows and marks the liked ones.
    public func execute(_ context: Context, progress: (RankScan.Event) -> Void) async throws -> Outcome {
        // A scan takes a while: say when the network path drops or returns, and hold the next
        // request until it is back (up to --timeout) rather than fail page after page. Loopback
        // servers (the emulator) need no path.
        let kind = try rankedSource(context)
        let remote = kind.isLive && !((try? SourceKeys.base(of: kind, environment: context.io.environment)).map { ProbeTarget(base: $0).isLoopback } ?? false)
        let diagnostics = context.diagnostics
        let watcher: PathWatcher? = remote
            ? PathWatcher(monitor: context.network.monitor(trace: context.trace), clock: context.io.clock, onChange: { event in
                diagnostics.notice(TerminalText(sanitizing: PathWatcher.describe(event)))
            }) : nil
        watcher?.start()
        defer { watcher?.stop() }
        let timeout = self.timeout
        let pacer = ScanPacer(perSecond: rate, clock: context.io.clock, holdForPath: watcher.map { watcher in
            { @Sendable in
                guard !watcher.isSatisfied else { return false }
                _ = await watcher.waitUntilSatisfied(timeout: timeout)
                return true
            }
        })
        let productSource = try context.source(.list([kind]), timeout: timeout, beforeRequest: pacer.beforeRequest)
        var scan: RankScan.Outcome?
        for try await event in RankScan.events(query, source: productSource, pacer: pacer) {
            progress(event)
            if case .finished(let outcome) = event { scan = outcome }
        }
        guard let scan else { throw CancellationError() }
        let memory = ListingMemory(context: context)
        memory.remember("rank \(query.keyword)", rows: scan.matches.map { LastListing.Row(row: String($0.rank), product: $0.product) }, query: nil)
        return Outcome(scan: scan, liked: memory.likedIDs(among: scan.matches.map(\.product.productId)))
    }

    /// The one source whose order is scanned: a rank is a place in one source's listing. A
    /// namespaced --product (`11st:…`, `coupang:…`) names its source when --source does not;
    /// otherwise the sources `--source` and the keys give, which must be one.
    func rankedSource(_ context: Context) throws -> SourceKind {
        let named = query.productID.flatMap(ProductID.namespace(of:))
        if source == nil, let named { return named }
        let (kinds, fellBack) = try context.sourceKinds(source)
        guard kinds.count == 1 else {
            throw UsageError("rank scans one source's order, and \(kinds.map(\.rawValue).joined(separator: ", ")) are \(source == nil ? "set up" : "named")",
                             hint: "choose one with --source (e.g. --source \(kinds[0].rawValue))")
        }
        if let named, named != kinds[0] {
            throw UsageError("\(Sanitizer.clean(query.productID ?? "")) is a \(named.displayName) product, and the scan would read \(kinds[0].displayName)'s order",
                             hint: "rank it with --source \(named.rawValue)")
        }
        if fellBack {
            context.diagnostics.notice(TerminalText(sanitizing: CatalogSource.notice(environment: context.io.environment)), wraps: true)
        }
        return kinds[0]
    }

    public var presenter: RankPresenter {
        RankPresenter(query: query, format: format)
    }
}
