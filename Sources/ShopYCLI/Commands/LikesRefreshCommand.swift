import Foundation
import ShopYCore
import ShopYBase

/// `shopy likes refresh [ROW|ID…]`
public struct LikesRefreshCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "refresh",
        abstract: "Find liked products again at the source and record their current prices.",
        discussion: "Each like goes to its own source. A Naver like is searched for by its cleaned title's first words (relevance order) down to --depth results, until its productId turns up; an 11번가 like (11st:…) is looked up by its code (one ProductInfo request, no search); a Coupang like (coupang:…) is untracked, since Coupang's terms forbid keeping its data. Per like: same, down, up (against the last known price, else the liked price), gone (not found), untracked or error (also a like found without a usable price: nothing is recorded). Exit 0 unless some like got error, then that error's code. Ends with the alerts that fired ('shopy likes alert'). On the offline catalog prices never change: all are same. --source chooses where Naver's ids are searched (naver or catalog).",
        arguments: [ArgumentSpec("target", help: "Rows of the last listing or productIds of likes (default: every like).", variadic: true, optional: true)],
        options: [id.spec, depth.spec, rate.spec, notify.spec, exec.spec] + formats.specs + [SharedOptions.source.spec, SharedOptions.requestTimeout.spec],
        examples: ["shopy likes refresh", "shopy likes refresh 88159546540 --depth 300", "shopy likes refresh --json",
                   "shopy likes refresh --notify", "shopy likes refresh --exec 'mail -s price-drop me@example.com'"])

    static let id = LikeSupport.id.withHelp("Take every argument as a productId.")
    static let depth = Option.value("depth", value: "n", help: "Search this many results a like, 1 to \(SearchRequest.maxRank) (default 100).",
                                    type: .integer(1...SearchRequest.maxRank), default: 100)
    static let rate = SharedOptions.rate
    static let notify = Option.flag("notify", help: "Also send a desktop notification per fired alert (notify-send).")
    static let exec = Option.optional("exec", value: "command", help: "Run this command per fired alert, the like as JSON on its stdin (split into words without a shell).",
                                      type: ValueType<[String]> { text, _ throws(UsageError) in try LikeSelection.argv(text) })
    /// The report is lines (table) or one JSON document (json, or jsonl: one line).
    static let formats = FormatOptions(accepting: [OutputFormat.table, .json, .jsonl], notes: [.table: "default"])

    public var targets: [LikeTarget]
    public var depth: Int
    public var rate: Double
    public var notify: Bool
    public var exec: [String]?
    public var format: OutputFormat?
    public var source: SourceSelection?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.parse(parsed.positionals, forceID: parsed[Self.id])
        depth = try Self.depth.read(parsed)
        rate = try Self.rate.read(parsed)
        notify = parsed[Self.notify]
        exec = try Self.exec.read(parsed)
        format = try Self.formats.read(parsed)
        source = try SharedOptions.source.read(parsed)
        timeout = try SharedOptions.requestTimeout.read(parsed)
    }

    /// What a refresh found, and the alerts that fired.
    public struct Refreshed: Sendable {
        public var results: [PriceRefresh.Result]
        public var fired: [PriceRefresh.Fired]
        public var source: SourceKind
        /// Requests that went to the server.
        public var requests: Int
        /// The sources the likes were refreshed from: `source` when a bare id was among them (or
        /// no like was chosen), 11번가 for `11st:` ids (Coupang's likes ask nothing).
        public var sources: [SourceKind] = []
    }

    /// The bar on a terminal while it runs; then the report; then each fired alert delivered
    /// (`--notify`, `--exec`), after the report that lists them.
    public func run(_ context: Context) async throws -> ExitCode {
        var bar: ProgressBar?
        defer { bar?.finish() }
        let refreshed = try await execute(context) { done, total in
            if bar == nil { bar = ProgressBar(context: context, total: total, keyword: "likes") }
            bar?.update(scanned: done)
        }
        bar?.finish()
        let code = presenter.present(refreshed, context: context)
        AlertDelivery(environment: context.io.environment, launcher: context.io.launcher, diagnostics: context.diagnostics)
            .deliver(refreshed.fired, notify: notify, exec: exec)
        return code
    }

    public func execute(_ context: Context) async throws -> Refreshed {
        try await execute(context) { _, _ in }
    }

    /// Refreshes the chosen likes (paced by --rate), records the prices and fires the alerts.
    /// `progress` gets (likes done, likes in all) as each one ends.
    public func execute(_ context: Context, progress: @escaping (Int, Int) -> Void) async throws -> Refreshed {
        let store = LikeSupport.store(context)
        let (likes, book): ([Like], PriceBook) = try store.read { settings in
            let all = settings.likes
            let chosen = targets.isEmpty ? try settings.allLikes() : try LikeResolution.likes(targets, likes: all, listing: settings.lastListing)
            return (chosen, settings.prices)
        }
        let pacer = ScanPacer(perSecond: rate, clock: context.io.clock)
        // Bare ids (Naver's, the catalog's) go to naver or the catalog; 11st and coupang ids to
        // their own source, whatever --source lists besides.
        let kinds = try context.sourceKinds(source).kinds
        let bare: SourceKind = kinds.contains(.naver) ? .naver : .catalog
        let needsBare = likes.contains { ProductID.namespace(of: $0.product.productId) == nil }
        let productSource = try (needsBare || bare == .catalog ? context.source(.list([bare]), timeout: timeout, beforeRequest: pacer.beforeRequest)
                                                               : context.source(of: .catalog, timeout: timeout))
        let elevenStreet: Result<ElevenStreetSource, any Error>? = likes.contains { ProductID.namespace(of: $0.product.productId) == .elevenst }
            ? Result { try context.elevenStreetSource(timeout: timeout, beforeRequest: pacer.beforeRequest) } : nil
        let count = likes.count
        progress(0, count)
        let (events, continuation) = AsyncStream<Int>.makeStream()
        let refresh = Task {
            defer { continuation.finish() }
            return await PriceRefresh.run(likes, book: book, source: productSource, depth: depth, elevenStreet: elevenStreet,
                                          progress: { done in continuation.yield(done) })
        }
        let results = await withTaskCancellationHandler {
            for await done in events { progress(done, count) }
            return await refresh.value
        } onCancel: {
            refresh.cancel()
        }
        let now = Like.timestamp(context.io.now())
        let fired = !results.contains(where: { $0.found != nil }) ? [] : try store.update([.likes, .prices]) { settings in
            try PriceRefresh.apply(results, to: settings, at: now)
        }
        // No likes at all: the source bare ids would go to (what --source and the config chose).
        let sources = (needsBare || likes.isEmpty ? [bare] : []) + (elevenStreet == nil ? [] : [SourceKind.elevenst])
        return Refreshed(results: results, fired: fired, source: bare, requests: pacer.sent, sources: sources)
    }

    public var presenter: PriceRefreshPresenter { PriceRefreshPresenter(format: format) }
}
