import ShopYCore
import ShopYBase
/// The one place the browse state changes: `reduce(state, intent) -> (state, effects)`, pure.
public enum BrowseReducer {
    public static func reduce(_ state: BrowseState, _ intent: BrowseIntent) -> (BrowseState, [BrowseEffect]) {
        var next = state
        var effects: [BrowseEffect] = []
        apply(intent, to: &next, &effects)
        // First, so that a picture asked for by the same intent is not dropped with it.
        if abandonsPicture(from: state, to: next) { effects.insert(.dropPicture, at: 0) }
        if state.tab != next.tab { effects.insert(contentsOf: leaving(state.tab, &next), at: 0) }
        return (next, effects)
    }

    /// A screen left with loads in flight: they are cancelled (nothing more goes out for a screen
    /// nobody looks at), and asked for again on coming back.
    static func leaving(_ tab: BrowseTab, _ s: inout BrowseState) -> [BrowseEffect] {
        switch tab {
        case .home where s.home.inFlight:
            s.home.loading = false
            s.home.requested = false
            return [.cancelLoads(.home)]
        case .search where s.search.loading != nil:
            s.search.loading = nil
            s.search.advanceOnLoad = false
            s.search.interrupted = true
            return [.cancelLoads(.search)]
        default:
            return []
        }
    }

    static func apply(_ intent: BrowseIntent, to s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        switch intent {
        case .start:
            fx.append(.monitorPath)
            fx.append(.loadLikes)
            s.likes.loading = true
            if s.tab == .search && !s.search.query.isEmpty {
                fx.append(.recordQuery(s.search.query))
                newSearch(&s, &fx)
            } else {
                enter(s.tab, &s, &fx)
            }
        case .key(let key):
            handle(key, &s, &fx)
        case .paste(let text):
            guard s.prompt != nil else { return }
            s.prompt! += Sanitizer.clean(text)
        case .resize(let rows, let columns):
            s.rows = max(1, rows)
            s.columns = max(1, columns)
            clampAll(&s)
        case .homeKeywords(let result):
            // Home was left meanwhile: coming back reads them again.
            guard s.home.loading else { return }
            s.home.loading = false
            switch result {
            case .success(let keywords):
                s.home.sections = keywords.map { HomeSection(keyword: $0, content: .loading) }
                s.home.cursor = ListCursor()
                if s.networkBlocked {
                    s.home.waitingForNetwork = true
                    if s.network.isOffline { for index in keywords.indices { s.home.sections[index].content = .failed(offlineText(s)) } }
                } else {
                    for (index, keyword) in keywords.enumerated() { fx.append(.loadHomeSection(index: index, keyword: keyword)) }
                }
            case .failure(let failure):
                s.message = StatusMessage(failure.message, isError: true)
            }
        case .homeSection(let index, let keyword, let result):
            guard s.home.sections.indices.contains(index), s.home.sections[index].keyword == keyword else { return }
            switch result {
            case .success(let page): s.home.sections[index].content = .loaded(total: page.total, items: page.items)
            case .failure(let failure): s.home.sections[index].content = .failed(failure.message)
            }
            fixHomeSelection(&s)
        case .page(let generation, let skip, let result):
            pageArrived(generation: generation, skip: skip, result, &s, &fx)
        case .likesLoaded(let result):
            s.likes.loading = false
            switch result {
            case .success(let likes):
                s.likes.likes = LikesCommand.sorted(likes, by: s.likes.sort)
                s.likes.loaded = true
                s.likes.error = nil
                var liked: [String: String] = [:]
                for like in likes { liked[like.product.productId] = like.likedAt }
                // A like or unlike still being written keeps its new state.
                for (id, _) in s.pendingLikes { liked[id] = s.liked[id] }
                s.liked = liked
                clamp(&s.likes.cursor, count: s.likes.likes.count, rows: BrowseLayout.listRows(s))
            case .failure(let failure):
                s.likes.error = failure.message
                s.message = StatusMessage(failure.message, isError: true)
            }
        case .likeSaved(let id, let likedAt):
            s.pendingLikes[id] = nil
            if let likedAt { s.liked[id] = likedAt } else { s.liked[id] = nil }
            let title = product(withID: id, in: s).map { " " + DisplayWidth.truncate(Sanitizer.clean($0.title), toWidth: 60) } ?? ""
            s.message = StatusMessage((likedAt == nil ? "unliked: " : "liked: ") + Sanitizer.clean(id) + title)
        case .likeFailed(let id, let failure):
            if let before = s.pendingLikes[id] {
                s.liked[id] = before
                s.pendingLikes[id] = nil
            }
            s.message = StatusMessage(failure.message, isError: true)
        case .historyLoaded(let result):
            s.history.loading = false
            switch result {
            case .success(let entries):
                s.history.entries = entries
                s.history.loaded = true
                s.history.error = nil
                clamp(&s.history.cursor, count: entries.count, rows: BrowseLayout.listRows(s))
            case .failure(let failure):
                s.history.error = failure.message
                s.message = StatusMessage(failure.message, isError: true)
            }
        case .historyRemoved(let query, let failure):
            if let failure {
                s.message = StatusMessage(failure.message, isError: true)
                s.history.loading = true
                fx.append(.loadHistory)
            } else {
                s.message = StatusMessage("history: removed '\(Sanitizer.clean(query))'")
            }
        case .queryRecorded(let failure):
            if let failure {
                s.message = StatusMessage(failure.message + "; this search is not recorded in the history", isError: true)
            }
        case .linkDone(let message):
            s.message = message
        case .pictureLoaded(let id, let url, let result):
            pictureLoaded(productId: id, url: url, result, &s)
        case .trackedLoaded(let id, let record, let likedPrice):
            guard s.detail?.product.productId == id else { return }
            s.detail?.tracked = record.map { ProductCard.Tracked(record: $0, likedPrice: likedPrice) }
        case .path(let path):
            let was = s.network
            s.network = path.isSatisfied ? .online : .offline(reason: path.unsatisfiedReason ?? PathStatus.noDefaultRoute)
            if was.isOffline && !s.network.isOffline { s.message = StatusMessage("network back: \(path.interfaceSummary)") }
            clampAll(&s)
            resumeHeldRequests(&s, &fx)
        }
    }

    /// What a search says while offline (the banner gives the reason).
    static let offlineSearchText = "search needs the network: nothing is sent while offline"

    /// What a blocked request says in place of its answer.
    static func offlineText(_ s: BrowseState) -> String {
        if case .offline(let reason) = s.network { return "offline — \(reason); no request was sent" }
        return "offline; no request was sent"
    }

    /// A new search from rank 1 (a new query, another sort, a reload).
    static func newSearch(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        // The page of the search it replaces is not waited for.
        if s.search.loading != nil { fx.append(.cancelLoads(.search)) }
        s.search.interrupted = false
        s.search.generation += 1
        s.search.items = []
        s.search.total = nil
        s.search.loadedThrough = 0
        s.search.loading = nil
        s.search.error = nil
        s.search.advanceOnLoad = false
        s.search.waitingForNetwork = false
        s.search.cursor = ListCursor()
        loadNextPage(&s, &fx)
    }

    static func loadNextPage(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard s.search.loading == nil, !s.search.query.isEmpty else { return }
        let next: (start: Int, display: Int, skip: Int)?
        if s.search.total == nil {
            next = (1, s.search.size, 0)
        } else {
            next = BrowsePaging.next(loadedThrough: s.search.loadedThrough, limit: s.search.limit, size: s.search.size)
        }
        guard let next else { return }
        if s.networkBlocked {
            // Held until the path is up; said when it is known to be down.
            s.search.waitingForNetwork = true
            if s.network.isOffline { s.message = StatusMessage(offlineSearchText, isError: true) }
            return
        }
        s.search.loading = s.search.generation
        let request = SearchRequest(query: s.search.query, sort: s.search.sort, start: next.start, display: next.display)
        fx.append(.searchPage(generation: s.search.generation, request: request, skip: next.skip))
    }

    static func pageArrived(generation: Int, skip: Int, _ result: Result<SearchPage, BrowseFailure>,
                            _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard generation == s.search.generation, s.search.loading == generation else { return }
        s.search.loading = nil
        let before = s.search.items.count
        let advance = s.search.advanceOnLoad
        s.search.advanceOnLoad = false
        switch result {
        case .success(let page):
            s.search.total = max(0, page.total)
            s.search.error = nil
            for (index, product) in page.items.enumerated() where index >= skip {
                s.search.items.append(RankedProduct(rank: page.rank(of: index), product: product))
            }
            let (end, overflow) = page.start.addingReportingOverflow(max(page.display, page.items.count) - 1)
            var through = overflow ? s.search.limit : min(end, s.search.limit)
            // An empty answer ends the list (a server reporting more than it has).
            if page.items.isEmpty || through <= s.search.loadedThrough { through = s.search.limit }
            s.search.loadedThrough = through
            if advance && s.search.cursor.selection == before - 1 && s.search.items.count > before { s.search.cursor.selection = before }
        case .failure(let failure):
            s.search.error = failure.message
            s.message = StatusMessage(failure.message, isError: true)
        }
        clamp(&s.search.cursor, count: s.search.items.count, rows: BrowseLayout.listRows(s))
    }

    /// What the network held back goes out once the path is up; while it is known to be down, it says so.
    static func resumeHeldRequests(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        if s.network.isOffline {
            if s.search.waitingForNetwork && s.tab == .search {
                s.message = StatusMessage(offlineSearchText, isError: true)
            }
            if s.home.waitingForNetwork {
                for index in s.home.sections.indices where s.home.sections[index].content == .loading {
                    s.home.sections[index].content = .failed(offlineText(s))
                }
            }
            return
        }
        guard !s.networkBlocked else { return }
        if s.search.waitingForNetwork {
            s.search.waitingForNetwork = false
            loadNextPage(&s, &fx)
        }
        if s.home.waitingForNetwork {
            s.home.waitingForNetwork = false
            for (index, section) in s.home.sections.enumerated() {
                if case .loaded = section.content { continue }
                s.home.sections[index].content = .loading
                fx.append(.loadHomeSection(index: index, keyword: section.keyword))
            }
        }
    }

    static func enter(_ tab: BrowseTab, _ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        s.tab = tab
        s.detail = nil
        switch tab {
        case .home:
            if !s.home.requested { loadHome(&s, &fx) }
        case .search:
            if s.search.interrupted {
                s.search.interrupted = false
                loadNextPage(&s, &fx)
            }
        case .likes:
            if !s.likes.loading {
                s.likes.loading = true
                fx.append(.loadLikes)
            }
        case .history:
            if !s.history.loading {
                s.history.loading = true
                fx.append(.loadHistory)
            }
        }
    }

    static func loadHome(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        s.home.requested = true
        s.home.loading = true
        fx.append(.loadHomeKeywords)
    }

    static func product(withID id: String, in s: BrowseState) -> Product? {
        if let detail = s.detail, detail.product.productId == id { return detail.product }
        if let item = s.search.items.first(where: { $0.product.productId == id }) { return item.product }
        if let like = s.likes.likes.first(where: { $0.product.productId == id }) { return like.product }
        for section in s.home.sections {
            if case .loaded(_, let items) = section.content, let item = items.first(where: { $0.productId == id }) { return item }
        }
        return nil
    }
}
