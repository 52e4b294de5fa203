import ShopYBase

/// catalog.index as `doctor` sees it beside catalog.json: compared byte for byte with the index
/// the records give, and built again on request.
extension LocalCatalog {
    public enum IndexState: Equatable, Sendable {
        /// There is no catalog.index (built at the next search).
        case missing
        /// Of another commit (a crash between the renames, a copy): built at the next search.
        case stale
        /// Damaged, or not listing catalog.json's items as they are: what is wrong.
        case mismatched(String)
        /// The index the records give: its number of keys.
        case ok(keys: Int)
    }

    /// The state of catalog.index against `contents`, catalog.json as `load` decoded it.
    public func indexState(for contents: Contents) -> IndexState {
        let opened = Result { () throws(StoreError) -> (CatalogIndex?, MappedBytes?) in
            (try CatalogIndex.map(path: indexPath), try mapItems())
        }
        switch opened {
        case .failure(.damaged(_, let problem)): return .mismatched(problem)
        case .failure(let error): return .mismatched(error.message)
        case .success((nil, _)), .success((_, nil)): return .missing
        case .success((let index?, let items?)):
            guard belongs(index, to: items) else { return .stale }
            let expected = encode(contents.records, generation: contents.generation).index
            guard index.count == contents.records.count, expected.elementsEqual(index.base) else {
                return .mismatched("it does not list catalog.json's items as they are")
            }
            return .ok(keys: index.layout.keyCount)
        }
    }

    /// Writes catalog.json and catalog.index again from the records, under the lock.
    public func rebuildIndex() throws(StoreError) {
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        let contents = try load()
        try write(contents.records, after: contents.generation)
    }
}
