extension Catalog {
    /// The embedded items plus the local catalog in SHOPY_HOME (its records replace embedded
    /// ones with the same productId). A damaged local catalog is an error, never skipped quietly.
    public static func current(environment: [String: String]) throws(StoreError) -> Catalog {
        guard let local = try LocalCatalog(environment: environment).part() else { return .embedded }
        return Catalog(parts: Catalog.embedded.parts + [local])
    }
}
