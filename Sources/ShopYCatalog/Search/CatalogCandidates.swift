import ShopYBase

/// The candidates of a search in one index: the ordinals whose postings hold every key, found
/// by walking the shortest list and seeking in the others. Only the postings are read here; the
/// records and texts are read when the candidates are verified (`CatalogMatcher`).
enum CatalogCandidates {
    /// The ordinals holding every key, ascending. A damaged index may list an ordinal out of
    /// order or past the items: such an ordinal is skipped (the search answers less), so every
    /// ordinal is below `index.count` and the run never goes backwards.
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
        var last = -1
        outer: for i in 0..<driver.count {
            let ordinal = driver[i]
            guard ordinal > last, ordinal < index.count else { continue }
            last = ordinal
            for l in lists.indices.dropFirst() {
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
