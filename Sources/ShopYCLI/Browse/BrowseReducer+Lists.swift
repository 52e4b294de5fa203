import ShopYCore
import ShopYBase
/// One line of Home: a section's heading, one of its items, or what it says instead.
public enum HomeRow: Equatable, Sendable {
    case heading(section: Int)
    case item(section: Int, index: Int, product: Product)
    case note(section: Int, text: String, isError: Bool)
    case gap

    public var isItem: Bool { if case .item = self { return true } else { return false } }
}

/// Selection, scrolling and the selected item of each screen.
extension BrowseReducer {
    public static func homeRows(_ home: HomeState) -> [HomeRow] {
        var rows: [HomeRow] = []
        for (s, section) in home.sections.enumerated() {
            if s > 0 { rows.append(.gap) }
            rows.append(.heading(section: s))
            switch section.content {
            case .loading: rows.append(.note(section: s, text: "loading…", isError: false))
            case .failed(let message): rows.append(.note(section: s, text: message, isError: true))
            case .loaded(_, let items):
                if items.isEmpty { rows.append(.note(section: s, text: "no results", isError: false)) }
                for (i, product) in items.enumerated() { rows.append(.item(section: s, index: i, product: product)) }
            }
        }
        return rows
    }

    /// Keeps the selection in the list and on screen; `rows` is how many lines the list has.
    static func clamp(_ cursor: inout ListCursor, count: Int, rows: Int, extra: Int = 0) {
        cursor.selection = max(0, min(cursor.selection, count - 1))
        if cursor.selection < cursor.scroll { cursor.scroll = cursor.selection }
        let wanted = cursor.selection + extra
        if wanted >= cursor.scroll + rows { cursor.scroll = wanted - rows + 1 }
        cursor.scroll = max(0, min(cursor.scroll, max(0, count + extra - rows)))
    }

    static func clampAll(_ s: inout BrowseState) {
        let rows = BrowseLayout.listRows(s)
        fixHomeSelection(&s)
        clamp(&s.search.cursor, count: s.search.items.count, rows: rows, extra: s.search.loading == nil ? 0 : 1)
        clamp(&s.likes.cursor, count: s.likes.likes.count, rows: rows)
        clamp(&s.history.cursor, count: s.history.entries.count, rows: rows)
    }

    /// Home's selection always rests on an item (headings and notes are skipped).
    static func fixHomeSelection(_ s: inout BrowseState) {
        let rows = homeRows(s.home)
        var cursor = s.home.cursor
        if !rows.indices.contains(cursor.selection) || !rows[cursor.selection].isItem {
            cursor.selection = rows.firstIndex(where: \.isItem) ?? 0
        }
        clamp(&cursor, count: rows.count, rows: BrowseLayout.listRows(s))
        if cursor.selection == rows.firstIndex(where: \.isItem) { cursor.scroll = 0 }
        s.home.cursor = cursor
    }

    static func move(by delta: Int, _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        let rows = BrowseLayout.listRows(s)
        if var detail = s.detail {
            detail.scroll = max(0, min(detail.scroll.addingReportingOverflow(delta).partialValue, 200))
            if delta <= Int.min / 4 { detail.scroll = 0 }
            s.detail = detail
            return
        }
        func target(_ selection: Int, count: Int) -> Int {
            let (moved, overflow) = selection.addingReportingOverflow(delta)
            return max(0, min(overflow ? (delta > 0 ? count - 1 : 0) : moved, count - 1))
        }
        switch s.tab {
        case .home:
            let list = homeRows(s.home)
            guard let first = list.firstIndex(where: \.isItem), let last = list.lastIndex(where: \.isItem) else { return }
            var index = max(first, min(target(s.home.cursor.selection, count: list.count), last))
            // Land on an item: onward in the direction of travel, else back.
            let step = delta >= 0 ? 1 : -1
            while !list[index].isItem { index += step }
            s.home.cursor.selection = index
            clamp(&s.home.cursor, count: list.count, rows: rows)
            if index == first { s.home.cursor.scroll = 0 }
        case .search:
            let count = s.search.items.count
            guard count > 0 else { return }
            let wanted = s.search.cursor.selection.addingReportingOverflow(delta)
            let wasLast = s.search.cursor.selection == count - 1
            s.search.cursor.selection = target(s.search.cursor.selection, count: count)
            // Moving onto (or past) the last loaded row loads the next page, shown as a row.
            if delta > 0 && (wanted.overflow || wanted.partialValue >= count - 1) && s.search.canLoadMore {
                loadNextPage(&s, &fx)
                if wasLast && delta == 1 && s.search.loading != nil { s.search.advanceOnLoad = true }
            }
            clamp(&s.search.cursor, count: count, rows: rows, extra: s.search.loading == nil ? 0 : 1)
        case .likes:
            s.likes.cursor.selection = target(s.likes.cursor.selection, count: s.likes.likes.count)
            clamp(&s.likes.cursor, count: s.likes.likes.count, rows: rows)
        case .history:
            s.history.cursor.selection = target(s.history.cursor.selection, count: s.history.entries.count)
            clamp(&s.history.cursor, count: s.history.entries.count, rows: rows)
        }
    }

    /// The item `l`, `o`, `c` and Enter act on: Detail's, else the selected row's.
    public static func selectedProduct(_ s: BrowseState) -> Product? {
        if let detail = s.detail { return detail.product }
        switch s.tab {
        case .home:
            let rows = homeRows(s.home)
            guard rows.indices.contains(s.home.cursor.selection),
                  case .item(_, _, let product) = rows[s.home.cursor.selection] else { return nil }
            return product
        case .search:
            return s.search.items.indices.contains(s.search.cursor.selection) ? s.search.items[s.search.cursor.selection].product : nil
        case .likes:
            return s.likes.likes.indices.contains(s.likes.cursor.selection) ? s.likes.likes[s.likes.cursor.selection].product : nil
        case .history:
            return nil
        }
    }

    static func selectedRank(_ s: BrowseState) -> Int? {
        switch s.tab {
        case .search: return s.search.items.indices.contains(s.search.cursor.selection) ? s.search.items[s.search.cursor.selection].rank : nil
        case .home:
            let rows = homeRows(s.home)
            if rows.indices.contains(s.home.cursor.selection), case .item(_, let index, _) = rows[s.home.cursor.selection] { return index + 1 }
            return nil
        default: return nil
        }
    }
}
