import ShopYCore
import ShopYBase
/// `shopy search <query…>`: one page of results.
public struct SearchCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "search",
        abstract: "Search products, one page at a time.",
        discussion: "Rows are numbered by absolute rank, so page 2 at size 20 starts at 21; 'shopy like 21' likes that row. Pages reach result 1,000 at most (the API's start limit; page 50 at size 20, page 10 at size 100); 'shopy rank' scans to rank 1,099. With several sources (--source 11st,coupang, or all) each is asked at once for --size items of --page: sim interleaves their orders, asc and dsc order every item by price, and a source that fails is named on stderr while the others are listed. A sort, page or filter one of them cannot do is refused before anything is sent: 11st has no date sort, Coupang lists page 1 only (10 items at most) and no date sort, and --naverpay and --exclude are Naver's.",
        arguments: [ArgumentSpec("query", help: "The words to search for. Every word must match.", variadic: true)],
        options: [sort.spec, page.spec, size.spec, naverPay.spec, exclude.spec] + formats.specs
            + [SharedOptions.source.spec, SharedOptions.timeout.spec],
        examples: [
            "shopy search 방충망",
            "shopy search 방충망 --sort asc --size 5",
            "shopy search 고양이 --page 2 --format json",
            "shopy search 세제 --exclude used,rental --naverpay",
            "shopy search 에어팟 --source 11st,coupang --sort asc",
        ])

    static let sort = Option.value("sort", value: "order", help: "sim (relevance, default), date (newest first), asc (price low to high) or dsc (price high to low).",
                                   type: ValueType<SortOrder>.choice(), default: .sim)
    static let page = Option.value("page", value: "n", help: "Page number, from 1 (default 1).", type: .integer(from: 1), default: 1)
    static let size = Option.value("size", value: "n", help: "Results a page, 1 to 100 (default 20).", type: .integer(1...SearchRequest.maxDisplay), default: 20)
    static let naverPay = Option.flag("naverpay", help: "Only items payable with Naver Pay.")
    static let exclude = Option.list("exclude", value: "kinds", help: "Leave out used, rental and/or cbshop (cross-border) items, comma-separated.",
                                     type: .string())
    static let formats = SharedOptions.listingFormats

    public var query: String
    public var sort: SortOrder
    public var page: Int
    public var size: Int
    public var naverPay: Bool
    public var exclude: Set<ExcludeKind>
    public var format: OutputFormat?
    public var source: SourceSelection?
    public var timeout: Double

    public var start: Int { (page - 1) * size + 1 }

    public var request: SearchRequest {
        SearchRequest(query: query, sort: sort, start: start, display: size, naverPayOnly: naverPay, exclude: exclude)
    }

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        query = parsed.positionals.joined(separator: " ").trimmingASCIIWhitespace()
        // The options first: a bad one (`--size=`) is named even when the query is missing too.
        sort = try Self.sort.read(parsed)
        size = try Self.size.read(parsed)
        page = try Self.page.read(parsed)
        naverPay = parsed[Self.naverPay]
        exclude = try SearchCommand.parseExclude(try Self.exclude.read(parsed))
        format = try Self.formats.read(parsed)
        source = try SharedOptions.source.read(parsed)
        timeout = try SharedOptions.timeout.read(parsed)
        if query.split(whereSeparator: { $0.isWhitespace }).isEmpty {
            throw UsageError("search needs a query", hint: "e.g. shopy search 방충망")
        }
        try QueryLimit.check(query, what: "the query")
        if page > SearchRequest.maxStart || start > SearchRequest.maxStart {
            let lastPage = (SearchRequest.maxStart - 1) / size + 1
            // (page − 1) · size is computed only where it cannot overflow.
            let where_ = page > SearchRequest.maxStart ? "" : " at result \(Money.grouped(start)),"
            throw UsageError("page \(page) at size \(size) starts\(where_) past the API's limit of \(Money.grouped(SearchRequest.maxStart))",
                             hint: "the last reachable page at size \(size) is \(lastPage)")
        }
    }

    static func parseExclude(_ values: [String]) throws(UsageError) -> Set<ExcludeKind> {
        var kinds = Set<ExcludeKind>()
        for value in values {
            // `--exclude ''` (an unset variable, say) is a mistake, not a request to exclude nothing.
            if value.split(whereSeparator: { $0 == "," || $0 == ":" || $0 == " " }).isEmpty {
                throw UsageError("--exclude is empty", hint: "give used, rental and/or cbshop, comma-separated")
            }
            for part in value.split(whereSeparator: { $0 == "," || $0 == ":" }) {
                let word = String(part).trimmingASCIIWhitespace()
                if word.isEmpty { continue }
                kinds.insert(try ArgumentParser.choice(word, option: "exclude", as: ExcludeKind.self, allowed: ExcludeKind.allCases))
            }
        }
        return kinds
    }

    /// Fetches the page, marks the liked items, and remembers the rows and the query.
    public func execute(_ context: Context) async throws -> Listing {
        let source = try context.source(self.source, timeout: timeout)
        // A sort, page or filter one of the sources cannot do: refused before anything is sent.
        try source.check(request)
        let page = try await source.search(request)
        SourceColumns.warn(page.failures, diagnostics: context.diagnostics)
        let memory = ListingMemory(context: context)
        let listing = Listing(page: page, liked: memory.likedIDs(among: page.items.map(\.productId)))
        var description = "search \(query)"
        if self.page > 1 || sort != .sim { description += " (page \(self.page), sort \(sort.rawValue))" }
        memory.remember(description, rows: listing.items.map { LastListing.Row(row: String($0.rank), product: $0.product) },
                        query: query)
        return listing
    }

    public var presenter: SearchPresenter { SearchPresenter(format: format, page: page, size: size) }

    /// The page with rank numbers.
    public struct Listing: Sendable {
        public var page: SearchPage
        public var items: [ListedItem]

        public init(page: SearchPage, liked: Set<String>? = nil) {
            self.page = page
            self.items = page.items.enumerated().map { i, product in
                ListedItem(rank: page.rank(of: i), product: product, liked: liked.map { $0.contains(product.productId) })
            }
        }

        public var json: JSONValue {
            var o = JSONObject()
            o.appendUnchecked("query", .string(page.query))
            o.appendUnchecked("sort", .string(page.sort.rawValue))
            o.appendUnchecked("source", .string(page.sources.map(\.rawValue).joined(separator: ",")))
            o.appendUnchecked("total", .int(page.total))
            o.appendUnchecked("start", .int(page.start))
            o.appendUnchecked("display", .int(page.display))
            o.appendUnchecked("items", .array(items.map(ItemJSON.object)))
            if page.sources.count > 1 { o.appendUnchecked("failures", SourceColumns.failuresJSON(page.failures)) }
            if SourceColumns.hasCoupang(items) { o.appendUnchecked("disclosure", .string(CoupangSource.disclosure)) }
            return .object(o)
        }
    }
}
