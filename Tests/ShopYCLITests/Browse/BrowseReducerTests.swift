import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Pure: intent sequences → states and effects, for every screen and key.
final class BrowseReducerTests: XCTestCase {
    static func product(_ n: Int, title: String? = nil) -> Product {
        Product(productId: String(80_000_000 + n), title: title ?? "상품 \(n)", price: 1000 * n, mall: "몰\(n)", categories: ["생활", "방충망"],
                productType: 2, link: "https://smartstore.naver.com/p/\(n)", image: "https://shopping-phinf.pstatic.net/\(n).jpg")
    }

    static func page(_ query: String = "방충망", sort: ShopYBase.SortOrder = .sim, start: Int, count: Int, total: Int) -> SearchPage {
        SearchPage(query: query, sort: sort, source: .catalog, total: total, start: start, display: count,
                   items: (0..<count).map { product(start + $0) })
    }

    func run(_ state: BrowseState, _ intents: [BrowseIntent]) -> (BrowseState, [BrowseEffect]) {
        var state = state
        var all: [BrowseEffect] = []
        for intent in intents {
            let (next, effects) = BrowseReducer.reduce(state, intent)
            state = next
            all += effects
        }
        return (state, all)
    }

    func keys(_ text: String) -> [BrowseIntent] { text.unicodeScalars.map { .key(.char($0)) } }

    /// A Search screen with one page of 20 of `total` loaded, at 24 rows.
    func searched(total: Int = 1234, sort: ShopYBase.SortOrder = .sim) -> BrowseState {
        var state = BrowseState(source: .catalog, tab: .search, query: "방충망", sort: sort)
        state = run(state, [.start]).0
        return run(state, [.page(generation: 1, skip: 0, .success(Self.page(sort: sort, start: 1, count: 20, total: total)))]).0
    }

    func testStartOnHomeLoadsSectionsLikesAndMonitorsThePath() {
        let (state, effects) = run(BrowseState(source: .catalog), [.start])
        XCTAssertEqual(effects, [.monitorPath, .loadLikes, .loadHomeKeywords])
        XCTAssertEqual(state.tab, .home)
        let (loaded, more) = run(state, [.homeKeywords(.success(["고양이", "세제"]))])
        XCTAssertEqual(more, [.loadHomeSection(index: 0, keyword: "고양이"), .loadHomeSection(index: 1, keyword: "세제")])
        let (home, _) = run(loaded, [.homeSection(index: 1, keyword: "세제", .success(Self.page("세제", start: 1, count: 3, total: 3))),
                                     .homeSection(index: 0, keyword: "고양이", .failure(BrowseFailure("boom")))])
        XCTAssertEqual(home.home.sections[0].content, .failed("boom"))
        // The selection rests on the first item (headings and notes are skipped).
        XCTAssertEqual(BrowseReducer.selectedProduct(home)?.productId, "80000001")
        let (down, _) = run(home, [.key(.char("j")), .key(.char("j")), .key(.char("j"))])
        XCTAssertEqual(BrowseReducer.selectedProduct(down)?.productId, "80000003")
        let (up, _) = run(down, [.key(.char("g"))])
        XCTAssertEqual(BrowseReducer.selectedProduct(up)?.productId, "80000001")
        XCTAssertEqual(run(up, [.key(.char("r"))]).1, [.loadHomeKeywords])
    }

    func testStartWithAQuerySearchesAndRecordsIt() {
        let (state, effects) = run(BrowseState(source: .catalog, tab: .search, query: "방충망", sort: .asc, size: 20), [.start])
        XCTAssertEqual(effects, [.monitorPath, .loadLikes, .recordQuery("방충망"),
                                 .searchPage(generation: 1, request: SearchRequest(query: "방충망", sort: .asc, start: 1, display: 20), skip: 0)])
        XCTAssertEqual(state.search.loading, 1)
    }

    func testPromptTypesHangulBackspacesOneCharacterAndRuns() {
        var state = run(BrowseState(source: .catalog), [.start]).0
        state = run(state, [.key(.char("/"))] + keys("방충망x")).0
        XCTAssertEqual(state.prompt, "방충망x")
        state = run(state, [.key(.backspace)]).0
        XCTAssertEqual(state.prompt, "방충망")
        state = run(state, [.paste("\n자석")]).0
        XCTAssertEqual(state.prompt, "방충망 자석")
        // q types q in the prompt; it does not quit.
        state = run(state, keys("q") + [.key(.backspace)]).0
        XCTAssertFalse(state.quit)
        let (ran, effects) = run(state, [.key(.enter)])
        XCTAssertNil(ran.prompt)
        XCTAssertEqual(ran.search.query, "방충망 자석")
        XCTAssertEqual(effects, [.recordQuery("방충망 자석"),
                                 .searchPage(generation: 1, request: SearchRequest(query: "방충망 자석", start: 1, display: 20), skip: 0)])
        let cancelled = run(state, [.key(.escape)]).0
        XCTAssertNil(cancelled.prompt)
        XCTAssertEqual(cancelled.search.query, "")
        let blank = run(run(state, [.key(.ctrl("u"))]).0, [.key(.enter)])
        XCTAssertEqual(blank.0.message, StatusMessage("search needs a query", isError: true))
        XCTAssertTrue(blank.1.isEmpty)
    }

    func testScrollingPastTheLastRowLoadsTheNextPageUntilTheLimit() {
        var state = searched()
        XCTAssertEqual(state.search.items.count, 20)
        var (moved, effects) = run(state, Array(repeating: .key(.char("j")), count: 18))
        XCTAssertTrue(effects.isEmpty)
        (moved, effects) = run(moved, [.key(.down)])
        XCTAssertEqual(effects, [.searchPage(generation: 1, request: SearchRequest(query: "방충망", start: 21, display: 20), skip: 0)])
        // A second move while it loads sends nothing more.
        XCTAssertEqual(run(moved, [.page(generation: 1, skip: 0, .success(Self.page(start: 21, count: 20, total: 1234)))]).0.search.cursor.selection, 19,
                       "moving onto the last row stays there")
        let (waiting, none) = run(moved, [.key(.down)])
        XCTAssertTrue(none.isEmpty)
        state = run(waiting, [.page(generation: 1, skip: 0, .success(Self.page(start: 21, count: 20, total: 1234)))]).0
        XCTAssertEqual(state.search.items.map(\.rank), Array(1...40))
        XCTAssertEqual(state.search.loadedThrough, 40)
        XCTAssertEqual(state.search.cursor.selection, 20, "the move past the last row is taken once the page has come")
        // A stale answer (an older generation) changes nothing.
        XCTAssertEqual(run(state, [.page(generation: 0, skip: 0, .success(Self.page(start: 41, count: 20, total: 1234)))]).0, state)
    }

    func testPagingReachesRank1099ThroughAStart1000Page() {
        XCTAssertEqual(BrowsePaging.next(loadedThrough: 980, limit: 1099, size: 20).map { [$0.start, $0.display, $0.skip] }, [981, 20, 0])
        let last = BrowsePaging.next(loadedThrough: 1000, limit: 1099, size: 20)!
        XCTAssertEqual(last.start, 1000)
        XCTAssertEqual(last.display, 100)
        XCTAssertEqual(last.skip, 1)
        XCTAssertNil(BrowsePaging.next(loadedThrough: 1099, limit: 1099, size: 20))
        XCTAssertEqual(BrowsePaging.next(loadedThrough: 40, limit: 45, size: 20)!.display, 5)
        var state = searched(total: 30)
        XCTAssertEqual(state.search.limit, 30)
        state = run(state, [.key(.char("G"))]).0
        XCTAssertEqual(state.search.loading, 1)
        state = run(state, [.page(generation: 1, skip: 0, .success(Self.page(start: 21, count: 10, total: 30)))]).0
        XCTAssertFalse(state.search.canLoadMore)
        XCTAssertTrue(run(state, [.key(.char("G")), .key(.char("j"))]).1.isEmpty)
    }

    func testSortCyclesAndReloadsFromRankOne() {
        var state = run(searched(), Array(repeating: .key(.char("j")), count: 5)).0
        var orders: [ShopYBase.SortOrder] = []
        for _ in 0..<4 {
            let (next, effects) = run(state, [.key(.char("s"))])
            orders.append(next.search.sort)
            // The page of the previous sort, if still loading, is cancelled first.
            XCTAssertEqual(effects.first == .cancelLoads(.search), state.search.loading != nil, "\(effects)")
            guard case .searchPage(let generation, let request, _)? = effects.last else { return XCTFail("no search: \(effects)") }
            XCTAssertEqual(generation, next.search.generation)
            XCTAssertEqual(request.start, 1)
            XCTAssertEqual(request.sort, next.search.sort)
            XCTAssertEqual(next.search.cursor, ListCursor())
            XCTAssertTrue(next.search.items.isEmpty)
            state = next
        }
        XCTAssertEqual(orders, [.date, .asc, .dsc, .sim])
    }

    func testLikeChangesAtOnceAndRevertsOnFailure() {
        let state = searched()
        let (liking, effects) = run(state, [.key(.char("l"))])
        XCTAssertEqual(effects, [.like(Self.product(1))])
        XCTAssertNotNil(liking.liked["80000001"])
        // Pressing l again while it is written does not send a second write.
        XCTAssertTrue(run(liking, [.key(.char("l"))]).1.isEmpty)
        let failed = run(liking, [.likeFailed(productId: "80000001", BrowseFailure("cannot write likes.json: No space left on device"))]).0
        XCTAssertNil(failed.liked["80000001"])
        XCTAssertEqual(failed.message, StatusMessage("cannot write likes.json: No space left on device", isError: true))
        let saved = run(liking, [.likeSaved(productId: "80000001", likedAt: "2026-12-01T12:00:00Z")]).0
        XCTAssertEqual(saved.liked["80000001"], "2026-12-01T12:00:00Z")
        XCTAssertTrue(saved.pendingLikes.isEmpty)
        let (unliking, more) = run(saved, [.key(.char("l"))])
        XCTAssertEqual(more, [.unlike(productId: "80000001")])
        XCTAssertNil(unliking.liked["80000001"])
        let reverted = run(unliking, [.likeFailed(productId: "80000001", BrowseFailure("x"))]).0
        XCTAssertEqual(reverted.liked["80000001"], "2026-12-01T12:00:00Z")
    }

    func testDetailOpensOnEnterAndEscOrQGoesBack() {
        let state = run(searched(), [.key(.char("j")), .key(.enter)]).0
        XCTAssertEqual(state.detail?.product.productId, "80000002")
        XCTAssertEqual(state.detail?.rank, 2)
        XCTAssertNil(run(state, [.key(.escape)]).0.detail)
        let back = run(state, [.key(.char("q"))]).0
        XCTAssertNil(back.detail)
        XCTAssertFalse(back.quit)
        XCTAssertTrue(run(back, [.key(.char("q"))]).0.quit)
        XCTAssertEqual(run(state, [.key(.char("l"))]).1, [.like(Self.product(2))])
        XCTAssertEqual(run(state, [.key(.char("j")), .key(.char("j"))]).0.detail?.scroll, 2)
    }

    func testOpenAndCopyCheckTheLink() {
        let state = searched()
        XCTAssertEqual(run(state, [.key(.char("o"))]).1, [.open("https://smartstore.naver.com/p/1")])
        XCTAssertEqual(run(state, [.key(.char("c"))]).1, [.copy("https://smartstore.naver.com/p/1")])
        var bad = state
        bad.search.items[0].product.link = "javascript:alert(1)"
        let (refused, effects) = run(bad, [.key(.char("o"))])
        XCTAssertTrue(effects.isEmpty)
        XCTAssertEqual(refused.message?.isError, true)
        XCTAssertTrue(refused.message!.text.hasPrefix("product 80000001 has no http(s) link to open"))
    }

    func testTabsCycleAndNumbersJump() {
        var state = run(BrowseState(source: .catalog), [.start, .likesLoaded(.success([]))]).0
        // Home's keywords are still being read: leaving Home cancels its loads.
        XCTAssertEqual(run(state, keys("3")).1, [.cancelLoads(.home), .loadLikes])
        XCTAssertEqual(run(state, keys("4")).1, [.cancelLoads(.home), .loadHistory])
        var seen: [BrowseTab] = []
        for _ in 0..<4 {
            state = run(state, [.key(.tab)]).0
            seen.append(state.tab)
        }
        XCTAssertEqual(seen, [.search, .likes, .history, .home])
        XCTAssertEqual(run(state, [.key(.backTab)]).0.tab, .history)
        XCTAssertFalse(run(state, keys("3")).1.contains(.loadLikes), "no second read while one is in flight")
        let search = run(state, keys("2")).0
        XCTAssertEqual(search.tab, .search)
        XCTAssertNil(search.prompt)
        XCTAssertEqual(run(search, [.key(.enter)]).0.prompt, "", "Enter on an empty Search opens the prompt")
        XCTAssertEqual(run(search, keys("/") + [.key(.tab)]).0.tab, .likes, "Tab leaves the prompt")
    }

    func testLikesScreenSortsAndActs() {
        let likes = [Like(product: Self.product(3), likedAt: "2026-11-01T00:00:00Z", likedPrice: 3000),
                     Like(product: Self.product(1), likedAt: "2026-11-03T00:00:00Z", likedPrice: 1000),
                     Like(product: Self.product(2, title: "가"), likedAt: "2026-11-02T00:00:00Z", likedPrice: 2000)]
        var state = run(BrowseState(source: .catalog), [.start, .likesLoaded(.success(likes)), .key(.char("3"))]).0
        state = run(state, [.likesLoaded(.success(likes))]).0
        XCTAssertEqual(state.likes.likes.map(\.product.productId), ["80000001", "80000002", "80000003"], "newest first")
        XCTAssertEqual(Set(state.liked.keys), ["80000001", "80000002", "80000003"])
        state = run(state, keys("s")).0
        XCTAssertEqual(state.likes.sort, .price)
        XCTAssertEqual(state.likes.likes.map(\.product.price), [1000, 2000, 3000])
        state = run(state, keys("s")).0
        XCTAssertEqual(state.likes.sort, .title)
        state = run(state, keys("sj") + [.key(.enter)]).0
        XCTAssertEqual(state.detail?.product.productId, "80000002")
    }

    func testHistoryEnterSearchesAgainAndDRemoves() {
        let entries = [HistoryEntry(query: "고양이", at: "2026-12-01T10:00:00Z"), HistoryEntry(query: "세제", at: "2026-12-01T09:00:00Z")]
        var state = run(BrowseState(source: .catalog), [.start, .key(.char("4")), .historyLoaded(.success(entries))]).0
        let (removed, effects) = run(state, keys("d"))
        XCTAssertEqual(effects, [.removeHistory("고양이")])
        XCTAssertEqual(removed.history.entries.map(\.query), ["세제"])
        XCTAssertEqual(run(removed, [.historyRemoved(query: "고양이", BrowseFailure("damaged"))]).1, [.loadHistory])
        state = run(state, keys("j")).0
        let (again, searched) = run(state, [.key(.enter)])
        XCTAssertEqual(again.tab, .search)
        XCTAssertEqual(again.search.query, "세제")
        XCTAssertEqual(searched.first, .recordQuery("세제"))
    }

    func testOfflineShowsTheReasonAndSendsNoRequestOnNaver() {
        var state = BrowseState(source: .naver, tab: .search, query: "신발")
        state = run(state, [.path(PathStatus(status: .unsatisfied, unsatisfiedReason: "no interface with a default route"))]).0
        let (blocked, effects) = run(state, [.start])
        XCTAssertFalse(effects.contains { if case .searchPage = $0 { return true } else { return false } })
        XCTAssertEqual(blocked.network, .offline(reason: "no interface with a default route"))
        XCTAssertEqual(blocked.message, StatusMessage("search needs the network: nothing is sent while offline", isError: true))
        let back = run(blocked, [.path(PathStatus(status: .satisfied, interfaces: [NetworkInterface(name: "eth0", type: .ethernet)]))]).0
        XCTAssertEqual(back.network, .online)
        XCTAssertEqual(back.message?.text, "network back: ethernet eth0")
        XCTAssertEqual(back.search.loading, back.search.generation, "the held search goes out when the path is back")
        // Before the monitor's first reading nothing goes to Naver either; it goes once the path is known to be up.
        let (waiting, none) = run(BrowseState(source: .naver, tab: .search, query: "신발"), [.start])
        XCTAssertFalse(none.contains { if case .searchPage = $0 { return true } else { return false } })
        XCTAssertNil(waiting.message)
        let (online, sent) = run(waiting, [.path(PathStatus(status: .satisfied, interfaces: [NetworkInterface(name: "eth0", type: .ethernet)]))])
        XCTAssertEqual(sent, [.searchPage(generation: 1, request: SearchRequest(query: "신발", start: 1, display: 20), skip: 0)])
        XCTAssertNil(online.message)
        // Home's sections wait the same way.
        let home = run(BrowseState(source: .naver), [.start, .homeKeywords(.success(["신발", "옷"]))])
        XCTAssertFalse(home.1.contains { if case .loadHomeSection = $0 { return true } else { return false } })
        XCTAssertEqual(run(home.0, [.path(PathStatus(status: .satisfied))]).1, [.loadHomeSection(index: 0, keyword: "신발"), .loadHomeSection(index: 1, keyword: "옷")])
        let down = run(home.0, [.path(PathStatus(status: .unsatisfied, unsatisfiedReason: "no interface with a default route"))]).0
        XCTAssertEqual(down.home.sections[0].content, .failed("offline — no interface with a default route; no request was sent"))
        // The catalog needs no network: the banner only informs.
        var catalog = BrowseState(source: .catalog, tab: .search, query: "방충망")
        catalog = run(catalog, [.path(PathStatus(status: .unsatisfied, unsatisfiedReason: "x"))]).0
        XCTAssertTrue(run(catalog, [.start]).1.contains { if case .searchPage = $0 { return true } else { return false } })
    }

    func testErrorsStayInTheStatusLineAndNeverQuit() {
        let state = run(BrowseState(source: .catalog, tab: .search, query: "방충망"), [.start]).0
        let failed = run(state, [.page(generation: 1, skip: 0, .failure(BrowseFailure("the request timed out after 10 seconds")))]).0
        XCTAssertFalse(failed.quit)
        XCTAssertEqual(failed.message, StatusMessage("the request timed out after 10 seconds", isError: true))
        XCTAssertEqual(failed.search.error, "the request timed out after 10 seconds")
        XCTAssertEqual(run(failed, keys("r")).1.count, 1)
    }

    func testHelpOverlayCtrlCAndPaging() {
        var state = searched()
        state = run(state, keys("?")).0
        XCTAssertTrue(state.showHelp)
        XCTAssertFalse(run(state, keys("q")).0.showHelp)
        XCTAssertFalse(run(state, keys("q")).0.quit, "q closes the overlay first")
        XCTAssertTrue(run(state, [.key(.ctrl("c"))]).0.quit)
        var prompt = searched()
        prompt.prompt = "ab"
        XCTAssertTrue(run(prompt, [.key(.ctrl("c"))]).0.quit, "Ctrl-C quits from the prompt too")
        state = run(searched(), [.resize(rows: 12, columns: 80)]).0
        let rows = BrowseLayout.listRows(state)
        XCTAssertEqual(rows, 9)
        state = run(state, [.key(.pageDown)]).0
        XCTAssertEqual(state.search.cursor.selection, rows)
        XCTAssertEqual(state.search.cursor.scroll, 1)
        state = run(state, [.key(.pageUp)]).0
        XCTAssertEqual(state.search.cursor.selection, 0)
        XCTAssertEqual(state.search.cursor.scroll, 0)
        state = run(state, [.key(.end)]).0
        XCTAssertEqual(state.search.cursor.selection, 19)
        state = run(state, [.key(.home), .key(.char("k"))]).0
        XCTAssertEqual(state.search.cursor.selection, 0)
    }

    func testReloadOnEveryScreen() {
        var state = run(BrowseState(source: .catalog), [.start, .likesLoaded(.success([])), .homeKeywords(.success([]))]).0
        XCTAssertEqual(run(state, keys("r")).1, [.loadHomeKeywords])
        state = run(state, keys("3") + [.likesLoaded(.success([]))]).0
        XCTAssertEqual(run(state, keys("r")).1, [.loadLikes])
        state = run(state, keys("4") + [.historyLoaded(.success([]))]).0
        XCTAssertEqual(run(state, keys("r")).1, [.loadHistory])
        XCTAssertTrue(run(run(state, keys("2")).0, keys("r")).1.isEmpty, "an empty Search has nothing to reload")
        let detail = run(searched(), [.likesLoaded(.success([])), .key(.enter)]).0
        XCTAssertEqual(run(detail, keys("r")).1, [.loadLikes], "Detail re-reads its liked state")
        XCTAssertEqual(run(detail, keys("o")).1, [.open("https://smartstore.naver.com/p/1")])
        XCTAssertEqual(run(detail, keys("c")).1, [.copy("https://smartstore.naver.com/p/1")])
    }
}
