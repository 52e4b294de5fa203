import ShopYCore
import ShopYBase
/// Detail: the whole item, every field on its own line, long ones wrapped.
enum BrowseDetailRender {
    /// What productType means (the contract: 1–3 regular, 4–6 used, 7–9 discontinued, 10–12
    /// pre-sale; within each group a price-comparison item, an unmatched item, a matched one).
    static func productType(_ type: Int?) -> String {
        guard let type else { return "–" }
        guard (1...12).contains(type) else { return "\(type) (unknown)" }
        let group = ["regular", "used", "discontinued", "pre-sale"][(type - 1) / 3]
        let kind = ["price-comparison item", "unmatched item", "matched item"][(type - 1) % 3]
        return "\(type) — \(group), \(kind)"
    }

    /// The card (`ProductCard`, shared with `shopy show`) with browse's keys.
    static func lines(_ detail: DetailState, _ s: BrowseState, width: Int) -> [(String, CellStyle)] {
        let liked: ProductCard.Liked
        switch s.liked[detail.product.productId] {
        case nil: liked = .no
        case ""?: liked = .saving
        case let at?: liked = .since(at)
        }
        return ProductCard(product: detail.product, rank: detail.rank, liked: liked, tracked: detail.tracked, keyHints: true).lines(width: width)
    }

    /// Draws Detail and returns its status line.
    static func draw(_ detail: DetailState, _ s: BrowseState, _ frame: inout Frame, titleRow: Int, top: Int, height: Int) -> String {
        frame.put("Detail · Esc or q goes back", row: titleRow, column: 0, style: BrowseRender.dim)
        let text = BrowsePictureLayout.draw(detail, &frame, top: top, height: height)
        let all = lines(detail, s, width: max(1, text.width))
        let scroll = min(detail.scroll, max(0, all.count - text.height))
        for (offset, line) in all.dropFirst(scroll).prefix(text.height).enumerated() {
            frame.put(line.0, row: text.top + offset, column: 0, style: line.1, limit: text.width + 1)
        }
        return "l like/unlike · o open · c copy link · j/k scroll"
    }
}

/// The `?` overlay: every key, in a box over the screen.
public enum BrowseHelp {
    public static let keys: [(String, String)] = [
        ("1 2 3 4, Tab", "Home, Search, Likes, History; Tab cycles"),
        ("/", "search: type a query, Enter runs, Esc cancels"),
        ("j k, ↓ ↑", "move down, up"),
        ("PgDn PgUp", "a page down, up"),
        ("g G, Home End", "first, last row"),
        ("Enter", "details (History: search again)"),
        ("l", "like or unlike the item"),
        ("o", "open the link"),
        ("c", "copy the link"),
        ("s", "next sort (Search, Likes)"),
        ("d", "remove a query (History)"),
        ("r", "reload the screen"),
        ("Esc, q", "back; q on a screen quits"),
        ("Ctrl-C", "quit"),
        ("Ctrl-Z", "suspend; fg resumes"),
        ("?", "this help"),
    ]

    static func draw(_ frame: inout Frame) {
        let keyWidth = keys.map { DisplayWidth.of($0.0) }.max()!
        let inner = min(frame.columns - 4, keyWidth + 2 + (keys.map { DisplayWidth.of($0.1) }.max()!))
        let height = min(frame.rows - 2, keys.count + 2)
        let left = max(0, (frame.columns - inner - 2) / 2), top = max(0, (frame.rows - height) / 2)
        let box = CellStyle(reverse: true)
        let blank = String(repeating: " ", count: inner + 2)
        for row in top..<(top + height) { frame.put(blank, row: row, column: left, style: box) }
        frame.put(" keys (any key closes) ", row: top, column: left + 1, style: CellStyle(bold: true, reverse: true))
        for (i, entry) in keys.prefix(height - 2).enumerated() {
            let row = top + 1 + i
            frame.put(DisplayWidth.pad(entry.0, toWidth: keyWidth), row: row, column: left + 1, style: CellStyle(bold: true, reverse: true), limit: left + 1 + inner)
            frame.put(entry.1, row: row, column: left + 1 + keyWidth + 2, style: box, limit: left + 1 + inner)
        }
    }
}
