/// `like` and `unlike` as work: one transaction on the likes that resolves every target first
/// (a bad one changes nothing), applies the step to each, and writes only when one changed.
/// The browse screen and the widget call the same.
import ShopYBase

public enum LikeChanges {
    /// What happened to one target.
    public struct Change: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            case liked, alreadyLiked = "already liked", unliked, notLiked = "not liked"
        }

        public var kind: Kind
        /// The productId acted on.
        public var id: String
        /// The product as liked or unliked, when known (an id no listing shows has none).
        public var product: Product?
        /// When it was liked (liked, or already liked with its snapshot at hand).
        public var likedAt: String?

        public init(kind: Kind, id: String, product: Product?, likedAt: String? = nil) {
            self.kind = kind
            self.id = id
            self.product = product
            self.likedAt = likedAt
        }

        public var changed: Bool { kind == .liked || kind == .unliked }
    }

    /// `lookedUp`: products found by id at their source (`LikeLookup`), for ids that neither
    /// the last listing nor the catalog holds.
    package static func like(_ targets: [LikeTarget], store: SettingsStore, at likedAt: String,
                            catalog: @escaping LikeResolution.CatalogLookup = LikeResolution.embeddedOnly,
                            lookedUp: [String: Product] = [:]) throws -> [Change] {
        let cutoff = CoupangSource.listingCutoff(likedAt: likedAt)
        return try change(store, resolve: { settings in
            let resolved = try LikeResolution.resolve(targets, listing: settings.lastListing, likes: settings.likes, catalog: catalog,
                                                      coupangCutoff: cutoff, lookedUp: lookedUp)
            // A row of a likes listing whose like is gone (unliked or cleared since, its snapshot
            // not kept) and that no catalog holds: said as the row it was, not as an unknown id.
            for (target, (resolvedTarget, product)) in zip(targets, resolved) where product == nil {
                if case .row(let row) = target, case .id(let id) = resolvedTarget, !settings.likes.contains(id) {
                    throw LikeResolution.goneRow(row, id: id, listing: settings.lastListing, nothing: "liked")
                }
            }
            return resolved
        }) { likes, target, product in
            guard let product else {
                if case .id(let id) = target, likes.contains(id) { return Change(kind: .alreadyLiked, id: id, product: nil) }
                if ProductID.usable(target.text) == nil {
                    throw SelectionError("'\(Sanitizer.clean(target.text))' is not a productId (a productId is \(ProductID.described)); nothing was liked")
                }
                if ProductID.namespace(of: target.text) == .coupang {
                    // Coupang has no look-up by id, and its terms let shopy keep a listing's rows an hour.
                    throw SelectionError("\(Sanitizer.clean(target.text)) is not in a listing of the last hour, and Coupang cannot look a product up by its id: search for it and like its row; nothing was liked")
                }
                throw SelectionError("product \(Sanitizer.clean(target.text)) is not in the last listing nor in the offline catalog",
                                     hint: "search for it first, then like its row")
            }
            return try add(product, as: target, to: &likes, at: likedAt)
        }
    }

    /// Likes products a front end shows (browse's rows, which need not be the last listing's):
    /// the same checks, the same transaction. An already liked one keeps its likedAt (in the change).
    package static func like(products: [Product], store: SettingsStore, at likedAt: String) throws -> [Change] {
        try change(store, resolve: { _ in products.map { (LikeTarget.id($0.productId), $0) } }) { likes, target, product in
            guard let product else { throw CancellationError() }  // never: every pair has its product
            var change = try add(product, as: target, to: &likes, at: likedAt)
            if change.kind == .alreadyLiked { change.likedAt = (try? likes.like(product.productId))?.likedAt }
            return change
        }
    }

    /// Adds one product's like, checked: a listing saved before ids were checked may hold one the
    /// store would call damage.
    static func add(_ product: Product, as target: LikeTarget, to likes: inout LikeCollection, at likedAt: String) throws(SelectionError) -> Change {
        guard ProductID.usable(product.productId) == product.productId else {
            throw SelectionError("\(target.text == product.productId ? "product" : "row \(Sanitizer.clean(target.text)) has") '\(Sanitizer.clean(product.productId))', which is not a usable productId; nothing was liked",
                                 hint: "search again: listings leave such items out")
        }
        // A Coupang like keeps only what the user chose to keep (Coupang's terms).
        let kept = ProductID.namespace(of: product.productId) == .coupang ? CoupangSource.kept(product) : product
        let added: Bool
        do {
            added = try likes.insert(Like(product: kept, likedAt: likedAt, likedPrice: product.price))
        } catch {
            // What the store would refuse to read back is not written (a source's bad value).
            throw SelectionError("\(target.text == product.productId ? "product \(Sanitizer.clean(product.productId))" : "row \(Sanitizer.clean(target.text))") cannot be liked: its snapshot \(Sanitizer.clean(error.problem)); nothing was liked",
                                 hint: "search again: listings leave such values out")
        }
        return Change(kind: added ? .liked : .alreadyLiked, id: product.productId, product: product, likedAt: added ? likedAt : nil)
    }

    package static func unlike(_ targets: [LikeTarget], store: SettingsStore,
                              catalog: @escaping LikeResolution.CatalogLookup = LikeResolution.embeddedOnly) throws -> [Change] {
        let changes = try change(store, also: [.state],
                                 resolve: { try LikeResolution.resolve(targets, listing: $0.lastListing, likes: $0.likes, catalog: catalog) }) { likes, target, product in
            // A row resolves to a product or to its id; an id may be one no listing shows.
            let id = product?.productId ?? target.text
            // Every like was checked when the file loaded, so the stored snapshot decodes.
            let snapshot = try? likes.like(id)
            if likes.remove(id) { return Change(kind: .unliked, id: id, product: snapshot?.product) }
            return Change(kind: .notLiked, id: id, product: product)
        } after: { settings, changes in
            keepUnlikedRows(changes, in: settings)
        }
        return changes
    }

    /// The rows of a likes listing stand for likes; when one is unliked, its snapshot is kept
    /// with the listing (in state.json, in the same transaction), so that its row still opens,
    /// copies and likes it again as printed.
    static func keepUnlikedRows(_ changes: [Change], in settings: Settings) {
        guard changes.contains(where: { $0.kind == .unliked }), var listing = settings.lastListing, let ids = listing.likedIDs else { return }
        var kept = false
        for change in changes where change.kind == .unliked {
            guard let product = change.product, let row = ids.row(of: change.id), !listing.rows.contains(where: { $0.row == String(row) }) else { continue }
            listing.rows.append(LastListing.Row(row: String(row), product: product))
            kept = true
        }
        if kept { settings.lastListing = listing }
    }

    /// The one transaction: every target resolved first (a bad one changes nothing), the step
    /// applied to each, the likes written only when one changed.
    static func change(_ store: SettingsStore, also suites: Set<Suite> = [], resolve: (Settings) throws -> [(LikeTarget, Product?)],
                       _ step: (inout LikeCollection, LikeTarget, Product?) throws -> Change,
                       after: (Settings, [Change]) -> Void = { _, _ in }) throws -> [Change] {
        try store.update(suites.union([.likes])) { settings in
            var likes = settings.likes
            var changes: [Change] = []
            for (target, product) in try resolve(settings) {
                changes.append(try step(&likes, target, product))
            }
            if changes.contains(where: \.changed) {
                settings.likes = likes
                after(settings, changes)
            }
            return changes
        }
    }
}
