/// `like` and `unlike` as work: one transaction on the likes that resolves every target first
/// (a bad one changes nothing), applies the step to each, and writes only when one changed.
/// The browse screen and the widget call the same.
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

        public init(kind: Kind, id: String, product: Product?) {
            self.kind = kind
            self.id = id
            self.product = product
        }

        public var changed: Bool { kind == .liked || kind == .unliked }
    }

    package static func like(_ targets: [LikeTarget], store: SettingsStore, at likedAt: String,
                            catalog: @escaping LikeResolution.CatalogLookup = { Catalog.embeddedItem(productId: $0) }) throws -> [Change] {
        try change(targets, store: store, catalog: catalog) { likes, target, product in
            guard let product else {
                if case .id(let id) = target, likes.contains(id) { return Change(kind: .alreadyLiked, id: id, product: nil) }
                throw SelectionError("product \(Sanitizer.clean(target.text)) is not in the last listing nor in the offline catalog",
                                     hint: "search for it first, then like its row")
            }
            // A listing saved before ids were checked may hold one the store would call damage.
            guard ProductID.usable(product.productId) == product.productId else {
                throw SelectionError("\(target.text == product.productId ? "product" : "row \(Sanitizer.clean(target.text)) has") '\(Sanitizer.clean(product.productId))', which is not a usable productId; nothing was liked",
                                     hint: "search again: listings leave such items out")
            }
            let added = likes.add(Like(product: product, likedAt: likedAt, likedPrice: product.price))
            return Change(kind: added ? .liked : .alreadyLiked, id: product.productId, product: product)
        }
    }

    package static func unlike(_ targets: [LikeTarget], store: SettingsStore,
                              catalog: @escaping LikeResolution.CatalogLookup = { Catalog.embeddedItem(productId: $0) }) throws -> [Change] {
        try change(targets, store: store, catalog: catalog) { likes, target, product in
            // A row always resolves to a product; an id may be one no listing shows.
            let id = product?.productId ?? target.text
            // Every like was checked when the file loaded, so the stored snapshot decodes.
            let snapshot = try? likes.like(id)
            if likes.remove(id) { return Change(kind: .unliked, id: id, product: snapshot?.product) }
            return Change(kind: .notLiked, id: id, product: product)
        }
    }

    static func change(_ targets: [LikeTarget], store: SettingsStore, catalog: @escaping LikeResolution.CatalogLookup,
                       _ step: (inout LikeCollection, LikeTarget, Product?) throws -> Change) throws -> [Change] {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            var changes: [Change] = []
            for (target, product) in try LikeResolution.resolve(targets, listing: settings.lastListing, catalog: catalog) {
                changes.append(try step(&likes, target, product))
            }
            if changes.contains(where: \.changed) { settings.likes = likes }
            return changes
        }
    }
}
