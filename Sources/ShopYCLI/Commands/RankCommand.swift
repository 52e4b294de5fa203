import Foundation
import ShopYCore

/// `shopy rank <keyword>`: where does a product, or a store's products, rank for a keyword?
public struct RankCommand: Command {
    public static let spec = CommandSpec(
        name: "rank",
        abstract: "Find where a product or a store ranks for a keyword (relevance order).",
        discussion: "Scans the relevance-ordered results 100 at a time (start=1, 101, …, 901, then start=1000 for ranks 1,001–1,099) down to --depth, several pages at once but never faster than --rate requests a second. It stops as soon as the first match is certain, unless --all asks for every match. Every matcher given must hold: --product compares productIds, --mall whole mall names, --title a part of the cleaned title (case and spacing ignored). The web page and position are those of Naver's 40-per-page listing.",
        arguments: [ArgumentSpec("keyword", help: "The search keyword to rank for.", variadic: true)],
        options: [
            OptionSpec("product", value: "id", help: "Match this productId."),
            OptionSpec("mall", value: "name", help: "Match this mall (store) name, whole."),
            OptionSpec("title", value: "text", help: "Match titles containing this text."),
            OptionSpec("depth", value: "n", help: "Scan this many ranks, 1 to \(SearchRequest.maxRank) (default 1,000)."),
            OptionSpec("all", help: "List every match within the depth, not only the first."),
            OptionSpec("rate", value: "n", help: "At most this many requests a second, 0.1 to 100 (default 8; the API throttles at about 10)."),
            CommonOptions.format, CommonOptions.json, CommonOptions.source, CommonOptions.requestTimeout,
        ],
        examples: ["shopy rank 방충망 --mall 다샵", "shopy rank 고양이 --product 88159546540 --json",
                   "shopy rank 세제 --mall 티에스shop --title 세탁세제 --all --depth 500", "shopy rank 방충망 --title 자석 --mall 다샵"])

    public var keyword: String
    public var productID: String?
    public var mall: String?
    public var title: String?
    public var depth: Int
    public var all: Bool
    public var rate: Double
    public var format: OutputFormat?
    public var source: SourceKind?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        keyword = parsed.positionals.joined(separator: " ").trimmingASCIIWhitespace()
        if keyword.split(whereSeparator: { $0.isWhitespace }).isEmpty {
            throw UsageError("rank needs a keyword", hint: "e.g. shopy rank 방충망 --mall 다샵")
        }
        try QueryLimit.check(keyword, what: "the keyword")
        func nonEmpty(_ name: String) throws(UsageError) -> String? {
            guard let value = parsed.value(name) else { return nil }
            let trimmed = value.trimmingASCIIWhitespace()
            if trimmed.isEmpty { throw UsageError("--\(name) is empty") }
            return trimmed
        }
        productID = try nonEmpty("product")
        mall = try nonEmpty("mall")
        title = try nonEmpty("title")
        if productID == nil && mall == nil && title == nil {
            throw UsageError("rank needs something to look for", hint: "give --product ID, --mall NAME and/or --title TEXT")
        }
        depth = try parsed.value("depth").map { v throws(UsageError) in try ArgumentParser.integer(v, option: "depth", in: 1...SearchRequest.maxRank) } ?? 1000
        all = parsed.flag("all")
        rate = try parsed.value("rate").map { v throws(UsageError) in
            try ArgumentParser.decimal(v, option: "rate", in: RateLimiter.rates, unit: "requests a second")
        } ?? 8
        format = try CommonOptions.format(parsed)
        source = try CommonOptions.source(parsed)
        timeout = try CommonOptions.timeout(parsed)
    }

    /// The pages a scan to `depth` needs: (start, display, first rank it contributes).
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

    /// Case- and spacing-insensitive form for matching: lowercased, every space removed (`다 샵`
    /// matches `다샵`, `자석방충망` matches `자석 방충망`).
    static func normalize(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    func matches(_ product: Product) -> Bool {
        if let productID, product.productId != productID { return false }
        if let mall, Self.normalize(product.mall ?? "") != Self.normalize(mall) { return false }
        if let title, !Self.normalize(product.title).contains(Self.normalize(title)) { return false }
        return true
    }

    public struct Match: Sendable {
        public var rank: Int
        public var product: Product
        public var webPage: Int { ListingArithmetic.webPlace(rank: rank).page }
        public var webPosition: Int { ListingArithmetic.webPlace(rank: rank).position }
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let limiter = RateLimiter(perSecond: rate)
        // A scan takes a while: say when the network path drops or returns, and hold the next
        // request until it is back (up to --timeout) rather than fail page after page. Loopback
        // servers (the emulator) need no path.
        let remote = !((try? ProbeTarget.from(environment: context.io.environment))?.isLoopback ?? false)
        let watcher: PathWatcher? = remote && NaverCredentials.from(environment: context.io.environment) != nil && source != .catalog
            ? PathWatcher.announcing(to: context.io.stderr, monitor: context.network.monitor(trace: context.trace)) : nil
        watcher?.start()
        defer { watcher?.stop() }
        let timeout = self.timeout
        let sent = RequestCounter()
        let productSource = try context.source(source, timeout: timeout, beforeRequest: {
            await limiter.acquire()
            // Checked after the limiter's wait, so that requests queued there do not go out into
            // a path that dropped meanwhile; after a wait for the path, queue again.
            if let watcher, !watcher.isSatisfied {
                _ = await watcher.waitUntilSatisfied(timeout: timeout)
                await limiter.acquire()
            }
            if !Task.isCancelled { sent.add() }
        })
        let scan = try await Scan(command: self, source: productSource, context: context).run()
        let memory = ListingMemory(context: context)
        memory.remember("rank \(keyword)", rows: scan.matches.map { LastListing.Row(row: String($0.rank), product: $0.product) }, query: nil)
        render(scan, liked: memory.likedIDs(among: scan.matches.map(\.product.productId)), context: context, sent: productSource.kind == .catalog ? nil : sent.count)
        if scan.total == 0 && productSource.kind == .catalog {
            if (format.resolved(for: context.io)) == .table {
                NoResultsHelp.table(context.catalog(), io: context.io)
            } else {
                NoResultsHelp.hints(context.catalog(), io: context.io)
            }
        }
        return .ok
    }

    /// The scan's outcome.
    public struct Outcome: Sendable {
        public var matches: [Match]
        public var scannedTo: Int
        public var total: Int
        public var requests: Int
    }

    /// Fetches pages concurrently (at most a few in flight, all through the rate limiter) in rank
    /// order, and stops once the first match is certain: every page before it has arrived.
    struct Scan {
        let command: RankCommand
        let source: any ProductSource
        let context: Context

        func run() async throws -> Outcome {
            let pages = RankCommand.pages(depth: command.depth)
            let maxInFlight = 6
            var results = [SearchPage?](repeating: nil, count: pages.count)
            var total = Int.max
            var requests = 0
            var stopAt = pages.count  // no page at or after this index is needed
            let progress = Progress(context: context, total: command.depth, keyword: command.keyword)
            defer { progress.finish() }

            try await withThrowingTaskGroup(of: (Int, SearchPage).self) { group in
                var next = 0
                var inFlight = 0
                func launch() {
                    while inFlight < maxInFlight && next < stopAt && pages[next].start <= total {
                        let index = next
                        let page = pages[index]
                        let request = SearchRequest(query: command.keyword, sort: .sim, start: page.start, display: page.display)
                        group.addTask { (index, try await source.search(request)) }
                        next += 1
                        inFlight += 1
                        requests += 1
                    }
                }
                launch()
                while let (index, page) = try await group.next() {
                    inFlight -= 1
                    results[index] = page
                    total = min(total, page.total)
                    if !command.all {
                        // The first match is certain once every page up to the one holding it is in.
                        var i = 0
                        while i < stopAt, let done = results[i] {
                            if done.items.contains(where: command.matches) {
                                stopAt = i + 1
                                break
                            }
                            i += 1
                        }
                    }
                    progress.update(scanned: results.reduce(0) { $0 + ($1?.items.count ?? 0) })
                    let needed = (0..<stopAt).filter { pages[$0].start <= total }
                    if needed.allSatisfy({ results[$0] != nil }) {
                        group.cancelAll()
                        break
                    }
                    launch()
                }
            }

            var matches: [Match] = []
            var seen = Set<String>()
            var scannedTo = 0
            for (index, page) in results.enumerated() where index < stopAt {
                guard let page else { continue }
                for (i, product) in page.items.enumerated() {
                    // Answers are checked (`AnswerCheck`), and the sum saturates all the same.
                    let rank = ListingArithmetic.rank(start: page.start, index: i)
                    // The last page starts at 1000 and repeats that rank.
                    if rank <= scannedTo || rank > command.depth { continue }
                    scannedTo = rank
                    if command.matches(product) {
                        if command.all || matches.isEmpty {
                            if seen.insert("\(rank)").inserted { matches.append(Match(rank: rank, product: product)) }
                        }
                    }
                }
            }
            return Outcome(matches: matches, scannedTo: scannedTo, total: total == Int.max ? 0 : max(0, total), requests: requests)
        }
    }

    /// A progress bar on stderr, only when stderr is a terminal. A value: the bar's state is
    /// the sink's status line (kept under the sink's lock; clearing when none is shown does nothing).
    struct Progress: Sendable {
        let io: IO
        let total: Int
        let keyword: String
        let enabled: Bool

        init(context: Context, total: Int, keyword: String) {
            self.io = context.io
            self.total = total
            self.keyword = Sanitizer.clean(keyword)
            self.enabled = context.io.stderrIsTerminal && !context.io.quiet
        }

        func update(scanned: Int) {
            guard enabled else { return }
            io.stderr.showStatus(Self.line(keyword: keyword, scanned: scanned, total: total, columns: io.columns))
        }

        func finish() {
            guard enabled else { return }
            io.stderr.clearStatus()
        }

        /// `scanning 방충망 ████░░░░ 300/1,000`, within `columns − 1`: the count always shows;
        /// the bar shrinks first (24 cells down to 4, then none), then the keyword is cut, then
        /// "scanning" goes.
        static func line(keyword: String, scanned: Int, total: Int, columns: Int) -> String {
            let room = max(10, columns - 1)
            let count = "\(Money.grouped(min(scanned, total)))/\(Money.grouped(total))"
            let words = "scanning " + keyword
            func bar(_ width: Int) -> String {
                let done = min(width, scanned * width / max(1, total))
                return String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
            }
            let spare = room - DisplayWidth.of(words) - DisplayWidth.of(count) - 2
            if spare >= 4 { return words + " " + bar(min(24, spare)) + " " + count }
            let keywordRoom = room - DisplayWidth.of("scanning ") - DisplayWidth.of(count) - 1
            if keywordRoom >= 4 { return DisplayWidth.truncate(words, toWidth: DisplayWidth.of("scanning ") + keywordRoom) + " " + count }
            return DisplayWidth.truncate(count, toWidth: room)
        }
    }

    // MARK: Output

    func describeMatchers() -> String {
        var parts: [String] = []
        if let productID { parts.append("product \(Sanitizer.clean(productID))") }
        if let mall { parts.append("mall '\(Sanitizer.clean(mall))'") }
        if let title { parts.append("title containing '\(Sanitizer.clean(title))'") }
        return parts.joined(separator: ", ")
    }

    /// `sent`: requests that went to the server; nil on the catalog, which sends none.
    func render(_ scan: Outcome, liked: Set<String>?, context: Context, sent: Int? = nil) {
        let io = context.io
        let items = scan.matches.map { match in
            ListedItem(rank: match.rank, product: match.product, liked: liked.map { $0.contains(match.product.productId) },
                       extra: [("webPage", .int(match.webPage)), ("webPosition", .int(match.webPosition))])
        }
        let reach = ListingArithmetic.reach(depth: depth, total: scan.total)
        switch format.resolved(for: io) {
        case .json:
            var o = JSONObject()
            o.appendUnchecked("keyword", .string(keyword))
            var matchers = JSONObject()
            matchers.appendUnchecked("product", .string(orNull: productID))
            matchers.appendUnchecked("mall", .string(orNull: mall))
            matchers.appendUnchecked("title", .string(orNull: title))
            o.appendUnchecked("match", .object(matchers))
            o.appendUnchecked("depth", .int(depth))
            o.appendUnchecked("scanned", .int(scan.scannedTo))
            o.appendUnchecked("total", .int(scan.total))
            o.appendUnchecked("found", .bool(!items.isEmpty))
            o.appendUnchecked("matches", .array(items.map(ItemJSON.object)))
            io.writeJSON(.object(o))
        case .jsonl, .tsv, .csv:
            io.stdout.write(Render.lines(items, format: format.resolved(for: io)) ?? "")
        case .table:
            if items.isEmpty {
                io.stdout.line(absentMessage(reach: reach))
                return
            }
            // TerminalText: keyword, title, mall, id and link are all cleaned on the way in.
            for match in scan.matches {
                let heart: TerminalText = liked?.contains(match.product.productId) == true ? " ♥" : ""
                let line: TerminalText = "#\(match.rank) for '\(keyword)' · web page \(match.webPage), position \(match.webPosition)\(heart)"
                io.stdout.line(line.truncated(toWidth: io.columns).styled(.bold, enabled: io.useColor))
                let p = match.product
                let texts: [TerminalText] = ["\(p.title)", "\(Money.won(p.price)) · \(p.mall ?? "-") · \(p.productId)"]
                for text in texts where !text.isEmpty {
                    io.stdout.line(("  " + text).truncated(toWidth: io.columns))
                }
                // A link is never cut: on its own line, whole (a terminal wraps it; open and copy take it too).
                if let link = p.link.map(Sanitizer.clean), !link.isEmpty { io.stdout.line("  " + link) }
            }
            let footer = all ? "\(scan.matches.count) match\(scan.matches.count == 1 ? "" : "es") in the top \(Money.grouped(reach))" : "first match in the top \(Money.grouped(reach))"
            let requests = sent.map { " · \($0) request\($0 == 1 ? "" : "s") sent" } ?? " · offline catalog"
            io.stdout.line(Style.dim.apply(footer + requests, enabled: io.useColor))
        }
        if items.isEmpty && (format.resolved(for: io)) != .table && (format.resolved(for: io)) != .json {
            io.stderr.line("shopy: " + absentMessage(reach: reach))
        }
    }

    func absentMessage(reach: Int) -> String {
        if reach == 0 { return "no results for '\(Sanitizer.clean(keyword))'" }
        return "not in the top \(Money.grouped(reach)) for '\(Sanitizer.clean(keyword))' (\(describeMatchers()))"
    }
}
