import Foundation
import ShopYCore
import ShopYBase

/// The price side of `shopy likes`: each like's latest known price, its change since it was
/// liked and the lowest seen, from the `prices` suite.
enum PriceView {
    /// The latest known price: the last refresh's, else the snapshot's.
    static func latest(_ like: Like, _ book: PriceBook) -> Int? {
        if let record = book[like.product.productId], !record.points.isEmpty { return record.latest }
        return like.product.price
    }

    /// The change since liked as a fraction (-0.12 for 12% cheaper), nil when unknown.
    static func change(price: Int?, liked: Int?) -> Double? {
        guard let price, let liked, liked > 0 else { return nil }
        return (Double(price) - Double(liked)) / Double(liked)
    }

    /// `▼ 12%` / `▲ 3%` / `= 0%`; empty when unknown.
    static func changeText(price: Int?, liked: Int?) -> String {
        guard let fraction = change(price: price, liked: liked), let percent = WholeNumber.rounded(abs(fraction) * 100) else { return "" }
        if price! < liked! { return "▼ \(max(percent, 1))%" }
        if price! > liked! { return "▲ \(max(percent, 1))%" }
        return "= 0%"
    }

    /// `--drops` keeps likes whose latest price is below the liked price; `--sort change`
    /// orders by the change, the largest drop first, unknown changes last.
    static func arrange(_ likes: [Like], book: PriceBook, byChange: Bool, dropsOnly: Bool) -> [Like] {
        var likes = likes
        if dropsOnly {
            likes = likes.filter { like in
                guard let price = latest(like, book), let liked = like.likedPrice else { return false }
                return price < liked
            }
        }
        guard byChange else { return likes }
        let keys = likes.map { change(price: latest($0, book), liked: $0.likedPrice) }
        return likes.indices.sorted { a, b in
            switch (keys[a], keys[b]) {
            case let (x?, y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a < b
            }
        }.map { likes[$0] }
    }

    /// The listed items: price is the latest known; JSON gains likedPrice, change, lowest,
    /// highest (the all-time extremes the history keeps), refreshedAt (and history when asked). In the table the change and the lowest go before
    /// the title.
    static func items(_ likes: [Like], book: PriceBook, history: Bool, table: Bool) -> [ListedItem] {
        likes.enumerated().map { i, like in
            let record = book[like.product.productId]
            var product = like.product
            let price = latest(like, book)
            product.price = price
            var extra: [(String, JSONValue)] = [("likedAt", .string(like.likedAt)), ("likedPrice", .int(orNull: like.likedPrice))]
            if let fraction = change(price: price, liked: like.likedPrice) {
                extra.append(("change", .number(String(format: "%.4f", fraction))))
            } else {
                extra.append(("change", .null))
            }
            extra.append(("lowest", .int(orNull: record?.lowest?.price)))
            extra.append(("highest", .int(orNull: record?.highest?.price)))
            extra.append(("refreshedAt", .string(orNull: record?.refreshedAt)))
            if history {
                extra.append(("history", .array((record?.points ?? []).map { point in
                    var o = JSONObject()
                    o.appendUnchecked("at", .string(point.at))
                    o.appendUnchecked("price", .int(orNull: point.price))
                    return .object(o)
                })))
            }
            if table, record != nil {
                var notes: [String] = []
                let text = changeText(price: price, liked: like.likedPrice)
                if !text.isEmpty { notes.append(text) }
                if let lowest = record?.lowest?.price { notes.append("low " + Money.won(lowest)) }
                if !notes.isEmpty { product.title = notes.joined(separator: " ") + " · " + product.title }
            }
            return ListedItem(rank: i + 1, product: product, extra: extra)
        }
    }
}
