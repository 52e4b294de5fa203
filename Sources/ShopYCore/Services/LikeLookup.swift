import ShopYBase

/// `like --id` on an 11번가 id (`11st:…`) that no like, last listing or catalog holds: the
/// product is looked up by its code (`ProductInfo`, one request an id), as a catalog id is looked
/// up in the catalog, and that answer is the like's snapshot. Coupang has no look-up by id:
/// its ids are liked from a listing of the last hour only (`LikeChanges.like` says so).
package enum LikeLookup {
    /// How long one look-up may take, retries included (the default of every request).
    package static let timeout: Double = 10

    /// The `11st:` ids among `targets` that need a look-up, each once, in order: not liked, not
    /// a row of the last listing, not in the catalog.
    package static func elevenStreetIDs(_ targets: [LikeTarget], store: SettingsStore,
                                        catalog: LikeResolution.CatalogLookup) throws -> [String] {
        var ids: [String] = []
        for case .id(let id) in targets where ProductID.namespace(of: id) == .elevenst && ProductID.usable(id) == id && !ids.contains(id) {
            ids.append(id)
        }
        guard !ids.isEmpty else { return [] }
        let known: Set<String> = try store.read { settings in
            let likes = settings.likes
            let listed = Set(settings.lastListing?.rows.map(\.product.productId) ?? [])
            return Set(ids.filter { likes.contains($0) || listed.contains($0) })
        }
        return ids.filter { !known.contains($0) && catalog($0) == nil }
    }

    /// Each id's product as 11번가 has it now (title, price, image), with the product page
    /// 11번가's search answers link to. An id 11번가 has no product for is refused: nothing is
    /// liked then.
    package static func products(_ ids: [String], source: ElevenStreetSource) async throws -> [String: Product] {
        var found: [String: Product] = [:]
        for id in ids {
            guard var product = try await source.lookup(id) else {
                throw SelectionError("11번가 has no product \(Sanitizer.clean(id)) (its ProductInfo found none); nothing was liked")
            }
            if product.link == nil { product.link = productPage(code: ProductID.bare(id)) }
            found[id] = product
        }
        return found
    }

    /// The page of an 11번가 product: the `DetailPageUrl` its search answers carry
    /// (`/work/shared/sources/SOURCES.md`, Fixtures/elevenst/search-airpods.xml), which
    /// `ProductInfo` does not send.
    package static func productPage(code: String) -> String {
        "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=" + code
    }
}
