import ShopYCore
import ShopYBase
/// Which request loads the ranks after `loadedThrough`, within the API's limits: start at most
/// 1,000 and display at most 100, so ranks 1,001–1,099 come from a page at start 1,000 whose
/// first items were already shown (`skip`). Nil when nothing is left.
public enum BrowsePaging {
    public static func next(loadedThrough: Int, limit: Int, size: Int) -> (start: Int, display: Int, skip: Int)? {
        let first = loadedThrough + 1
        guard first <= limit, size >= 1 else { return nil }
        if first <= SearchRequest.maxStart {
            return (first, min(size, SearchRequest.maxDisplay, limit - first + 1), 0)
        }
        let start = SearchRequest.maxStart
        let display = min(SearchRequest.maxDisplay, limit - start + 1)
        return (start, display, first - start)
    }
}

/// The rows the list part of the screen holds (the reducer pages by it; the view draws it).
public enum BrowseLayout {
    public static let minColumns = 40
    public static let minRows = 10

    /// Tab bar, banner when offline, screen title; the status line at the bottom.
    public static func listTop(_ state: BrowseState) -> Int { state.network.isOffline ? 3 : 2 }

    public static func listRows(_ state: BrowseState) -> Int {
        max(1, state.rows - listTop(state) - 1)
    }

    public static func tooSmall(rows: Int, columns: Int) -> Bool { rows < minRows || columns < minColumns }
}
