import Foundation
import ShopYCore

/// `shopy likes refresh [ROW|ID…]`
public struct LikesRefreshCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "refresh",
        abstract: "Find liked products again at the source and record their current prices.",
        discussion: "Each like is searched for by its cleaned title's first words (relevance order) down to --depth results, until its productId turns up. Per like: same, down, up (against the last known price, else the liked price), gone (not found within the depth) or error. Exit 0 unless some like got error, then that error's code. Ends with the alerts that fired ('shopy likes alert'). On the offline catalog prices never change: all are same.",
        arguments: [ArgumentSpec("target", help: "Rows of the last listing or productIds of likes (default: every like).", variadic: true, optional: true)],
        options: [
            OptionSpec("id", help: "Take every argument as a productId."),
            OptionSpec("depth", value: "n", help: "Search this many results a like, 1 to \(SearchRequest.maxRank) (default 100)."),
            OptionSpec("rate", value: "n", help: "At most this many requests a second, 0.1 to 100 (default 8)."),
            OptionSpec("notify", help: "Also send a desktop notification per fired alert (notify-send)."),
            OptionSpec("exec", value: "command", help: "Run this command per fired alert, the like as JSON on its stdin (split into words without a shell)."),
            CommonOptions.format, CommonOptions.json, CommonOptions.source, CommonOptions.requestTimeout,
        ],
        examples: ["shopy likes refresh", "shopy likes refresh 88159546540 --depth 300", "shopy likes refresh --json",
                   "shopy likes refresh --notify", "shopy likes refresh --exec 'mail -s price-drop me@example.com'"])

    public var targets: [LikeTarget]
    public var depth: Int
    public var rate: Double
    public var notify: Bool
    public var exec: [String]?
    public var format: OutputFormat?
    public var source: SourceKind?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let forceID = parsed.flag("id")
        var targets: [LikeTarget] = []
        for text in parsed.positionals { targets.append(try LikeTarget.parse(text, forceID: forceID)) }
        self.targets = targets
        depth = try parsed.value("depth").map { v throws(UsageError) in try ArgumentParser.integer(v, option: "depth", in: 1...SearchRequest.maxRank) } ?? 100
        rate = try parsed.value("rate").map { v throws(UsageError) in
            try ArgumentParser.decimal(v, option: "rate", in: RateLimiter.rates, unit: "requests a second")
        } ?? 8
        notify = parsed.flag("notify")
        exec = try parsed.value("exec").map { v throws(UsageError) in try LikeSelection.argv(v) }
        format = try CommonOptions.format(parsed)
        source = try CommonOptions.source(parsed)
        timeout = try CommonOptions.timeout(parsed)
    }

    /// What a refresh found, and the alerts that fired.
    public struct Refreshed: Sendable {
        public var results: [PriceRefresh.Result]
        public var fired: [PriceRefresh.Fired]
        public var source: SourceKind
        /// Requests that went to the server.
        public var requests: Int
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
        let pacer = ScanPacer(perSecond: rate)
        let productSource = try context.source(source, timeout: timeout, beforeRequest: pacer.beforeRequest)
        let count = likes.count
        progress(0, count)
        let (events, continuation) = AsyncStream<Int>.makeStream()
        let refresh = Task {
            defer { continuation.finish() }
            return await PriceRefresh.run(likes, book: book, source: productSource, depth: depth, progress: { done in continuation.yield(done) })
        }
        let results = await withTaskCancellationHandler {
            for await done in events { progress(done, count) }
            return await refresh.value
        } onCancel: {
            refresh.cancel()
        }
        let now = Like.timestamp(context.io.now())
        let fired = productSource.kind == .catalog ? [] : try store.update([.likes, .prices]) { settings in
            try PriceRefresh.apply(results, to: settings, at: now)
        }
        return Refreshed(results: results, fired: fired, source: productSource.kind, requests: pacer.sent)
    }

    public var presenter: PriceRefreshPresenter { PriceRefreshPresenter(format: format) }
}
