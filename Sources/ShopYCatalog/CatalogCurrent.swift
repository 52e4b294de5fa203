import ShopYBase

extension Catalog {
    /// The embedded items plus the local catalog in SHOPY_HOME (its records replace embedded
    /// ones with the same productId). A damaged local catalog is an error, never skipped quietly;
    /// a damaged index is built again from catalog.json, at once or when a search finds the
    /// damage (`page`), and `notice` is told so.
    public static func current(environment: [String: String], notice: @escaping @Sendable (String) -> Void = { _ in }) throws(StoreError) -> Catalog {
        let local = LocalCatalog(environment: environment)
        guard let part = try local.part(notice: notice) else { return .embedded }
        return Catalog(parts: Catalog.embedded.parts + [part]) { damage throws(StoreError) in
            guard let rebuilt = try local.repairedPart(because: damage, notice: notice) else { return .embedded }
            return Catalog(parts: Catalog.embedded.parts + [rebuilt])
        }
    }
}
