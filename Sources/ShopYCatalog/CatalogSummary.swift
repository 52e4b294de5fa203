import ShopYBase

/// What the offline catalog holds, for the help a search with no results prints.
extension Catalog {
    /// The second-level categories with their item counts, largest first, over the parts of at
    /// most `limit` items (each is decoded to count it: a million-item local catalog would take
    /// seconds, so its items are left out and counted in `uncounted`).
    public func categoryCounts(ofPartsUpTo limit: Int = .max) -> (counts: [(name: String, count: Int)], uncounted: Int) {
        var counts: [String: Int] = [:]
        var uncounted = 0
        let hidden = self.hidden
        for (p, part) in parts.enumerated() {
            guard part.index.count <= limit else {
                uncounted += part.index.count - hidden[p].count
                continue
            }
            for (i, item) in part.items.enumerated() where !hidden[p].contains(i) {
                let name = item.category2.flatMap { $0.isEmpty ? nil : $0 } ?? item.category1.flatMap { $0.isEmpty ? nil : $0 } ?? "other"
                counts[name, default: 0] += 1
            }
        }
        let sorted = counts.map { ($0.key, $0.value) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return (sorted.map { (name: $0.0, count: $0.1) }, uncounted)
    }

    /// The second-level categories with their item counts, largest first (every item decoded).
    public func categoryCounts() -> [(name: String, count: Int)] { categoryCounts(ofPartsUpTo: .max).counts }
}

/// The help after "no results" on the offline catalog: what it holds and how to reach a real
/// server. It never decodes a large local catalog: a search that found nothing answers at once.
public enum NoResultsHelp {
    /// Parts larger than this are counted, not broken down by category.
    public static let categoriesCountedUpTo = 20_000

    public static func lines(for catalog: Catalog, shown: Int = 8) -> [String] {
        let (counts, uncounted) = catalog.categoryCounts(ofPartsUpTo: categoriesCountedUpTo)
        var holds = counts.prefix(shown).map { "\(Sanitizer.clean($0.name)) \(Money.grouped($0.count))" }.joined(separator: " · ")
        if counts.count > shown { holds += " · \(counts.count - shown) more" }
        if uncounted > 0 {
            holds += (holds.isEmpty ? "" : " · and ") + "\(Money.grouped(uncounted)) more in the local catalog (`shopy catalog` lists their categories)"
        }
        var what = ""
        if catalog.parts.first === Catalog.embedded.parts[0] {
            let embedded = catalog.parts[0].index.count - catalog.hidden[0].count
            what = catalog.parts.count == 1 ? " recorded in 2025" : " (\(Money.grouped(embedded)) recorded in 2025, the others in the local catalog)"
        }
        return [
            "the offline catalog holds \(Money.grouped(catalog.count)) items\(what): \(holds)",
            "for other products, point SHOPY_API_BASE at a server that speaks the Naver search contract and set NAVER_CLIENT_ID and NAVER_CLIENT_SECRET",
            "to try that locally: shopy-emulator --port 8080 & then SHOPY_API_BASE=http://127.0.0.1:8080 NAVER_CLIENT_ID=emulator-id NAVER_CLIENT_SECRET=emulator-secret shopy search QUERY",
        ]
    }
}
