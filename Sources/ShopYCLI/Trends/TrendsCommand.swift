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
            let entries = listed(candidates, named: text)
            let more = entries.count > 10 ? "; and \(entries.count - 10) more" : ""
            throw UsageError("category '\(shown)' is ambiguous: \(candidates.count) categories match: \(entries.prefix(10).joined(separator: "; "))\(more)",
                             hint: "give the code, or more of the path (e.g. \(Sanitizer.clean(uniqueSuffix(candidates[0])))); 'shopy trends categories --list \(shown)' lists them")
        case .unknown(let closest):
            let hint = closest.isEmpty ? "'shopy trends categories --list WORD' searches the category table"
                : "closest: " + closest.map { "\($0.code) \($0.pathText)" }.joined(separator: "; ")
            throw UsageError("unknown category '\(shown)'", hint: hint)
        }
    }

    /// The candidates as the error lists them: each leaf the name names (`50004198 출산/육아 >
    /// … > 운동화`), and the leaves under each branch of that name as the branch
    /// (`패션잡화 > 남성신발 > 운동화 (6 categories)`) when there is more than one place to
    /// choose from; the leaves themselves when the name is one branch.
    static func listed(_ candidates: [ShoppingCategory], named text: String) -> [String] {
        let table = CategoryTable.embedded
        var groups: [(branch: [String]?, leaves: [ShoppingCategory])] = []
        for candidate in candidates {
            let branch = table.branch(of: candidate, named: text)
            if let branch, let i = groups.firstIndex(where: { $0.branch == branch }) {
                groups[i].leaves.append(candidate)
            } else {
                groups.append((branch, [candidate]))
            }
        }
        return groups.flatMap { group -> [String] in
            if groups.count > 1, let branch = group.branch, group.leaves.count > 1 {
                return ["\(branch.joined(separator: " > ")) (\(group.leaves.count) categories)"]
            }
            return group.leaves.map { "\($0.code) \($0.pathText)" }
        }
    }

    /// The shortest end of `category`'s path that names it alone in the whole table
    /// (`신발/운동화`, `남성신발/운동화/러닝화`), else its code.
    static func uniqueSuffix(_ category: ShoppingCategory) -> String {
        for length in 1...max(1, category.path.count) {
            let suffix = category.path.suffix(length).joined(separator: "/")
            if CategoryTable.embedded.lookup(suffix) == .found(category) { return suffix }
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
    /// The trends service on this context's environment, transport, network, tracer, diagnostics and clock.
    package var trends: TrendsService {
        TrendsService(environment: io.environment, transport: transport, network: network, trace: trace, diagnostics: diagnostics,
                      clock: io.clock)
    }
}
