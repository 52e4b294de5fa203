import ShopYBase

/// How each kind of item reads, in a few words (`short`, for bars and the small family) and in
/// one line (`line`, for the medium family and menus).
public enum WidgetItems {
    /// Widths (terminal columns) of network text inside an item.
    public static let shortTitleWidth = 18
    public static let lineTitleWidth = 44

    static func title(_ text: String, width: Int) -> String {
        DisplayWidth.truncate(Sanitizer.clean(TitleCleaner.clean(text)), toWidth: width)
    }

    public static func likesCount(_ count: Int, drops: Int?) -> WidgetItem {
        let dropText = drops.map { $0 > 0 ? " · ▼\($0)" : "" } ?? ""
        return WidgetItem(optionID: "likes", kind: .likes, short: "♥ \(count)\(dropText)",
                          line: "♥ \(count) like\(count == 1 ? "" : "s")" + (drops.map { $0 > 0 ? ", \($0) cheaper than when liked" : "" } ?? ""))
    }

    public static func like(_ like: Like, drop: PriceDrop?) -> WidgetItem {
        let price = drop?.currentPrice ?? like.product.price
        var change = ""
        if let drop, let liked = like.likedPrice, liked > 0 {
            let percent = (liked - drop.currentPrice) * 100 / liked
            change = " ▼\(percent)%"
        }
        return WidgetItem(optionID: WidgetOption.id(.like, like.product.productId), kind: .like,
                          short: "♥ " + title(like.product.title, width: shortTitleWidth) + change,
                          line: "♥ " + title(like.product.title, width: lineTitleWidth) + " · " + Money.won(price) + change
                            + (drop == nil ? " (liked at \(Money.won(like.likedPrice)))" : ""),
                          link: like.product.link, tone: drop == nil ? .normal : .good)
    }

    public static func priceDrops(_ drops: [PriceDrop]) -> WidgetItem {
        WidgetItem(optionID: "price-drops", kind: .priceDrops, short: "▼\(drops.count)",
                   line: "▼ \(drops.count) like\(drops.count == 1 ? "" : "s") cheaper than when liked", link: drops.first?.like.product.link,
                   tone: drops.isEmpty ? .normal : .good)
    }

    public static func unavailable(_ option: WidgetOption, reason: String) -> WidgetItem {
        let symbol = option.kind == .priceDrops ? "▼" : "↗"
        return WidgetItem(optionID: option.id, kind: option.kind, short: "\(symbol) n/a", line: "\(symbol) \(option.title): unavailable (\(reason))", tone: .muted)
    }

    /// Before the first refresh has filled an item.
    public static func pending(_ option: WidgetOption) -> WidgetItem {
        switch option.kind {
        case .status: return WidgetItem(optionID: option.id, kind: .status, short: "● …", line: "● status: waiting for the first refresh", tone: .muted)
        case .popular:
            let keyword = title(option.subject ?? "", width: 10)
            return WidgetItem(optionID: option.id, kind: .popular, short: "★ \(keyword) …", line: "★ \(keyword): waiting for the first refresh", tone: .muted)
        case .history:
            let query = title(option.subject ?? "", width: 10)
            return WidgetItem(optionID: option.id, kind: .history, short: "⌕ \(query) …", line: "⌕ \(query): waiting for the first refresh", tone: .muted)
        case .trends: return WidgetItem(optionID: option.id, kind: .trends, short: "↗ …", line: "↗ trends: waiting for the first refresh", tone: .muted)
        case .like: return WidgetItem(optionID: option.id, kind: .like, short: "♥ ?", line: "♥ a like that is gone", tone: .muted)
        case .likes, .priceDrops: return WidgetItem(optionID: option.id, kind: option.kind, short: "…", line: "…", tone: .muted)
        }
    }

    /// A popular section's top items (at most 3 in the line).
    public static func popular(_ keyword: String, _ products: [Product]) -> WidgetItem {
        let id = WidgetOption.id(.popular, keyword)
        let k = title(keyword, width: 10)
        guard let top = products.first else {
            return WidgetItem(optionID: id, kind: .popular, short: "★ \(k): —", line: "★ \(k): no items", tone: .muted)
        }
        let rest = products.dropFirst().prefix(2).map { title($0.title, width: 14) }
        return WidgetItem(optionID: id, kind: .popular, short: "★ \(k): " + title(top.title, width: shortTitleWidth),
                          line: "★ \(k) 1. " + title(top.title, width: 30) + " · " + Money.won(top.price)
                            + rest.enumerated().map { " · \($0.offset + 2). \($0.element)" }.joined()
                            + disclosure(products.prefix(3)),
                          link: top.link)
    }

    /// A history query's top result.
    public static func history(_ query: String, _ top: Product?) -> WidgetItem {
        let id = WidgetOption.id(.history, query)
        let q = title(query, width: 10)
        guard let top else { return WidgetItem(optionID: id, kind: .history, short: "⌕ \(q): —", line: "⌕ \(q): no results", tone: .muted) }
        return WidgetItem(optionID: id, kind: .history, short: "⌕ \(q): " + title(top.title, width: shortTitleWidth),
                          line: "⌕ \(q): " + title(top.title, width: lineTitleWidth) + " · " + Money.won(top.price) + disclosure([top]), link: top.link)
    }

    /// Coupang's partner disclosure, after a line that shows its results (its terms ask for it).
    static func disclosure<Items: Sequence<Product>>(_ shown: Items) -> String {
        shown.contains { $0.source == .coupang } ? " · " + CoupangSource.disclosure : ""
    }

    /// A failed item: the error's class, nothing from the error's text (it may hold a server's words).
    public static func failed(_ option: WidgetOption, errorClass: String) -> WidgetItem {
        let symbol: String
        switch option.kind {
        case .popular: symbol = "★"
        case .history: symbol = "⌕"
        case .trends: symbol = "↗"
        default: symbol = "●"
        }
        let subject = option.subject.map { " " + title($0, width: 10) } ?? ""
        return WidgetItem(optionID: option.id, kind: option.kind, short: "\(symbol)\(subject) ✕", line: "\(symbol)\(subject): \(errorClass)", tone: .bad)
    }
}
