import ShopYCore
import ShopYBase
/// The facts of one product as browse's Detail screen and `shopy show` give them: the title
/// wrapped, price, mall, brand, maker, categories, type, productId, link, image, liked, and once
/// `likes refresh` tracks it, the price now, the change since liked, the lowest seen and a
/// sparkline of its history. Every text from the network goes through `Sanitizer.clean`.
struct ProductCard: Equatable, Sendable {
    /// Whether the product is liked, as far as is known.
    enum Liked: Equatable, Sendable {
        case no
        /// Liked a moment ago; the store's answer is pending (browse).
        case saving
        case since(String)
    }

    /// The `prices` record of a liked product, with its liked price.
    struct Tracked: Equatable, Sendable {
        var record: PriceRecord
        var likedPrice: Int?
    }

    var product: Product
    var rank: Int?
    var liked: Liked
    var tracked: Tracked?
    /// Browse adds its keys ("· l likes it").
    var keyHints = false

    /// The width of the names column.
    static let labelWidth = 10

    /// The lines, each at most `width` columns, with their style.
    func lines(width: Int) -> [(String, CellStyle)] {
        let p = product
        var out: [(String, CellStyle)] = []
        for line in BrowseRender.wrap(Sanitizer.clean(p.title), width: max(1, width)) { out.append((line, BrowseRender.bold)) }
        out.append(("", .plain))
        func field(_ name: String, _ value: String?) {
            let label = DisplayWidth.pad(name, toWidth: Self.labelWidth)
            let text = Sanitizer.clean(value ?? "–")
            let wrapped = BrowseRender.wrap(text, width: max(1, width - Self.labelWidth))
            for (i, part) in wrapped.enumerated() { out.append(((i == 0 ? label : String(repeating: " ", count: Self.labelWidth)) + part, .plain)) }
        }
        var price = Money.won(p.price)
        if let high = p.highPrice { price += " (high \(Money.won(high)))" }
        field("price", price)
        field("mall", p.mall)
        field("brand", p.brand)
        field("maker", p.maker)
        field("category", p.categories.isEmpty ? nil : p.categories.joined(separator: " › "))
        field("type", BrowseDetailRender.productType(p.productType))
        field("productId", p.productId)
        if let source = p.source { field("source", source.displayName) }
        if let rank { field("rank", String(rank)) }
        field("link", p.link)
        field("image", p.image)
        switch liked {
        case .no: field("liked", "no" + (keyHints ? " · l likes it" : ""))
        case .saving: field("liked", "yes (saving…)")
        case .since(let at): field("liked", "yes, since \(LocalTime.display(at))" + (keyHints ? " · l unlikes it" : ""))
        }
        if let tracked, !tracked.record.points.isEmpty {
            let now = tracked.record.latest
            var line = Money.won(now)
            let change = PriceView.changeText(price: now, liked: tracked.likedPrice)
            if !change.isEmpty { line += "  \(change) since liked (\(Money.won(tracked.likedPrice)))" }
            if let at = tracked.record.refreshedAt { line += " · \(LocalTime.display(at))" }
            field("price now", line)
            if let lowest = tracked.record.lowest {
                field("lowest", Money.won(lowest.price) + " · \(LocalTime.display(lowest.at))")
            }
            let values = tracked.record.points.compactMap { $0.price.map(Double.init) }
            if values.count >= 2 {
                field("history", TrendsTable.sparkline(values, width: max(1, min(40, width - Self.labelWidth - 12))) + " (\(values.count) prices)")
            }
        }
        // Coupang's terms: results shown carry the partner disclosure.
        if p.source == .coupang || ProductID.namespace(of: p.productId) == .coupang {
            out.append(("", .plain))
            for line in BrowseRender.wrap(CoupangSource.disclosure, width: max(1, width)) { out.append((line, BrowseRender.dim)) }
        }
        return out
    }
}
