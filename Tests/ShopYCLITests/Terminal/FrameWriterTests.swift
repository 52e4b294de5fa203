import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class FrameWriterTests: XCTestCase {
    func state() -> BrowseState {
        var s = BrowseState(source: .catalog, tab: .search, query: "방충망")
        s.search.total = 1234
        s.search.loadedThrough = 100
        s.search.items = (1...100).map { n in
            RankedProduct(rank: n, product: Product(productId: String(80_000_000 + n), title: n % 3 == 0 ? "👨‍👩‍👧 가족 세트 e\u{301}" : "자석 방충망 \(n)",
                                                    price: 990 * n, mall: "몰"))
        }
        return s
    }

    /// Replaying the bytes on a model terminal gives the frame, cell for cell.
    func assertScreen(_ screen: TerminalScreen, shows frame: Frame, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(screen.lines, frame.plainText, file: file, line: line)
    }

    func testFullThenDiffReproducesEveryFrame() {
        var s = state()
        var screen = TerminalScreen(rows: 24, columns: 80)
        screen.feed(Array(TerminalModes.enterSequence.utf8))
        var previous: Frame?
        for intent: BrowseIntent in [.key(.char("j")), .key(.pageDown), .key(.char("?")), .key(.char("x")), .key(.char("/")),
                                     .key(.char("고")), .key(.backspace), .key(.escape), .key(.end)] {
            s = BrowseReducer.reduce(s, intent).0
            let frame = BrowseRender.render(s, rows: 24, columns: 80)
            screen.feed(FrameWriter.diff(from: previous, to: frame))
            assertScreen(screen, shows: frame)
            XCTAssertEqual(screen.cursorVisible, frame.cursor != nil, "\(intent)")
            previous = frame
        }
    }

    func testAOneRowMoveRewritesOnlyTheTwoChangedLines() {
        let s = state()
        let before = BrowseRender.render(s, rows: 50, columns: 132)
        let after = BrowseRender.render(BrowseReducer.reduce(s, .key(.char("j"))).0, rows: 50, columns: 132)
        let bytes = FrameWriter.diff(from: before, to: after)
        let moves = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}[").filter { $0.first?.isNumber == true && $0.contains(";1H") }
        XCTAssertEqual(moves.count, 2, "rows 3 and 4 only")
        XCTAssertTrue(bytes.count < 2 * 132 * 4, "\(bytes.count) bytes")
        XCTAssertEqual(FrameWriter.diff(from: after, to: after), [], "nothing changed, nothing written")
    }

    func testWithoutColourOnlyBoldDimAndReverseAreDrawn() {
        var s = state()
        s.message = StatusMessage("boom", isError: true)
        s.liked["80000001"] = "x"
        let frame = BrowseRender.render(s, rows: 24, columns: 80)
        let coloured = String(decoding: FrameWriter.diff(from: nil, to: frame), as: UTF8.self)
        let plain = String(decoding: FrameWriter.diff(from: nil, to: frame, color: false), as: UTF8.self)
        XCTAssertTrue(coloured.contains("\u{1B}[0;31m"))
        XCTAssertFalse(plain.contains(";31m"))
        XCTAssertTrue(plain.contains("\u{1B}[0;7m"), "the selection is still reverse video")
    }

    func testAResizeRedrawsEverything() {
        let s = state()
        let small = BrowseRender.render(s, rows: 24, columns: 80)
        let large = BrowseRender.render(s, rows: 30, columns: 100)
        var screen = TerminalScreen(rows: 30, columns: 100)
        screen.feed(FrameWriter.diff(from: small, to: large))
        assertScreen(screen, shows: large)
    }
}

/// The effect runner turns services' answers (and failures, in the subcommands' words) into intents.
final class BrowseEffectRunnerTests: XCTestCase {
    final class FakeServices: BrowseServices, @unchecked Sendable {
        var sourceKind: SourceKind { .catalog }
        let lock = NSLock()
        var liked: [String] = []
        func popularKeywords() throws -> [String] { ["고양이"] }
        func search(_ request: SearchRequest) async throws -> SearchPage {
            if request.query == "fail" { throw SourceError.timeout(seconds: 10, host: "openapi.naver.com") }
            return SearchPage(query: request.query, sort: request.sort, source: .catalog, total: 1, start: request.start, display: 1,
                              items: [Product(productId: "80000001", title: "t")])
        }
        var sections: [String] = []
        func section(_ keyword: String, count: Int) async throws -> SearchPage {
            lock.withLock { sections.append("\(keyword) \(count)") }
            return try await search(TopItems.request(keyword, count: count))
        }
        func recordQuery(_ query: String) throws {}
        func likes() throws -> [Like] { throw StoreError.damaged(path: "/h/likes.json", problem: "it is not valid JSON") }
        func like(_ product: Product) throws -> String { lock.withLock { liked.append(product.productId) }; return "2026-12-01T00:00:00Z" }
        func unlike(_ productId: String) throws { throw StoreError.io(path: "/h/likes.json", operation: "write", errno: ENOSPC) }
        func history() throws -> [HistoryEntry] { [] }
        func removeHistory(_ query: String) throws {}
        func open(_ link: String) -> StatusMessage { StatusMessage("opened \(link)") }
        func copy(_ link: String) -> StatusMessage { StatusMessage("copied \(link)") }
        func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void {
            onChange(PathStatus(status: .unsatisfied, unsatisfiedReason: "no interface with a default route"))
            return {}
        }
    }

    func collect(_ effects: [BrowseEffect], count: Int) -> [BrowseIntent] {
        final class Box: @unchecked Sendable { var intents: [BrowseIntent] = [] }
        let lock = NSLock()
        let box = Box()
        let done = expectation(description: "intents")
        done.expectedFulfillmentCount = count
        let runner = BrowseEffectRunner(services: FakeServices()) { intent in
            lock.withLock { box.intents.append(intent) }
            done.fulfill()
        }
        for effect in effects { runner.run(effect) }
        wait(for: [done], timeout: 10)
        runner.stop()
        return lock.withLock { box.intents }
    }

    func testEveryEffectAnswersWithAnIntent() {
        let product = Product(productId: "80000001", title: "t")
        let intents = collect([.monitorPath, .like(product), .unlike(productId: "80000001"), .loadLikes, .loadHomeKeywords,
                               .searchPage(generation: 3, request: SearchRequest(query: "fail"), skip: 0), .open("https://a.example/"), .copy("https://a.example/")],
                              count: 8)
        XCTAssertTrue(intents.contains(.path(PathStatus(status: .unsatisfied, unsatisfiedReason: "no interface with a default route"))))
        XCTAssertTrue(intents.contains(.likeSaved(productId: "80000001", likedAt: "2026-12-01T00:00:00Z")))
        let unlikeWords = StoreError.io(path: "/h/likes.json", operation: "write", errno: ENOSPC).message
        XCTAssertTrue(intents.contains(.likeFailed(productId: "80000001", BrowseFailure(unlikeWords))), "the words of shopy unlike")
        XCTAssertTrue(intents.contains(.likesLoaded(.failure(BrowseFailure(StoreError.damaged(path: "/h/likes.json", problem: "it is not valid JSON").message)))))
        XCTAssertTrue(intents.contains(.homeKeywords(.success(["고양이"]))))
        XCTAssertTrue(intents.contains(.page(generation: 3, skip: 0, .failure(BrowseFailure(SourceError.timeout(seconds: 10, host: "openapi.naver.com").message)))))
        XCTAssertTrue(intents.contains(.linkDone(StatusMessage("copied https://a.example/"))))
        // Store effects run in order: the like was written before the unlike was tried.
        let order = intents.compactMap { intent -> String? in
            switch intent {
            case .likeSaved: return "like"
            case .likeFailed: return "unlike"
            default: return nil
            }
        }
        XCTAssertEqual(order, ["like", "unlike"])
    }

    /// A Home section is the shared top-items fetch of the services (as popular and the widget
    /// fetch theirs), not a request the runner builds.
    func testHomeSectionsGoThroughTheSharedSectionService() {
        let services = FakeServices()
        let done = expectation(description: "section")
        final class Box: @unchecked Sendable { var intent: BrowseIntent? }
        let box = Box()
        let runner = BrowseEffectRunner(services: services) { intent in
            box.intent = intent
            done.fulfill()
        }
        runner.run(.loadHomeSection(index: 2, keyword: "고양이"))
        wait(for: [done], timeout: 10)
        runner.stop()
        XCTAssertEqual(services.lock.withLock { services.sections }, ["고양이 \(BrowseEffectRunner.sectionSize)"])
        guard case .homeSection(index: 2, keyword: "고양이", .success(let page))? = box.intent else { return XCTFail("\(String(describing: box.intent))") }
        XCTAssertEqual(page.query, "고양이")
        XCTAssertEqual(page.start, 1)
        XCTAssertEqual(page.sort, .sim)
    }
}
