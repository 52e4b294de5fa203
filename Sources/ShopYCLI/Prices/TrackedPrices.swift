import ShopYCore
/// Price drops for the widget, from the prices suite that `shopy likes refresh` keeps: a like
/// whose latest refreshed price is below its liked price. The book is read once, when the widget
/// asks; a damaged prices.json makes the option unavailable with the reason instead of failing
/// the widget.
public struct TrackedPrices: PriceTracking {
    private let book: PriceBook
    private let problem: String?

    public init(store: SettingsStore) {
        do {
            book = try store.read { $0.prices }
            problem = nil
        } catch {
            book = PriceBook()
            problem = "prices.json cannot be read — run shopy doctor"
        }
    }

    init(book: PriceBook) {
        self.book = book
        problem = nil
    }

    public var unavailableReason: String? { problem }

    public func drops(among likes: [Like]) -> [PriceDrop] {
        likes.compactMap { like in
            guard let record = book[like.product.productId], !record.points.isEmpty,
                  let current = record.latest, let liked = like.likedPrice, current < liked else { return nil }
            return PriceDrop(like: like, currentPrice: current)
        }
    }
}
