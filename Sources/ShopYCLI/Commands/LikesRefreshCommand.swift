import Foundation
import ShopYCore

/// `shopy likes refresh [ROW|ID…]`
public struct LikesRefreshCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
        let store = LikeSupport.store(context)
        let (likes, book): ([Like], PriceBook) = try store.read { settings in
            let all = settings.likes
            let chosen = targets.isEmpty ? try settings.allLikes() : try LikeSelection.resolve(targets, likes: all, listing: settings.lastListing)
            return (chosen, settings.prices)
        }
        let limiter = RateLimiter(perSecond: rate)
        let sent = RequestCounter()
        let productSource = try context.source(source, timeout: timeout, beforeRequest: {
            await limiter.acquire()
            if !Task.isCancelled { sent.add() }
        })
        let progress = RankCommand.Progress(context: context, total: likes.count, keyword: "likes")
        let results = await PriceRefresh.run(likes, book: book, source: productSource, depth: depth,
                                             progress: { done in progress.update(scanned: done) })
        progress.finish()
        let now = Like.timestamp(context.io.now())
        let fired = productSource.kind == .catalog ? [] : try store.update([.likes, .prices]) { settings in
            try PriceRefresh.apply(results, to: settings, at: now)
        }
        PriceReport.render(results, fired: fired, catalog: productSource.kind == .catalog,
                           requests: sent.count, format: format.resolved(for: context.io), io: context.io)
        PriceReport.deliver(fired, notify: notify, exec: exec, io: context.io)
        return PriceReport.exitCode(results)
    }
}
