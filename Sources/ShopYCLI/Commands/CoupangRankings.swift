import ShopYCore

/// `shopy popular --source coupang`: Coupang's best sellers by category (sections are category
/// ids or names), or today's deals with `--goldbox`; one request a section.
enum CoupangRankings {
    static func fetch(sections: [String], goldbox: Bool, size: Int, store: SettingsStore, source: CoupangSource,
                      context: Context) async throws -> (keywords: [String], pages: [PopularSections.Section]) {
        if goldbox {
            let pages = await PopularSections.fetch(["goldbox"]) { _ in try await source.goldbox(limit: size) }
            return (["goldbox"], pages)
        }
        let categories = try chosen(sections, store: store)
        let names = categories.map { "\($0.name) (\($0.id))" }
        let byName = Dictionary(uniqueKeysWithValues: zip(names, categories))
        let pages = await PopularSections.fetch(names) { name in
            let category = byName[name]!
            return try await source.bestSellers(category: category.id, name: name, limit: size)
        }
        return (names, pages)
    }

    /// The categories asked for; else the saved sections when each names a category; else
    /// `CoupangCategories.defaultSections`. An unknown one is a usage error listing them all.
    static func chosen(_ sections: [String], store: SettingsStore) throws -> [(id: Int, name: String)] {
        if !sections.isEmpty {
            var found: [(id: Int, name: String)] = []
            for section in sections {
                guard let category = CoupangCategories.category(section) else {
                    throw UsageError("'\(Echo.value(section))' is not a Coupang category; its categories are \(CoupangCategories.listing)",
                                     hint: "give an id (1016) or a name (가전디지털)")
                }
                if !found.contains(where: { $0.id == category.id }) { found.append(category) }
            }
            return found
        }
        let saved = (try? store.read { $0.popularSections }) ?? nil
        if let saved, !saved.isEmpty {
            let categories = saved.compactMap(CoupangCategories.category)
            if categories.count == saved.count { return categories }
        }
        return CoupangCategories.defaultSections.compactMap(CoupangCategories.category)
    }
}
