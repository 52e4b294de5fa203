/// Finds the product behind each target: rows and ids of the last listing first, then the
/// offline catalog for ids. Everything is resolved before anything changes.
package enum LikeResolution {
    /// Looks a productId up in the catalog a command sees (embedded plus local).
    package typealias CatalogLookup = @Sendable (String) -> WireItem?

    /// The embedded items only (callers with a context pass `context.catalogLookup`, which adds
    /// the local catalog).
    package static let embeddedOnly: CatalogLookup = { Catalog.embeddedItem(productId: $0) }

    /// Each target with its product; nil for an id that no listing or catalog holds (unliking
    /// needs no snapshot, liking does: the check is the caller's). `catalog` finds ids no
    /// listing shows (default: the embedded items only).
    /// `coupangCutoff`: the listing's Coupang rows are not used when it was saved before it
    /// (`CoupangSource.listingCutoff`: Coupang's terms allow an app to keep its data an hour).
    package static func resolve(_ targets: [LikeTarget], listing: LastListing?,
                                catalog: CatalogLookup = LikeResolution.embeddedOnly, coupangCutoff: String? = nil) throws(SelectionError) -> [(LikeTarget, Product?)] {
        func checkAge(_ product: Product, _ listing: LastListing) throws(SelectionError) {
            guard let coupangCutoff, listing.savedAt < coupangCutoff, ProductID.namespace(of: product.productId) == .coupang else { return }
            throw SelectionError("\(Sanitizer.clean(product.productId)) is a Coupang result listed over an hour ago, and Coupang's terms let shopy keep its data for an hour",
                                 hint: "search again, then use its row")
        }
        var resolved: [(LikeTarget, Product?)] = []
        for target in targets {
            switch target {
            case .row(let row):
                guard let listing else {
                    throw SelectionError("there is no listing yet to take row \(row) from", hint: "run 'shopy search <query>' first, or give a productId with --id")
                }
                guard let found = listing.rows.first(where: { $0.row == row }) else {
                    let span = RowList.describe(listing.rows.map(\.row))
                    throw SelectionError("row \(row) is not in the last listing (\(Sanitizer.clean(listing.command)); \(span))")
                }
                try checkAge(found.product, listing)
                resolved.append((target, found.product))
            case .id(let id):
                if let listing, let row = listing.rows.first(where: { $0.product.productId == id }) {
                    try checkAge(row.product, listing)
                    resolved.append((target, row.product))
                } else if let item = catalog(id) {
                    resolved.append((target, ProductMapper.product(from: item)))
                } else {
                    resolved.append((target, nil))
                }
            }
        }
        return resolved
    }

    /// The likes that `likes refresh` and `likes alert` name, each of which must be liked.
    package static func likes(_ targets: [LikeTarget], likes: LikeCollection, listing: LastListing?) throws -> [Like] {
        var chosen: [Like] = []
        var seen = Set<String>()
        for (target, product) in try resolve(targets, listing: listing) {
            let id = product?.productId ?? target.text
            guard let like = try likes.like(id) else {
                throw SelectionError("'\(Sanitizer.clean(target.text))' is not liked", hint: "'shopy likes' lists the likes and their ids")
            }
            if seen.insert(id).inserted { chosen.append(like) }
        }
        return chosen
    }
}
