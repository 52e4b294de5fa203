import ShopYCore
import ShopYBase
/// `shopy trends`: relative click trends from Naver DataLab Shopping Insight.
public struct TrendsCommand: Command {
    public static let spec = CommandSpec(
        name: "trends",
        abstract: "Compare click trends of categories or keywords (Naver DataLab Shopping Insight).",
        discussion: "Values are relative: 100 is the largest value of the whole comparison. Needs DataLab keys: NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY (API HUB, preferred), or NAVER_CLIENT_ID and NAVER_CLIENT_SECRET (Developers Center, until 2027-06-30). 'shopy trends categories --list' searches the built-in category table offline.",
        examples: ["shopy trends categories", "shopy trends categories 패션의류 화장품/미용 --last 6m --unit month",
                   "shopy trends keywords 원피스 청바지 --category 패션의류", "shopy trends categories --list 러닝화"])

    public static var subcommands: [any Command.Type] { [TrendsCategoriesCommand.self, TrendsKeywordsCommand.self] }

    /// `shopy trends` alone. (A mistyped subcommand never gets here: the dispatcher refuses it,
    /// with did-you-mean.)
    public init(_ parsed: ParsedArguments) throws(UsageError) {
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

    /// The comparison built by `make` for the range of today (in Korea), run by the shared
    /// service. Nothing is sent before the range and every argument have been checked.
    static func compare(_ make: (TrendsRange) -> TrendsComparison, options: TrendsOptions, context: Context) async throws -> TrendsResult {
        let range = try options.range(today: CalendarDate.todayInKorea(context.io.now()))
        return try await context.trends.compare(make(range), timeout: options.timeout)
    }
}

extension Context {
    /// The trends service on this context's environment, transport, network, tracer and diagnostics.
    package var trends: TrendsService {
        TrendsService(environment: io.environment, transport: transport, network: network, trace: trace, diagnostics: diagnostics)
    }
}
