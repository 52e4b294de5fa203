import ShopYCore
import ShopYBase
import ShopYCatalog

/// `shopy popular`'s sections in table, TSV, CSV, JSON or JSONL. A failed section shows its
/// error in place (stderr for TSV and CSV); the exit code is non-zero only when every section
/// failed, and then the first failure is the command's error.
public struct PopularPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ listing: PopularCommand.Listing, context: Context) -> ExitCode {
        let listed = Array(zip(listing.sections, listing.items))
        render(listed, context: context)
        reportEmpty(listed, source: listing.source, context: context)
        let failures = listing.sections.compactMap(\.error)
        if !failures.isEmpty && failures.count == listing.sections.count {
            // Nothing to show: the first failure as the command's error, with its hint.
            return ShopY.report(failures[0], io: context.io)
        }
        return .ok
    }

    typealias Listed = [(PopularSections.Section, [ListedItem])]

    func errorJSON(_ error: Error) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("message", .string((error as? ShopyError)?.message ?? "\(error)"))
        o.appendUnchecked("hint", .string(orNull: (error as? ShopyError)?.hint))
        o.appendUnchecked("exitCode", .int(ExitCode(for: error).rawValue))
        return .object(o)
    }

    func render(_ listed: Listed, context: Context) {
        let io = context.io
        let format = self.format.resolved(for: io)
        switch format {
        case .json:
            var sections: [JSONValue] = []
            for (section, items) in listed {
                var o = JSONObject()
                o.appendUnchecked("keyword", .string(section.keyword))
                switch section.result {
                case .success(let page):
                    o.appendUnchecked("total", .int(page.total))
                    o.appendUnchecked("items", .array(items.map(ItemJSON.object)))
                case .failure(let error):
                    o.appendUnchecked("error", errorJSON(error))
                }
                sections.append(.object(o))
            }
            var root = JSONObject(["sections": .array(sections)])
            if SourceColumns.hasCoupang(listed.flatMap(\.1)) { root.appendUnchecked("disclosure", .string(CoupangSource.disclosure)) }
            io.writeJSON(.object(root))
        case .jsonl:
            var out: [UInt8] = []
            for (section, items) in listed {
                if let error = section.error {
                    out += JSONWriter.serialize(.object(JSONObject(["section": .string(section.keyword), "error": errorJSON(error)])))
                    out.append(0x0A)
                }
                for item in items {
                    var withSection = item
                    withSection.extra.append(("section", .string(section.keyword)))
                    out += JSONWriter.serialize(ItemJSON.object(withSection))
                    out.append(0x0A)
                }
            }
            io.stdout.write(bytes: out)
            noticeDisclosure(listed, context: context)
        case .tsv, .csv:
            let all = listed.flatMap(\.1)
            io.stdout.write(format == .csv ? Render.csv(all) : Render.tsv(all))
            // When every section failed, the command's error says it once.
            if !all.isEmpty || listed.contains(where: { $0.0.page != nil }) {
                reportFailures(listed, io: io)
            }
            noticeDisclosure(listed, context: context)
        case .table:
            // One table for every section, so that the columns line up across them; its header
            // once, at the top.
            let all = listed.flatMap(\.1)
            var lines = Render.table(all, columns: io.columns, color: io.useColor)[...]
            if let header = lines.popFirst() { io.stdout.line(header) }
            for (index, (section, items)) in listed.enumerated() {
                if index > 0 { io.stdout.line() }
                let title = "\(index + 1). \(Sanitizer.clean(section.keyword))"
                switch section.result {
                case .success(let page):
                    let heading = title + "  ·  \(Money.grouped(page.total)) result\(page.total == 1 ? "" : "s")"
                    io.stdout.line(Style.bold.apply(DisplayWidth.truncate(heading, toWidth: io.columns), enabled: io.useColor))
                    if items.isEmpty { io.stdout.line("   no results") }
                    for line in lines.prefix(items.count) { io.stdout.line(line) }
                    lines = lines.dropFirst(items.count)
                case .failure(let error):
                    io.stdout.line(Style.bold.apply(DisplayWidth.truncate(title, toWidth: io.columns), enabled: io.useColor))
                    let message = (error as? ShopyError)?.message ?? "\(error)"
                    io.stdout.line(Style.red.apply(DisplayWidth.truncate("   failed: " + Sanitizer.clean(message), toWidth: io.columns), enabled: io.useColor))
                }
            }
            if SourceColumns.hasCoupang(all) {
                io.stdout.line()
                for line in SourceColumns.disclosureLines(columns: io.columns, color: io.useColor) { io.stdout.line(line) }
            }
        }
    }

    /// Sections without results: a table says it in place; other formats on stderr (a pipe
    /// would otherwise get nothing at all). On the catalog, what it holds, once.
    func reportEmpty(_ listed: Listed, source: SourceKind, context: Context) {
        let io = context.io
        let empty = listed.filter { section, items in items.isEmpty && section.page?.total == 0 }
        guard !empty.isEmpty else { return }
        let table = format.resolved(for: io) == .table
        if !table {
            for (section, _) in empty { io.stderr.line("shopy: no results for section '\(Sanitizer.clean(section.keyword))'" + (source == .catalog ? " in the offline catalog" : "")) }
        }
        guard source == .catalog else { return }
        if table {
            io.stdout.line()
            NoResultsHelp.table(context.catalog(), io: io)
        } else {
            NoResultsHelp.hints(context.catalog(), context: context)
        }
    }

    /// Data on stdout stays data (TSV, CSV, JSONL): Coupang's disclosure goes beside it, on
    /// stderr, as search's does.
    func noticeDisclosure(_ listed: Listed, context: Context) {
        if SourceColumns.hasCoupang(listed.flatMap(\.1)) { context.diagnostics.notice(TerminalText(sanitizing: CoupangSource.disclosure)) }
    }

    /// TSV and CSV carry items only: a failed section is reported on stderr.
    func reportFailures(_ listed: Listed, io: IO) {
        for (section, _) in listed {
            if let error = section.error {
                let message = (error as? ShopyError)?.message ?? "\(error)"
                io.stderr.line("shopy: section '\(Sanitizer.clean(section.keyword))' failed: \(Sanitizer.clean(message))")
            }
        }
    }
}
