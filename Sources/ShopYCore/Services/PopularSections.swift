/// `popular` as work: the section keywords (asked for, saved, else the built-in ones for the
/// source), each searched by relevance, a few at once; one section's failure is its own.
package enum PopularSections {
    /// The app's sections.
    package static let naverSections = ["신발", "옷", "사무용품"]
    /// Keywords the offline catalog covers well (it holds household and pet goods, not shoes).
    package static let catalogSections = ["고양이", "세제", "방충망"]

    /// One section's outcome.
    package struct Section: Sendable {
        package var keyword: String
        package var result: Result<SearchPage, any Error>

        package init(keyword: String, result: Result<SearchPage, any Error>) {
            self.keyword = keyword
            self.result = result
        }

        package var page: SearchPage? { if case .success(let page) = result { return page } else { return nil } }
        package var error: (any Error)? { if case .failure(let error) = result { return error } else { return nil } }
    }

    /// Saves `sections` as the default ones, or forgets the saved ones (nil).
    package static func save(_ sections: [String]?, store: SettingsStore) throws {
        try store.update([.preferences]) { settings in settings.popularSections = sections }
    }

    /// The keywords to fetch: those asked for, else the saved ones, else the built-in ones for the
    /// source. A damaged preferences file falls back to the built-in ones, with a warning.
    package static func keywords(requested: [String], store: SettingsStore, source: SourceKind, diagnostics: any DiagnosticsSink) -> [String] {
        if !requested.isEmpty { return requested }
        var saved: [String]?
        do {
            saved = try store.read { $0.popularSections }
        } catch {
            ListingMemory(store: store, diagnostics: diagnostics, now: "").warn(error, "using the built-in sections")
        }
        return saved ?? (source == .catalog ? catalogSections : naverSections)
    }

    /// Fetches every section (at most four at once; the source paces the requests), in order.
    package static func fetch(_ keywords: [String], size: Int, source: any ProductSource) async -> [Section] {
        await withTaskGroup(of: (Int, Section).self) { group in
            func fetch(_ index: Int) {
                let keyword = keywords[index]
                group.addTask {
                    do {
                        let page = try await source.search(SearchRequest(query: keyword, sort: .sim, start: 1, display: size))
                        return (index, Section(keyword: keyword, result: .success(page)))
                    } catch {
                        return (index, Section(keyword: keyword, result: .failure(error)))
                    }
                }
            }
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
    }
}
