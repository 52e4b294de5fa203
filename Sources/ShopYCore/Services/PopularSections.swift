/// `popular` as work: each section's top items (`TopItems`), a few sections at once; one
/// section's failure is its own. Which sections: `PopularDefaults`.
import ShopYBase

package enum PopularSections {
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

    /// Fetches every section (at most four at once; the source paces the requests), in order.
    package static func fetch(_ keywords: [String], size: Int, source: any ProductSource) async -> [Section] {
        await fetch(keywords) { keyword in try await TopItems.fetch(keyword, count: size, from: source) }
    }

    /// Fetches every section with `page` (a section's items: a query's top, a category's best
    /// sellers), at most four at once, in order.
    package static func fetch(_ keywords: [String], page: @escaping @Sendable (String) async throws -> SearchPage) async -> [Section] {
        await withTaskGroup(of: (Int, Section).self) { group in
            func fetch(_ index: Int) {
                let keyword = keywords[index]
                group.addTask {
                    do {
                        let page = try await page(keyword)
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
