/// The candidates of a search in one index: the ordinals whose postings hold every key, found
/// by walking the shortest list and seeking in the others. Only the postings are read here (in
/// order, a run of sequential loads); the records and texts are read when the candidates are
/// verified (`CatalogMatcher.verify`).
enum CatalogCandidates {
    /// The span of ordinals a search reads ahead of what it hands back: its records and texts
    /// are resident together, and the pages behind it are released (see `CatalogMatcher.verify`).
    static let window = 16_384

    /// The ordinals holding every key, in the order the shortest list gives them (ascending in a
    /// well-formed index). A damaged index may list an ordinal out of order or past the items:
    /// such an ordinal is skipped (the search answers less), so a run never goes backwards by
    /// more than a window, and every ordinal is below `index.count`.
    static func ordinals(_ index: CatalogIndex, keys: [[UInt64]]) -> [Int] {
        var lists: [CatalogIndex.Postings] = []
        for key in Set(keys.joined()) {
            let list = index.postings(key)
            if list.count == 0 { return [] }
            lists.append(list)
        }
        lists.sort { $0.count < $1.count }
        guard let driver = lists.first else { return [] }
        var cursors = [Int](repeating: 0, count: lists.count)
        var found: [Int] = []
        found.reserveCapacity(driver.count)
        var floor = 0, windowEnd = 0
        outer: for i in 0..<driver.count {
            let ordinal = driver[i]
            guard ordinal >= floor, ordinal < index.count else { continue }
            if ordinal >= windowEnd {
                floor = ordinal
                windowEnd = ordinal + window
            }
            for l in 1..<max(lists.count, 1) where l < lists.count {
                let at = lists[l].seek(ordinal, from: cursors[l])
                cursors[l] = at
                if at == lists[l].count { break outer }
                if lists[l][at] != ordinal { continue outer }
            }
            found.append(ordinal)
        }
        return found
    }
}
