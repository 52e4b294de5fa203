import ShopYCore
import ShopYBase
/// `shopy trends categories [CATEGORY…]` and `shopy trends categories --list [WORD]`.
public struct TrendsCategoriesCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "categories",
        abstract: "Compare categories (default: the top-level ones), or --list the category table.",
        discussion: "A CATEGORY is a code (50000000), a top-level name (패션의류) or any part of a leaf path (러닝화, 남성신발/운동화/러닝화). More than 3 categories take several requests that share one anchor series, rescaled onto one scale (--verbose tells).",
        arguments: [ArgumentSpec("category", help: "Codes or names; with --list, at most one word to search for.", variadic: true, optional: true)],
        options: [listOption.spec] + TrendsOptions.specs,
        examples: ["shopy trends categories", "shopy trends categories 패션의류 패션잡화 --last 12m --unit month",
                   "shopy trends categories 50000003 --by age", "shopy trends categories --list 운동화"])

    static let listOption = Option.flag("list", help: "Search the built-in category table (offline, no keys): code and path of every match.")

    public var categories: [ShoppingCategory]
    public var explicit: Bool
    public var listWord: String?
    public var listing: Bool
    public var options: TrendsOptions

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        options = try TrendsOptions(parsed)
        listing = parsed[Self.listOption]
        if listing {
            guard parsed.positionals.count <= 1 else {
                throw UsageError("--list takes at most one word to search for", hint: "e.g. shopy trends categories --list 러닝화")
            }
            listWord = parsed.positionals.first
            categories = []
            explicit = false
            return
        }
        explicit = !parsed.positionals.isEmpty
        categories = explicit ? try TrendsSeriesList.categories(parsed.positionals) : CategoryTable.defaultTopLevel
        if options.by != nil && categories.count != 1 {
            throw UsageError("--by breaks down one category; \(explicit ? "\(categories.count) are given" : "give one")",
                             hint: "e.g. shopy trends categories 패션의류 --by \(options.by!.rawValue)")
        }
    }

    /// What `trends categories` gives: the matches of `--list`, or the comparison.
    public enum Outcome: Sendable {
        case matches(CategoryMatches)
        case comparison(TrendsResult)
    }

    /// `--list`: a search of the embedded table (offline, no keys); else the comparison.
    public func execute(_ context: Context) async throws -> Outcome {
        if listing { return .matches(CategoryMatches(word: listWord, categories: CategoryTable.embedded.list(listWord))) }
        return .comparison(try await TrendsCommand.compare({ range in
            TrendsComparison(kind: .categories, category: options.by == nil ? nil : categories[0], series: categories.map(TrendsComparison.Series.category),
                             range: range, filters: options.filters, by: options.by)
        }, options: options, context: context))
    }

    public var presenter: TrendsCategoriesPresenter { TrendsCategoriesPresenter(format: options.format) }
}

/// `shopy trends keywords KEYWORD… --category CATEGORY`.
public struct TrendsKeywordsCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "keywords",
        abstract: "Compare keywords inside one category.",
        discussion: "More than 5 keywords take several requests that share one anchor keyword, rescaled onto one scale (--verbose tells).",
        arguments: [ArgumentSpec("keyword", help: "The keywords to compare.", variadic: true)],
        options: [categoryOption.spec] + TrendsOptions.specs,
        examples: ["shopy trends keywords 원피스 청바지 --category 패션의류", "shopy trends keywords 러닝화 --category 50003854 --by gender"])

    /// A code, a top-level name or a part of a leaf path, looked up in the category table.
    static let categoryOption = Option.optional("category", value: "category", help: "The category the keywords are searched in (required): code or name.",
                                                type: ValueType<ShoppingCategory> { text, _ throws(UsageError) in try TrendsCommand.category(text) })

    public var keywords: [String]
    public var category: ShoppingCategory
    public var options: TrendsOptions

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let missing = UsageError("trends keywords needs --category: keywords are compared inside one category",
                                 hint: "e.g. shopy trends keywords 원피스 청바지 --category 패션의류")
        // Missing --category is said first; a bad one after the other options are checked.
        guard Self.categoryOption.isGiven(parsed) else { throw missing }
        options = try TrendsOptions(parsed)
        guard let category = try Self.categoryOption.read(parsed) else { throw missing }
        self.category = category
        keywords = try TrendsSeriesList.keywords(parsed.positionals)
        if options.by != nil && keywords.count != 1 {
            throw UsageError("--by breaks down one keyword; \(keywords.count) are given", hint: "e.g. shopy trends keywords \(keywords[0]) --category \(category.code) --by \(options.by!.rawValue)")
        }
    }

    public func execute(_ context: Context) async throws -> TrendsResult {
        try await TrendsCommand.compare({ range in
            TrendsComparison(kind: .keywords, category: category, series: keywords.map(TrendsComparison.Series.keyword),
                             range: range, filters: options.filters, by: options.by)
        }, options: options, context: context)
    }

    public var presenter: TrendsPresenter { TrendsPresenter(format: options.format) }
}

/// The series arguments, checked: known categories, sensible keywords, none twice, not too many.
enum TrendsSeriesList {
    static func categories(_ arguments: [String]) throws(UsageError) -> [ShoppingCategory] {
        var out: [ShoppingCategory] = []
        for argument in arguments {
            let category = try TrendsCommand.category(argument)
            if out.contains(where: { $0.code == category.code }) {
                throw UsageError("category \(category.code) (\(Sanitizer.clean(category.pathText))) is given twice")
            }
            out.append(category)
        }
        try checkCount(out.count, what: "categories")
        return out
    }

    static func keywords(_ arguments: [String]) throws(UsageError) -> [String] {
        var out: [String] = []
        for argument in arguments {
            let keyword = argument.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            guard !keyword.isEmpty else { throw UsageError("a keyword is empty") }
            guard keyword.count <= 100, !keyword.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw UsageError("keyword '\(Sanitizer.clean(String(keyword.prefix(40))))' is not a search keyword: at most 100 characters, no control characters")
            }
            if out.contains(keyword) { throw UsageError("keyword '\(Sanitizer.clean(keyword))' is given twice") }
            out.append(keyword)
        }
        guard !out.isEmpty else {
            throw UsageError("trends keywords needs at least one keyword", hint: "e.g. shopy trends keywords 원피스 청바지 --category 패션의류")
        }
        try checkCount(out.count, what: "keywords")
        return out
    }

    static func checkCount(_ count: Int, what: String) throws(UsageError) {
        guard count <= TrendsOptions.maxSeries else {
            throw UsageError("\(count) \(what) are more than one comparison takes (\(TrendsOptions.maxSeries))",
                             hint: "each request of \(what == "keywords" ? 5 : 3) is one of the 1,000 DataLab calls a day")
        }
    }
}
