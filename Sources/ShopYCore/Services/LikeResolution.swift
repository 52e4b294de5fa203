import ShopYBase
import ShopYCatalog

/// Finds the product behind each target: rows and ids of the last listing first, then the
/// offline catalog for ids, then products looked up at their own source (`LikeLookup`: 11번가's
/// by code). Everything is resolved before anything changes.
package enum LikeResolution {
    /// Looks a productId up in the catalog a command sees (embedded plus local).
    package typealias CatalogLookup = @Sendable (String) -> WireItem?

    /// The embedded items only (callers with a context pass `context.catalogLookup`, which adds
    /// the local catalog).
    package static let embeddedOnly: CatalogLookup = { Catalog.embeddedItem(productId: $0) }

    /// Each target with its product; nil for an id that no listing or catalog holds (unliking
    /// needs no snapshot, liking does: the check is the caller's). `catalog` finds ids no
    /// listing shows (default: the embedded items only). A row of a likes listing is its like's
    /// product (from `likes`), or the snapshot kept when it was unliked since; when neither is
    /// there any more, it stands for its productId (`.id`), so that it is never taken for
    /// another product.
    /// `coupangCutoff`: the listing's Coupang rows are not used when it was saved before it
    /// (`CoupangSource.listingCutoff`: Coupang's terms allow an app to keep its data an hour): a
    /// row is refused, an id is as if not listed. `lookedUp`: products found by id at their
    /// source, for ids neither the listing nor the catalog holds.
    package static func resolve(_ targets: [LikeTarget], listing: LastListing?, likes: LikeCollection? = nil,
                                catalog: CatalogLookup = LikeResolution.embeddedOnly, coupangCutoff: String? = nil,
                                lookedUp: [String: Product] = [:]) throws(SelectionError) -> [(LikeTarget, Product?)] {
        func expired(_ product: Product, _ listing: LastListing) -> Bool {
            guard let coupangCutoff else { return false }
            return listing.savedAt < coupangCutoff && ProductID.namespace(of: product.productId) == .coupang
        }
        func checkAge(_ product: Product, _ listing: LastListing) throws(SelectionError) {
            guard expired(product, listing) else { return }
            throw SelectionError("\(Sanitizer.clean(product.productId)) is a Coupang result listed over an hour ago, and Coupang's terms let shopy keep its data for an hour",
                                 hint: "search again, then use its row")
        }
        var resolved: [(LikeTarget, Product?)] = []
        for target in targets {
            switch target {
            case .row(let row):
                guard let listing else {
                    throw SelectionError("there is no listing yet to take row \(row) from", hint: "run 'shopy search <query>' (or 'shopy likes') first, or give a productId with --id")
                }
                guard let found = listing.lookup(row) else {
                    throw SelectionError("row \(row) is not in the last listing (\(Sanitizer.clean(listing.command)); \(listing.rowSpan))")
                }
                if let product = found.product {
                    try checkAge(product, listing)
                    resolved.append((target, product))
                } else if let like = try? likes?.like(found.id) {
                    resolved.append((target, like.product))
                } else {
                    resolved.append((.id(found.id), catalog(found.id).map(ProductMapper.product(from:))))
                }
            case .id(let id):
                if let listing, let row = listing.rows.first(where: { $0.product.productId == id }), !expired(row.product, listing) {
                    resolved.append((target, row.product))
                } else if let item = catalog(id) {
                    resolved.append((target, ProductMapper.product(from: item)))
                } else {
                    resolved.append((target, lookedUp[id]))
                }
            }
        }
        return resolved
    }

    /// The error for a row of a likes listing that stands only for its productId now: its like
    /// is gone (unliked or cleared since, its snapshot not kept) and nothing else holds it.
    package static func goneRow(_ row: String, id: String, listing: LastListing?, nothing verb: String) -> SelectionError {
        let name = listing.map { " (\(Sanitizer.clean($0.command)))" } ?? ""
        return SelectionError("row \(Sanitizer.clean(row)) of the last listing\(name) was \(Sanitizer.clean(id)), which is no longer liked (unliked or cleared since); nothing was \(verb)",
                              hint: "'shopy likes clear' leaves a backup that 'shopy likes import FILE' restores; or search for the product and use its row")
    }

    /// The likes that `likes refresh` and `likes alert` name, each of which must be liked.
    package static func likes(_ targets: [LikeTarget], likes: LikeCollection, listing: LastListing?) throws -> [Like] {
        var chosen: [Like] = []
        var seen = Set<String>()
        for (given, (target, product)) in zip(targets, try resolve(targets, listing: listing, likes: likes)) {
            let id = product?.productId ?? target.text
            guard let like = try likes.like(id) else {
                if case .row(let row) = given, case .id = target { throw goneRow(row, id: id, listing: listing, nothing: "changed") }
                throw SelectionError("'\(Sanitizer.clean(target.text))' is not liked", hint: "'shopy likes' lists the likes and their ids")
            }
            if seen.insert(id).inserted { chosen.append(like) }
        }
        return chosen
    }
}
