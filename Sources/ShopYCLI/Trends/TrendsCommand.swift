import ShopYCore
/// `shopy trends`: relative click trends from Naver DataLab Shopping Insight.
public struct TrendsCommand: Command {
    public static let spec = CommandSpec(
        name: "trends",
        abstract: "Compare click trends of categories or keywords (Naver DataLab Shopping Insight).",
        discussion: "Values are relative: 100 is the largest value of the whole comparison. Needs DataLab keys: NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY (API HUB, preferred), or NAVER_CLIENT_ID and NAVER_CLIENT_SECRET (Developers Center, until 2027-06-30). 'shopy trends categories --list' searches the built-in category table offline.",
        examples: ["shopy trends categories", "shopy trends categories 패션의류 화장품/미용 --last 6m --unit month",
                   "shopy trends keywords 원피스 청바지 --category 패션의류", "shopy trends categories --list 러닝화"])

    public static var subcommands: [any Command.Type] { [TrendsCategoriesCommand.self, TrendsKeywordsCommand.self] }

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let names = Self.subcommands.map { $0.spec.name }
        if let first = parsed.positionals.first {
            let hint = Suggest.closest(to: first, among: names).map { "did you mean 'shopy trends \($0)'?" } ?? "subcommands: \(names.joined(separator: ", "))"
            throw UsageError("unknown subcommand 'trends \(Sanitizer.clean(first))'", hint: hint)
        }
        throw UsageError("trends needs a subcommand: categories or keywords", hint: "e.g. shopy trends categories; see 'shopy help trends'")
    }

    public func run(_ context: Context) async throws -> ExitCode { .usage }

    /// Looks up one CATEGORY argument: a code, a top-level name or a part of a leaf path.
    static func category(_ text: String) throws(UsageError) -> ShoppingCategory {
        if let top = CategoryTable.topLevelLookup(text) { return top }
        let shown = Sanitizer.clean(text)
        switch CategoryTable.embedded.lookup(text) {
        case .found(let category):
            return category
        case .ambiguous(let candidates):
            let listed = candidates.prefix(10).map { "\($0.code) \($0.pathText)" }.joined(separator: "; ")
            let more = candidates.count > 10 ? "; and \(candidates.count - 10) more" : ""
            throw UsageError("category '\(shown)' is ambiguous: \(candidates.count) categories match: \(listed)\(more)",
                             hint: "give the code, or more of the path (e.g. \(uniqueSuffix(candidates[0], among: candidates))); 'shopy trends categories --list \(shown)' lists them")
        case .unknown(let closest):
            let hint = closest.isEmpty ? "'shopy trends categories --list WORD' searches the category table"
                : "closest: " + closest.map { "\($0.code) \($0.pathText)" }.joined(separator: "; ")
            throw UsageError("unknown category '\(shown)'", hint: hint)
        }
    }

    /// The shortest end of `category`'s path that no other candidate shares (`남성신발/운동화/러닝화`).
    static func uniqueSuffix(_ category: ShoppingCategory, among candidates: [ShoppingCategory]) -> String {
        for length in 1...max(1, category.path.count) {
            let suffix = category.path.suffix(length)
            if !candidates.contains(where: { $0 != category && $0.path.suffix(length) == suffix }) {
                return suffix.joined(separator: "/")
            }
        }
        return category.code
    }

    /// Keys, base, the offline check, the comparison, the output. Nothing is sent before the
    /// range and every argument have been checked.
    static func run(_ comparison: (TrendsRange) throws(UsageError) -> TrendsComparison, options: TrendsOptions,
                    context: Context) async throws -> ExitCode {
        let io = context.io
        let range = try options.range(today: CalendarDate.todayInKorea(io.now()))
        let comparison = try comparison(range)
        guard let keys = DataLabKeys.from(environment: io.environment) else { throw DataLabError.missingKeys }
        let base = try keys.base(environment: io.environment)
        let target = ProbeTarget(base: base)
        if !target.isLoopback {
            let path = context.network.currentPath()
            context.trace("path: \(path.isSatisfied ? "satisfied via " + path.interfaceSummary : "unsatisfied: " + path.interfaceSummary)")
            guard path.isSatisfied else { throw NetworkError.offline("\(path.interfaceSummary); cannot reach \(target.host)") }
        }
        switch keys.scheme {
        case .apiHub:
            context.trace("DataLab: \(base.absoluteString) with API HUB keys (\(keys.variableNames))" +
                          (keys.bothSet ? "; NAVER_CLIENT_ID / NAVER_CLIENT_SECRET are set too but not used: Developers Center keys stop working on 2027-06-30" : ""))
        case .developers:
            context.trace("DataLab: \(base.absoluteString) with Developers Center keys (\(keys.variableNames)); they stop working on 2027-06-30: move to API HUB (NAVER_API_HUB_KEY_ID / NAVER_API_HUB_KEY)")
        }
        let client = DataLabClient(base: base, keys: keys, transport: context.transport ?? SystemTransport.shared, trace: context.trace)
        let result = try await TrendsFetcher(client: client, timeout: options.timeout, trace: context.trace).run(comparison)
        render(result, format: options.format.resolved(for: io), io: io)
        if !result.unplaced.isEmpty {
            io.stderr.line("shopy: cannot put \(result.unplaced.map { "'\(Sanitizer.clean($0.name))'" }.joined(separator: ", ")) on the common scale: no series shared with their answer had clicks; left out")
        }
        return .ok
    }

    static func render(_ result: TrendsResult, format: OutputFormat, io: IO) {
        switch format {
        case .json: io.writeJSON(TrendsOutput.json(result))
        case .jsonl: io.stdout.write(TrendsOutput.jsonl(result))
        case .tsv: io.stdout.write(TrendsOutput.tsv(result))
        case .csv: io.stdout.write(TrendsOutput.csv(result))
        case .table:
            for line in TrendsTable.lines(result, columns: io.columns, color: io.useColor) { io.stdout.line(line) }
            io.stdout.line(Style.dim.apply(DisplayWidth.truncate(Sanitizer.clean(TrendsTable.footer(result)), toWidth: io.columns), enabled: io.useColor))
        }
    }
}
