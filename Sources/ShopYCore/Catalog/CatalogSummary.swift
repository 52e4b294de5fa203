/// What the offline catalog holds, for the help a search with no results prints.
extension Catalog {
    /// The second-level categories with their item counts, largest first.
    public func categoryCounts() -> [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for item in items {
            let name = item.category2.flatMap { $0.isEmpty ? nil : $0 } ?? item.category1.flatMap { $0.isEmpty ? nil : $0 } ?? "other"
            counts[name, default: 0] += 1
        }
        return counts.map { ($0.key, $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }
}

/// The help after "no results" on the offline catalog: what it holds and how to reach a real
/// server.
public enum NoResultsHelp {
    public static func lines(for catalog: Catalog, shown: Int = 8) -> [String] {
        let counts = catalog.categoryCounts()
        var holds = counts.prefix(shown).map { "\(Sanitizer.clean($0.name)) \(Money.grouped($0.count))" }.joined(separator: " · ")
        if counts.count > shown { holds += " · \(counts.count - shown) more" }
        return [
            "the offline catalog holds \(Money.grouped(catalog.items.count)) items recorded in 2025: \(holds)",
            "for other products, point SHOPY_API_BASE at a server that speaks the Naver search contract and set NAVER_CLIENT_ID and NAVER_CLIENT_SECRET",
            "to try that locally: shopy-emulator --port 8080 & then SHOPY_API_BASE=http://127.0.0.1:8080 NAVER_CLIENT_ID=emulator-id NAVER_CLIENT_SECRET=emulator-secret shopy search QUERY",
        ]
    }
}
