import ShopYCore
import ShopYBase
/// The four list screens: a title line, the rows, and what their status line says.
enum BrowseListRender {
    /// One product row: rank, ♥, price, mall (when there is room), title; by display width.
    static func productRow(_ frame: inout Frame, row: Int, rank: String, rankWidth: Int, product: Product, liked: Bool, selected: Bool) {
        let columns = frame.columns
        var col = frame.put(DisplayWidth.pad(rank, toWidth: rankWidth, alignRight: true), row: row, column: 0, style: BrowseRender.dim)
        col = frame.put(liked ? " ♥ " : "   ", row: row, column: col, style: CellStyle(color: CellStyle.red))
        let priceWidth = columns >= 60 ? 12 : 10
        col = frame.put(DisplayWidth.pad(BrowseRender.price(product.price), toWidth: priceWidth, alignRight: true), row: row, column: col)
        col += 2
        if columns >= 80 {
            let mallWidth = columns >= 120 ? 18 : 12
            frame.put(DisplayWidth.truncate(Sanitizer.clean(product.mall ?? "–"), toWidth: mallWidth), row: row, column: col, style: BrowseRender.dim)
            col += mallWidth + 2
        }
        frame.put(DisplayWidth.truncate(Sanitizer.clean(product.title), toWidth: columns - col), row: row, column: col)
        if selected { frame.paint(row: row, style: BrowseRender.selected) }
    }

    /// What an empty list shows: its error, else `empty` once loaded, else that it is loading.
    static func emptyNote(_ frame: inout Frame, row: Int, error: String?, loaded: Bool, _ empty: String) {
        if let error { note(&frame, row: row, error, isError: true) }
        else { note(&frame, row: row, loaded ? empty : "loading…") }
    }

    static func note(_ frame: inout Frame, row: Int, _ text: String, isError: Bool = false) {
        frame.put("  " + Sanitizer.clean(text), row: row, column: 0, style: isError ? BrowseRender.error : BrowseRender.dim)
    }

    static func home(_ s: BrowseState, _ frame: inout Frame, titleRow: Int, top: Int, height: Int) -> String {
        frame.put("Popular rankings", row: titleRow, column: 0, style: BrowseRender.bold)
        if s.home.loading && s.home.sections.isEmpty { note(&frame, row: top, "loading…") }
        let rows = BrowseReducer.homeRows(s.home)
        for (offset, line) in rows.dropFirst(s.home.cursor.scroll).prefix(height).enumerated() {
            let row = top + offset
            switch line {
            case .heading(let index):
                let section = s.home.sections[index]
                var text = "\(index + 1). \(Sanitizer.clean(section.keyword))"
                if case .loaded(let total, _) = section.content { text += "  ·  \(Money.grouped(total)) result\(total == 1 ? "" : "s")" }
                frame.put(text, row: row, column: 0, style: BrowseRender.bold)
            case .item(let sectionIndex, let index, let product):
                productRow(&frame, row: row, rank: "\(sectionIndex + 1).\(index + 1)", rankWidth: 5, product: product,
                           liked: s.liked[product.productId] != nil, selected: s.home.cursor.scroll + offset == s.home.cursor.selection)
            case .note(_, let text, let isError):
                note(&frame, row: row, text, isError: isError)
            case .gap:
                break
            }
        }
        let loading = s.home.sections.filter { $0.content == .loading }.count
        return "\(s.home.sections.count) section\(s.home.sections.count == 1 ? "" : "s")" + (loading > 0 ? " · \(loading) loading" : "") + " · \(s.source.rawValue)"
    }

    static func search(_ s: BrowseState, _ frame: inout Frame, titleRow: Int, top: Int, height: Int) -> String {
        let search = s.search
        if let prompt = s.prompt {
            let col = frame.put("/ ", row: titleRow, column: 0, style: BrowseRender.bold)
            // The end of a long query stays in view while it is typed: cut once, from the end.
            let end = frame.put(String(DisplayWidth.suffix(prompt, toWidth: frame.columns - col - 1)), row: titleRow, column: col)
            frame.cursor = (titleRow, min(end, frame.columns - 1))
        } else if search.query.isEmpty {
            frame.put("Search · press / to type a query", row: titleRow, column: 0, style: BrowseRender.dim)
        } else {
            let col = frame.put("Search: ", row: titleRow, column: 0, style: BrowseRender.bold)
            frame.put(DisplayWidth.truncate(Sanitizer.clean(search.query), toWidth: frame.columns - col), row: titleRow, column: col)
        }
        let rankWidth = max(3, String(max(search.limit, search.items.last?.rank ?? 1)).count)
        var offset = 0
        for (i, item) in search.items.enumerated().dropFirst(search.cursor.scroll).prefix(height) {
            productRow(&frame, row: top + offset, rank: String(item.rank), rankWidth: rankWidth, product: item.product,
                       liked: s.liked[item.product.productId] != nil, selected: i == search.cursor.selection)
            offset += 1
        }
        if offset < height {
            if search.loading != nil {
                note(&frame, row: top + offset, "loading…")
            } else if let error = search.error {
                note(&frame, row: top + offset, error + " · r retries", isError: true)
            } else if search.total == 0 {
                note(&frame, row: top + offset, "no results for '\(Sanitizer.clean(search.query))'" + (s.source == .catalog ? " in the offline catalog" : ""))
            } else if search.total != nil && !search.canLoadMore && search.items.count > 0 && search.total! > search.limit {
                note(&frame, row: top + offset, "the API reaches rank \(Money.grouped(SearchRequest.maxRank)) at most")
            }
        }
        guard let total = search.total, !search.items.isEmpty else {
            return "sort \(search.sort.rawValue) · \(s.source.rawValue)"
        }
        let visible = search.items.dropFirst(search.cursor.scroll).prefix(height)
        let first = visible.first?.rank ?? 0, last = visible.last?.rank ?? 0
        // Coupang's terms: results shown carry the partner disclosure.
        let disclosure = visible.contains { $0.product.source == .coupang } ? " · " + CoupangSource.disclosure : ""
        return "\(Money.grouped(first))–\(Money.grouped(last)) of \(Money.grouped(total)) · sort \(search.sort.rawValue) · \(s.source.rawValue)" + disclosure
    }

    static func likes(_ s: BrowseState, _ frame: inout Frame, titleRow: Int, top: Int, height: Int) -> String {
        let likes = s.likes
        frame.put("Likes", row: titleRow, column: 0, style: BrowseRender.bold)
        if likes.likes.isEmpty { emptyNote(&frame, row: top, error: likes.error, loaded: likes.loaded, "no likes yet: l on any row likes it") }
        let width = max(2, String(likes.likes.count).count)
        for (i, like) in likes.likes.enumerated().dropFirst(likes.cursor.scroll).prefix(height) {
            productRow(&frame, row: top + i - likes.cursor.scroll, rank: String(i + 1), rankWidth: width, product: like.product,
                       liked: s.liked[like.product.productId] != nil, selected: i == likes.cursor.selection)
        }
        return "\(Money.grouped(likes.likes.count)) like\(likes.likes.count == 1 ? "" : "s") · sort \(likes.sort.rawValue)"
    }

    static func history(_ s: BrowseState, _ frame: inout Frame, titleRow: Int, top: Int, height: Int) -> String {
        let history = s.history
        frame.put("History · Enter searches again · d removes", row: titleRow, column: 0, style: BrowseRender.bold)
        if history.entries.isEmpty { emptyNote(&frame, row: top, error: history.error, loaded: history.loaded, "no searches yet") }
        let width = max(2, String(history.entries.count).count)
        for (i, entry) in history.entries.enumerated().dropFirst(history.cursor.scroll).prefix(height) {
            let row = top + i - history.cursor.scroll
            var col = frame.put(DisplayWidth.pad(String(i + 1), toWidth: width, alignRight: true) + "  ", row: row, column: 0, style: BrowseRender.dim)
            col = frame.put(Sanitizer.clean(LocalTime.display(entry.at)) + "  ", row: row, column: col, style: BrowseRender.dim)
            frame.put(DisplayWidth.truncate(Sanitizer.clean(entry.query), toWidth: frame.columns - col), row: row, column: col)
            if i == history.cursor.selection { frame.paint(row: row, style: BrowseRender.selected) }
        }
        return "\(history.entries.count) quer\(history.entries.count == 1 ? "y" : "ies")"
    }
}
