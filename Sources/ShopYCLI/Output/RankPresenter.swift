import ShopYCore
import ShopYBase
import ShopYCatalog

/// `shopy rank`'s outcome: each match with its web page and position, in table, TSV, CSV,
/// JSON or JSONL. A link is never cut. On the catalog with no results, what it holds.
public struct RankPresenter: Presenter {
    var query: RankQuery
    public var format: OutputFormat?

    private var keyword: String { query.keyword }
    private var productID: String? { query.productID }
    private var mall: String? { query.mall }
    private var title: String? { query.title }
    private var depth: Int { query.depth }

    public func present(_ outcome: RankCommand.Outcome, context: Context) -> ExitCode {
        render(outcome.scan, liked: outcome.liked, context: context, sent: outcome.scan.requests)
        if outcome.scan.total == 0 && outcome.scan.requests == nil {
            if format.resolved(for: context.io) == .table {
                NoResultsHelp.table(context.catalog(), io: context.io)
            } else {
                NoResultsHelp.hints(context.catalog(), context: context)
            }
        }
        return .ok
    }

    func describeMatchers() -> String {
        var parts: [String] = []
        if let productID { parts.append("product \(Sanitizer.clean(productID))") }
        if let mall { parts.append("mall '\(Sanitizer.clean(mall))'") }
        if let title { parts.append("title containing '\(Sanitizer.clean(title))'") }
        return parts.joined(separator: ", ")
    }

    /// `sent`: requests that went to the server; nil on the catalog, which sends none.
    func render(_ scan: RankScan.Outcome, liked: Set<String>?, context: Context, sent: Int? = nil) {
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
            let footer = query.all ? "\(scan.matches.count) match\(scan.matches.count == 1 ? "" : "es") in the top \(Money.grouped(reach))" : "first match in the top \(Money.grouped(reach))"
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
