import ShopYCore
import ShopYBase

/// A trends comparison in table, TSV, CSV, JSON or JSONL.
public struct TrendsPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ result: TrendsResult, context: Context) -> ExitCode {
        let io = context.io
        switch format.resolved(for: io) {
        case .json: io.writeJSON(TrendsOutput.json(result))
        case .jsonl: io.stdout.write(TrendsOutput.jsonl(result))
        case .tsv: io.stdout.write(TrendsOutput.tsv(result))
        case .csv: io.stdout.write(TrendsOutput.csv(result))
        case .table:
            for line in TrendsTable.lines(result, columns: io.columns, color: io.useColor) { io.stdout.line(line) }
            io.stdout.line(Style.dim.apply(DisplayWidth.truncate(Sanitizer.clean(TrendsTable.footer(result)), toWidth: io.columns), enabled: io.useColor))
        }
        return .ok
    }
}

/// What `trends categories --list [WORD]` found in the category table.
public struct CategoryMatches: Sendable {
    public var word: String?
    public var categories: [ShoppingCategory]
}

/// `trends categories`: the matches of `--list`, or the comparison.
public struct TrendsCategoriesPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ outcome: TrendsCategoriesCommand.Outcome, context: Context) -> ExitCode {
        switch outcome {
        case .comparison(let result): return TrendsPresenter(format: format).present(result, context: context)
        case .matches(let matches): return CategoryMatchesPresenter(format: format).present(matches, context: context)
        }
    }
}

/// The matches as `code<TAB>path` lines (table and TSV), CSV, a JSON array or JSON lines. No
/// match is not an error (exit 0): JSON is `[]`, JSON lines and TSV nothing, CSV its header; the
/// table says "no category matches 'WORD'" on stdout, the machine formats as a notice.
public struct CategoryMatchesPresenter: Presenter {
    public var format: OutputFormat?

    static func object(_ c: ShoppingCategory) -> JSONValue {
        .object(JSONObject(["code": .string(c.code), "path": .array(c.path.map(JSONValue.string))]))
    }

    public func present(_ matches: CategoryMatches, context: Context) -> ExitCode {
        let io = context.io
        let found = matches.categories
        let format = self.format.resolved(for: io)
        switch format {
        case .json:
            io.writeJSON(.array(found.map(Self.object)))
        case .jsonl:
            for c in found { io.stdout.write(bytes: JSONWriter.serialize(Self.object(c)) + [0x0A]) }
        case .csv:
            io.stdout.write("code,path\r\n" + found.map { "\($0.code),\(Render.csvField($0.pathText))\r\n" }.joined())
        case .tsv, .table:
            for c in found { io.stdout.line("\(c.code)\t\(c.pathText)") }
        }
        if found.isEmpty {
            let message: TerminalText = "no category matches '\(Echo.value(matches.word ?? ""))'"
            if format == .table { io.stdout.line(message.rendered) } else { context.diagnostics.notice(message) }
        }
        return .ok
    }
}
