import ShopYBase

/// Finding one item by productId across the whole catalog (what `shopy like --id` and
/// `shopy open --id` need), without decoding or searching anything else.
extension Catalog {
    /// The item with this productId in these parts (a later part's record wins: the local
    /// catalog's over the embedded one), or nil.
    public func item(productId: String) -> WireItem? {
        for part in parts.reversed() {
            if let item = part.item(productId: productId) { return item }
        }
        return nil
    }

    /// The item with this productId: the local catalog's record when it has one (it replaces an
    /// embedded item with the same id, as in searches), else the embedded one; nil when neither
    /// holds it, or when the local catalog cannot be read (a damaged one is `doctor`'s to report).
    public static func item(productId: String, environment: [String: String]) -> WireItem? {
        if let local = try? LocalCatalog(environment: environment).part(), let item = local.item(productId: productId) {
            return item
        }
        return embedded.parts[0].item(productId: productId)
    }

    /// The number of items searches see (embedded plus local, a replaced embedded item counted
    /// once), without decoding any.
    public var count: Int {
        zip(parts, hidden).reduce(0) { $0 + $1.0.index.count - $1.1.count }
    }
}

extension CatalogPart {
    /// The last item of this part with the productId (the index's id table: one lookup).
    func item(productId: String) -> WireItem? {
        guard let ordinal = index.ordinals(ofId: Array(productId.utf8)).last else { return nil }
        return item(at: ordinal)
    }
}
