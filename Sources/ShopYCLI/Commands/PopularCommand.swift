import ShopYCore
/// `shopy popular`: the app's "실시간 랭킹": a few keywords, each ranked by relevance, fetched at once.
public struct PopularCommand: Command {
    /// The app's sections.
    public static let naverSections = ["신발", "옷", "사무용품"]
    /// Keywords the offline catalog covers well (it holds household and pet goods, not shoes).
    public static let catalogSections = ["고양이", "세제", "방충망"]

    public static let spec = CommandSpec(
        name: "popular",
        abstract: "Show the popular rankings: a few keywords, each ranked by relevance.",
        discussion: "Sections are fetched concurrently; a section that fails shows its error in place and the others still print (the exit code is non-zero only when every section failed). Rows are numbered SECTION.RANK (2.3 is the third item of the second section): 'shopy like 2.3' likes it. Default sections: \(naverSections.joined(separator: ", ")) on Naver, \(catalogSections.joined(separator: ", ")) on the offline catalog, unless saved with --save.",
        options: [
            OptionSpec("section", short: "s", value: "keyword", help: "A section's keyword; repeat for several. Default: the saved sections, else the built-in ones.", repeatable: true),
            OptionSpec("size", value: "n", help: "Items a section, 1 to 100 (default 10)."),
            OptionSpec("save", help: "Save the --section keywords as the default sections."),
            OptionSpec("reset", help: "Forget saved sections and use the built-in ones again."),
            CommonOptions.format, CommonOptions.json, CommonOptions.source, CommonOptions.requestTimeout,
        ],
        examples: ["shopy popular", "shopy popular --section 고양이 --section 강아지 --size 5",
                   "shopy popular -s 신발 -s 가방 --save", "shopy popular --json | jq '.sections[].keyword'"])

    public var sections: [String]
    public var size: Int
    public var save: Bool
    public var reset: Bool
    public var format: OutputFormat?
    public var source: SourceKind?
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("popular takes no arguments", hint: "give keywords with --section, e.g. shopy popular --section \(Sanitizer.clean(parsed.positionals[0]))")
        }
        var seen = Set<String>()
        sections = []
        for keyword in parsed.all("section") {
            let trimmed = keyword.trimmingASCIIWhitespace()
            guard !trimmed.split(whereSeparator: { $0.isWhitespace }).isEmpty else { throw UsageError("a --section keyword is empty") }
            try QueryLimit.check(trimmed, what: "a --section keyword")
            if seen.insert(trimmed).inserted { sections.append(trimmed) }
        }
        size = try parsed.value("size").map { v throws(UsageError) in try ArgumentParser.integer(v, option: "size", in: 1...SearchRequest.maxDisplay) } ?? 10
        save = parsed.flag("save")
        reset = parsed.flag("reset")
        if save && sections.isEmpty { throw UsageError("--save needs the sections to save", hint: "e.g. shopy popular --section 신발 --section 옷 --save") }
        if save && reset { throw UsageError("--save and --reset disagree; give one of them") }
        format = try CommonOptions.format(parsed)
        source = try CommonOptions.source(parsed)
        timeout = try CommonOptions.timeout(parsed)
    }

    /// One section's outcome.
    public struct Section: Sendable {
        public var keyword: String
        public var result: Result<SearchPage, ErrorBox>
    }

    /// Errors crossing task boundaries.
    public struct ErrorBox: Error, Sendable {
        public var error: any Error & Sendable
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let store = context.store
        // Sections share the API's per-second limit (about 10): same limiter as rank.
        let limiter = RateLimiter(perSecond: 8)
        let productSource = try context.source(source, timeout: timeout, beforeRequest: { await limiter.acquire() })
        if save || reset {
            try store.update([.preferences]) { settings in settings.popularSections = save ? sections : nil }
            // The keywords are argv: echoed cleaned, like everything foreign.
            context.io.notice(save ? "shopy: saved default sections: \(sections.joined(separator: ", "))" as TerminalText : "shopy: default sections reset to the built-in ones")
        }
        let keywords: [String]
        if !sections.isEmpty {
            keywords = sections
        } else {
            let saved: [String]?
            do {
                saved = try store.read { $0.popularSections }
            } catch {
                ListingMemory(context: context).warn(error, "using the built-in sections")
                saved = nil
            }
            keywords = saved ?? (productSource.kind == .catalog ? Self.catalogSections : Self.naverSections)
        }
        let size = self.size
        let pages: [Section] = await withTaskGroup(of: (Int, Section).self) { group in
            func fetch(_ index: Int) {
                let keyword = keywords[index]
                group.addTask {
                    do {
                        let page = try await productSource.search(SearchRequest(query: keyword, sort: .sim, start: 1, display: size))
                        return (index, Section(keyword: keyword, result: .success(page)))
                    } catch {
                        return (index, Section(keyword: keyword, result: .failure(ErrorBox(error: error as any Error & Sendable))))
                    }
                }
            }
            // At most four at once, all through the limiter.
            var next = 0
            while next < min(4, keywords.count) {
                fetch(next)
                next += 1
            }
            var sections = [Section?](repeating: nil, count: keywords.count)
            for await (index, section) in group {
                sections[index] = section
                if next < keywords.count {
                    fetch(next)
                    next += 1
                }
            }
            return sections.compactMap { $0 }
        }

        let memory = ListingMemory(context: context)
        let liked = memory.likedIDs(among: pages.flatMap { section -> [String] in
            if case .success(let page) = section.result { return page.items.map(\.productId) }
            return []
        })
        var listed: [(Section, [ListedItem])] = []
        var rows: [LastListing.Row] = []
        for (s, section) in pages.enumerated() {
            guard case .success(let page) = section.result else {
                listed.append((section, []))
                continue
            }
            let items = page.items.enumerated().map { i, product in
                ListedItem(rank: i + 1, product: product, liked: liked.map { $0.contains(product.productId) }, row: "\(s + 1).\(i + 1)")
            }
            rows += items.map { LastListing.Row(row: $0.rowText, product: $0.product) }
            listed.append((section, items))
        }
        memory.remember("popular " + keywords.joined(separator: ", "), rows: rows, query: nil)
        render(listed, context: context)
        reportEmpty(listed, source: productSource.kind, context: context)

        let failures = pages.compactMap { section -> Error? in
            if case .failure(let box) = section.result { return box.error }
            return nil
        }
        if !failures.isEmpty && failures.count == pages.count {
            // Nothing to show: the first failure as the command's error, with its hint.
            return ShopY.report(failures[0], io: context.io)
        }
        return .ok
    }

    func errorJSON(_ error: Error) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("message", .string((error as? ShopyError)?.message ?? "\(error)"))
        o.appendUnchecked("hint", .string(orNull: (error as? ShopyError)?.hint))
        o.appendUnchecked("exitCode", .int(ExitCode(for: error).rawValue))
        return .object(o)
    }

    func render(_ listed: [(Section, [ListedItem])], context: Context) {
        let io = context.io
        switch format.resolved(for: io) {
        case .json:
            var sections: [JSONValue] = []
            for (section, items) in listed {
                var o = JSONObject()
                o.appendUnchecked("keyword", .string(section.keyword))
                switch section.result {
                case .success(let page):
                    o.appendUnchecked("total", .int(page.total))
                    o.appendUnchecked("items", .array(items.map(ItemJSON.object)))
                case .failure(let box):
                    o.appendUnchecked("error", errorJSON(box.error))
                }
                sections.append(.object(o))
            }
            io.writeJSON(.object(JSONObject(["sections": .array(sections)])))
        case .jsonl:
            var out: [UInt8] = []
            for (section, items) in listed {
                if case .failure(let box) = section.result {
                    out += JSONWriter.serialize(.object(JSONObject(["section": .string(section.keyword), "error": errorJSON(box.error)])))
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
        case .tsv, .csv:
            let all = listed.flatMap(\.1)
            io.stdout.write((format ?? .tsv) == .csv ? Render.csv(all) : Render.tsv(all))
            // When every section failed, the command's error says it once.
            if !all.isEmpty || listed.contains(where: { if case .success = $0.0.result { return true } else { return false } }) {
                reportFailures(listed, io: io)
            }
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
                case .failure(let box):
                    io.stdout.line(Style.bold.apply(DisplayWidth.truncate(title, toWidth: io.columns), enabled: io.useColor))
                    let message = (box.error as? ShopyError)?.message ?? "\(box.error)"
                    io.stdout.line(Style.red.apply(DisplayWidth.truncate("   failed: " + Sanitizer.clean(message), toWidth: io.columns), enabled: io.useColor))
                }
            }
        }
    }

    /// Sections without results: a table says it in place; other formats on stderr (a pipe
    /// would otherwise get nothing at all). On the catalog, what it holds, once.
    func reportEmpty(_ listed: [(Section, [ListedItem])], source: SourceKind, context: Context) {
        let io = context.io
        let empty = listed.filter { section, items in
            if case .success(let page) = section.result { return items.isEmpty && page.total == 0 } else { return false }
        }
        guard !empty.isEmpty else { return }
        let table = (format.resolved(for: io)) == .table
        if !table {
            for (section, _) in empty { io.stderr.line("shopy: no results for section '\(Sanitizer.clean(section.keyword))'" + (source == .catalog ? " in the offline catalog" : "")) }
        }
        guard source == .catalog else { return }
        if table {
            io.stdout.line()
            NoResultsHelp.table(context.catalog(), io: io)
        } else {
            NoResultsHelp.hints(context.catalog(), io: io)
        }
    }

    /// TSV and CSV carry items only: a failed section is reported on stderr.
    func reportFailures(_ listed: [(Section, [ListedItem])], io: IO) {
        for (section, _) in listed {
            if case .failure(let box) = section.result {
                let message = (box.error as? ShopyError)?.message ?? "\(box.error)"
                io.stderr.line("shopy: section '\(Sanitizer.clean(section.keyword))' failed: \(Sanitizer.clean(message))")
            }
        }
    }
}
