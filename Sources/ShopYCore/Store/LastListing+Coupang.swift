import ShopYBase

/// Coupang's terms let an app keep its data for 60 minutes. The last listing's Coupang rows
/// serve `like ROW`, `open ROW`, `copy ROW` and `show ROW` for that hour (`LikeResolution`
/// refuses them after it); past it their data is not shown (completions leave them out) and a
/// write of state.json keeps only their ids, so that the row still says why it cannot be used.
extension LastListing {
    /// Whether the listing was saved before `cutoff` (`CoupangSource.listingCutoff`) and still
    /// holds Coupang data in a row.
    package func holdsExpiredCoupangData(cutoff: String) -> Bool {
        savedAt < cutoff && rows.contains { Self.isCoupang($0.product) && $0.product != Self.idOnly($0.product) }
    }

    /// The listing with each Coupang row reduced to its id when it was saved before `cutoff`.
    package func withoutExpiredCoupangData(cutoff: String) -> LastListing {
        guard savedAt < cutoff else { return self }
        var listing = self
        for i in listing.rows.indices where Self.isCoupang(listing.rows[i].product) {
            listing.rows[i].product = Self.idOnly(listing.rows[i].product)
        }
        return listing
    }

    /// The rows that may be shown at `cutoff`: all, or none of Coupang's once their hour is over.
    package func showableRows(cutoff: String) -> [Row] {
        savedAt < cutoff ? rows.filter { !Self.isCoupang($0.product) } : rows
    }

    static func isCoupang(_ product: Product) -> Bool { ProductID.namespace(of: product.productId) == .coupang }

    static func idOnly(_ product: Product) -> Product { Product(productId: product.productId, title: "", source: product.source) }
}

extension Settings {
    /// Reduces the last listing's Coupang rows to their ids when it was saved over an hour
    /// before `now` (`Like.timestamp`), inside a transaction that writes state.json anyway.
    package func dropExpiredCoupangData(now: String) {
        guard let cutoff = CoupangSource.listingCutoff(likedAt: now), let listing = lastListing,
              listing.holdsExpiredCoupangData(cutoff: cutoff) else { return }
        lastListing = listing.withoutExpiredCoupangData(cutoff: cutoff)
    }
}
