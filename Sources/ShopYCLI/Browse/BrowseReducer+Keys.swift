import ShopYCore
import ShopYBase
/// Keys: the prompt first, then the overlay, then what every screen shares, then each screen's own.
extension BrowseReducer {
    static func handle(_ key: Key, _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        if key == .ctrl("c") {
            s.quit = true
            return
        }
        if s.prompt != nil { return promptKey(key, &s, &fx) }
        if s.showHelp {
            // Any key closes the overlay; only `?`, Esc and q are swallowed by it.
            s.showHelp = false
            if key == .char("?") || key == .escape || key == .char("q") { return }
        }
        s.message = nil
        switch key {
        case .char("?"): s.showHelp = true
        case .char("q"):
            if s.detail != nil { s.detail = nil } else { s.quit = true }
        case .escape:
            s.detail = nil
        case .char("1"), .char("2"), .char("3"), .char("4"):
            if case .char(let c) = key, let tab = BrowseTab(rawValue: Int(c.value) - 0x30) { enter(tab, &s, &fx) }
        case .tab:
            enter(BrowseTab(rawValue: s.tab.rawValue % 4 + 1)!, &s, &fx)
        case .backTab:
            enter(BrowseTab(rawValue: (s.tab.rawValue + 2) % 4 + 1)!, &s, &fx)
        case .char("/"):
            enter(.search, &s, &fx)
            s.prompt = ""
        case .char("j"), .down: move(by: 1, &s, &fx)
        case .char("k"), .up: move(by: -1, &s, &fx)
        case .pageDown, .ctrl("f"), .char(" "): move(by: BrowseLayout.listRows(s), &s, &fx)
        case .pageUp, .ctrl("b"): move(by: -BrowseLayout.listRows(s), &s, &fx)
        case .char("g"), .home: move(by: Int.min / 2, &s, &fx)
        case .char("G"), .end: move(by: Int.max / 2, &s, &fx)
        case .enter: activate(&s, &fx)
        case .char("l"): toggleLike(&s, &fx)
        case .char("o"), .char("c"):
            guard let product = selectedProduct(s) else { return }
            do {
                let link = try LinkTargets.link(of: product)
                fx.append(key == .char("o") ? .open(link) : .copy(link))
            } catch {
                s.message = StatusMessage(error.message, isError: true)
            }
        case .char("r"): reload(&s, &fx)
        case .char("s"): cycleSort(&s, &fx)
        case .char("d"):
            guard s.detail == nil, s.tab == .history, s.history.entries.indices.contains(s.history.cursor.selection) else { return }
            let query = s.history.entries.remove(at: s.history.cursor.selection).query
            clamp(&s.history.cursor, count: s.history.entries.count, rows: BrowseLayout.listRows(s))
            fx.append(.removeHistory(query))
        default:
            break
        }
    }

    static func promptKey(_ key: Key, _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        switch key {
        case .escape:
            s.prompt = nil
        case .tab, .backTab:
            s.prompt = nil
            handle(key, &s, &fx)
        case .enter:
            let query = s.prompt!.trimmingASCIIWhitespace()
            guard !query.split(whereSeparator: { $0.isWhitespace }).isEmpty else {
                s.message = StatusMessage("search needs a query", isError: true)
                return
            }
            do {
                try QueryLimit.check(query, what: "the query")
            } catch {
                s.message = StatusMessage(error.message, isError: true)
                return
            }
            s.prompt = nil
            submit(query, &s, &fx)
        case .backspace:
            if !s.prompt!.isEmpty { s.prompt!.removeLast() }
        case .ctrl("u"):
            s.prompt = ""
        case .ctrl("w"):
            var text = s.prompt!
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
            s.prompt = text
        case .char(let scalar):
            s.prompt!.unicodeScalars.append(scalar)
        default:
            break
        }
    }

    /// Runs `query` on the Search screen from rank 1, and records it in the history.
    static func submit(_ query: String, _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        s.tab = .search
        s.detail = nil
        s.search.query = query
        fx.append(.recordQuery(query))
        s.history.loaded = false
        newSearch(&s, &fx)
    }

    static func activate(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard s.detail == nil else { return }
        if s.tab == .history {
            guard s.history.entries.indices.contains(s.history.cursor.selection) else { return }
            return submit(s.history.entries[s.history.cursor.selection].query, &s, &fx)
        }
        if s.tab == .search && s.search.query.isEmpty {
            s.prompt = ""
            return
        }
        guard let product = selectedProduct(s) else { return }
        s.detail = DetailState(product: product, rank: selectedRank(s))
        startPicture(&s, &fx)
        if s.liked[product.productId] != nil { fx.append(.loadTracked(productId: product.productId)) }
    }

    /// `l`: the ♥ changes at once; the store's answer confirms it, or puts it back.
    static func toggleLike(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard let product = selectedProduct(s) else { return }
        let id = product.productId
        guard s.pendingLikes[id] == nil else {
            s.message = StatusMessage("still saving the last change to \(Sanitizer.clean(id))")
            return
        }
        let before = s.liked[id]
        s.pendingLikes[id] = .some(before)
        if before != nil {
            s.liked[id] = nil
            fx.append(.unlike(productId: id))
        } else {
            s.liked[id] = ""
            fx.append(.like(product))
        }
    }

    /// `r`: the screen loaded again, unless its load is still out (repeated presses do not
    /// queue more loads behind it).
    static func reload(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        if let detail = s.detail {
            if !s.likes.loading {
                s.likes.loading = true
                fx.append(.loadLikes)
            }
            if case .failed = detail.picture { startPicture(&s, &fx) }
            return
        }
        let busy: Bool
        switch s.tab {
        case .home: busy = s.home.inFlight
        case .search: busy = s.search.loading != nil && s.search.items.isEmpty
        case .likes: busy = s.likes.loading
        case .history: busy = s.history.loading
        }
        guard !busy else {
            s.message = StatusMessage("still loading")
            return
        }
        switch s.tab {
        case .home: loadHome(&s, &fx)
        case .search: if !s.search.query.isEmpty { newSearch(&s, &fx) }
        case .likes:
            s.likes.loading = true
            fx.append(.loadLikes)
        case .history:
            s.history.loading = true
            fx.append(.loadHistory)
        }
    }

    static func cycleSort(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard s.detail == nil else { return }
        switch s.tab {
        case .search:
            let all = SortOrder.allCases
            s.search.sort = all[(all.firstIndex(of: s.search.sort)! + 1) % all.count]
            if !s.search.query.isEmpty { newSearch(&s, &fx) }
        case .likes:
            let all = LikesCommand.Sort.allCases
            s.likes.sort = all[(all.firstIndex(of: s.likes.sort)! + 1) % all.count]
            s.likes.likes = LikesCommand.sorted(s.likes.likes, by: s.likes.sort)
            s.likes.cursor = ListCursor()
        default:
            break
        }
    }
}
