import ShopYCore
import ShopYBase
/// `shopy popular`: the app's "실시간 랭킹": a few keywords, each ranked by relevance, fetched at once.
public struct PopularCommand: ResultCommand {
    /// The app's sections.
    public static var naverSections: [String] { PopularDefaults.shopy.naver }
    /// Keywords the offline catalog covers well (it holds household and pet goods, not shoes).
    public static var catalogSections: [String] { PopularDefaults.shopy.catalog }

    public static let spec = CommandSpec(
        name: "popular",
        abstract: "Show the popular rankings: a few keywords, each ranked by relevance.",
        discussion: "Sections are fetched concurrently; a section that fails shows its error in place and the others still print (the exit code is non-zero only when every section failed). Rows are numbered SECTION.RANK (2.3 is the third item of the second section): 'shopy like 2.3' likes it. Default sections: \(naverSections.joined(separator: ", ")) on Naver, \(catalogSections.joined(separator: ", ")) on the offline catalog, unless saved with --save. With --source coupang alone, the sections are Coupang's best sellers by category, given by id or name (\(CoupangCategories.listing); default \(CoupangCategories.defaultSections.joined(separator: ", "))), --size is each one's limit (1 to 100), and --goldbox shows today's deals instead.",
        options: [section.spec, size.spec, save.spec, reset.spec, goldbox.spec] + formats.specs + [SharedOptions.source.spec, SharedOptions.requestTimeout.spec],
        examples: ["shopy popular", "shopy popular --section 고양이 --section 강아지 --size 5",
                   "shopy popular -s 신발 -s 가방 --save", "shopy popular --json | jq '.sections[].keyword'",
                   "shopy popular --source coupang -s 가전디지털 -s 1029", "shopy popular --source coupang --goldbox"])

    static let section = Option.list("section", short: "s", value: "keyword",
                                     help: "A section's keyword; repeat for several. Default: the saved sections, else the built-in ones.",
                                     type: .string { text, option throws(UsageError) in
                                         let trimmed = text.trimmingASCIIWhitespace()
                                         guard !trimmed.split(whereSeparator: { $0.isWhitespace }).isEmpty else { throw UsageError("a --\(option) keyword is empty") }
                                         try QueryLimit.check(trimmed, what: "a --\(option) keyword")
                                     })
    static let size = Option.value("size", value: "n", help: "Items a section, 1 to 100 (default 10).", type: .integer(1...SearchRequest.maxDisplay), default: 10)
    static let save = Option.flag("save", help: "Save the --section keywords as the default sections.")
    static let reset = Option.flag("reset", help: "Forget saved sections and use the built-in ones again.")
    static let goldbox = Option.flag("goldbox", help: "With --source coupang: today's deals (goldbox) instead of best sellers.")
    static let formats = SharedOptions.listingFormats

    public var sections: [String]
    public var size: Int
    public var save: Bool
    public var reset: Bool
    public var goldbox: Bool
    public var format: OutputFormat?
    public var source: SourceSelection?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("popular takes no arguments", hint: "give keywords with --section, e.g. shopy popular --section \(Sanitizer.clean(parsed.positionals[0]))")
        }
        var seen = Set<String>()
        sections = []
        for keyword in try Self.section.read(parsed) {
            let trimmed = keyword.trimmingASCIIWhitespace()
            if seen.insert(trimmed).inserted { sections.append(trimmed) }
        }
        size = try Self.size.read(parsed)
        save = parsed[Self.save]
        reset = parsed[Self.reset]
        if save && sections.isEmpty { throw UsageError("--save needs the sections to save", hint: "e.g. shopy popular --section 신발 --section 옷 --save") }
        if save && reset { throw UsageError("--save and --reset disagree; give one of them") }
        goldbox = parsed[Self.goldbox]
        if goldbox && !sections.isEmpty { throw UsageError("--goldbox shows today's deals, which have no sections", hint: "give --goldbox or --section, not both") }
        format = try Self.formats.read(parsed)
        source = try SharedOptions.source.read(parsed)
        timeout = try SharedOptions.requestTimeout.read(parsed)
    }

    /// The sections as listed: each section's outcome and its rows (`SECTION.RANK`).
    public struct Listing: Sendable {
        package var sections: [PopularSections.Section]
        /// Each section's items, in order (empty for a failed section).
        public var items: [[ListedItem]]
        public var source: SourceKind
    }

    /// Saves or resets the default sections when asked, fetches the sections, marks the liked
    /// items and remembers the rows.
    public func execute(_ context: Context) async throws -> Listing {
        let store = context.store
        // Sections share the API's per-second limit (about 10): the same pacing as rank.
        let limiter = RateLimiter(perSecond: 8, clock: context.io.clock)
        let productSource = try context.source(source, timeout: timeout, beforeRequest: { await limiter.acquire() })
        if save || reset {
            try PopularDefaults.save(save ? sections : nil, store: store)
            // The keywords are argv: echoed cleaned, like everything foreign.
            context.diagnostics.notice(save ? "saved default sections: \(sections.joined(separator: ", "))" : "default sections reset to the built-in ones")
        }
        let keywords: [String]
        let pages: [PopularSections.Section]
        if productSource.kinds == [.coupang], let coupang = productSource as? CoupangSource {
            (keywords, pages) = try await CoupangRankings.fetch(sections: sections, goldbox: goldbox, size: size, store: store, source: coupang, context: context)
        } else {
            if goldbox { throw UsageError("--goldbox is Coupang's (today's deals)", hint: "give --source coupang") }
            keywords = PopularDefaults.shopy.keywords(requested: sections, store: store, source: productSource.kind, diagnostics: context.diagnostics)
            pages = await PopularSections.fetch(keywords, size: size, source: productSource)
        }

        let memory = ListingMemory(context: context)
        let liked = memory.likedIDs(among: pages.flatMap { $0.page?.items.map(\.productId) ?? [] })
        var items: [[ListedItem]] = []
        for (s, section) in pages.enumerated() {
            items.append((section.page?.items ?? []).enumerated().map { i, product in
                ListedItem(rank: i + 1, product: product, liked: liked.map { $0.contains(product.productId) }, row: "\(s + 1).\(i + 1)")
            })
        }
        memory.remember("popular " + keywords.joined(separator: ", "), rows: items.joined().map { LastListing.Row(row: $0.rowText, product: $0.product) }, query: nil)
        return Listing(sections: pages, items: items, source: productSource.kind)
    }

    public var presenter: PopularPresenter { PopularPresenter(format: format) }
}
