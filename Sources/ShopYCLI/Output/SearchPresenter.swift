import ShopYCore
import ShopYBase
import ShopYCatalog

/// `shopy search`'s page in table, TSV, CSV, JSON or JSONL.
public struct SearchPresenter: Presenter {
    public var format: OutputFormat?
    /// The page and size asked for (the "past the last page" line names them).
    public var page: Int
    public var size: Int

    public func present(_ listing: SearchCommand.Listing, context: Context) -> ExitCode {
        let io = context.io
        let format = self.format.resolved(for: io)
        let page = listing.page
        switch format {
        case .json:
            io.writeJSON(listing.json)
            if listing.items.isEmpty && page.total == 0 && page.source == .catalog { NoResultsHelp.hints(context.catalog(), context: context) }
            return .ok
        case .jsonl, .tsv, .csv:
            io.stdout.write(Render.lines(listing.items, format: format) ?? "")
            // Data on stdout stays data: Coupang's disclosure goes beside it.
            if SourceColumns.hasCoupang(listing.items) { context.diagnostics.notice(TerminalText(sanitizing: CoupangSource.disclosure)) }
        case .table:
            if listing.items.isEmpty {
                io.stdout.line(emptyMessage(page))
                if page.total == 0 && page.source == .catalog { NoResultsHelp.table(context.catalog(), io: io) }
                return .ok
            }
            for line in Render.table(listing.items, columns: io.columns, color: io.useColor) { io.stdout.line(line) }
            io.stdout.line(Style.dim.apply(DisplayWidth.truncate(footer(page, count: listing.items.count), toWidth: io.columns), enabled: io.useColor))
            if SourceColumns.hasCoupang(listing.items) {
                for line in SourceColumns.disclosureLines(columns: io.columns, color: io.useColor) { io.stdout.line(line) }
            }
            return .ok
        }
        if listing.items.isEmpty {
            io.stderr.line("shopy: " + emptyMessage(page))
            if page.total == 0 && page.source == .catalog { NoResultsHelp.hints(context.catalog(), context: context) }
        }
        return .ok
    }

    func emptyMessage(_ page: SearchPage) -> String {
        let quoted = "'\(Sanitizer.clean(page.query))'"
        if page.total > 0 && page.start > page.total {
            let last = ListingArithmetic.lastPage(total: page.total, size: size)
            return "page \(self.page) is past the last result for \(quoted) (\(Money.grouped(page.total)) in all; the last page at size \(size) is \(last))"
        }
        return "no results for \(quoted)" + (page.source == .catalog ? " in the offline catalog" : "")
    }

    func footer(_ page: SearchPage, count: Int) -> String {
        let (first, last) = ListingArithmetic.range(start: page.start, count: count)
        var text = "\(Money.grouped(first))–\(Money.grouped(last)) of \(Money.grouped(page.total)) · sort \(page.sort.rawValue)"
        if page.source == .catalog && page.sources.count == 1 { text += " · offline catalog" }
        if page.sources.count > 1 { text += " · " + page.sources.map(\.rawValue).joined(separator: ", ") }
        return text
    }
}
