import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Detail's picture in browse's MVI: state set by the effect's answer, a pure render that gives
/// the picture its region by the window's shape, and a writer that leaves the region alone.
final class BrowsePictureStateTests: XCTestCase {
    /// The reducer steps of `BrowseReducerTests` (its helpers, without an instance of it).
    enum helper {
        static func run(_ state: BrowseState, _ intents: [BrowseIntent]) -> (BrowseState, [BrowseEffect]) {
            var state = state
            var all: [BrowseEffect] = []
            for intent in intents {
                let (next, effects) = BrowseReducer.reduce(state, intent)
                state = next
                all += effects
            }
            return (state, all)
        }

        static func searched() -> BrowseState {
            let state = run(BrowseState(source: .catalog, tab: .search, query: "방충망"), [.start]).0
            return run(state, [.page(generation: 1, skip: 0, .success(BrowseReducerTests.page(start: 1, count: 20, total: 1234)))]).0
        }
    }
    let choice = GraphicsChoice(drawing: .symbols, colors: .truecolor, tmuxPassthrough: false, why: "test")
    let picture = DecodedPicture(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16), source: "x")

    func searched(graphics: Result<GraphicsChoice, PictureFailure>? = nil, rows: Int = 24, columns: Int = 120) -> BrowseState {
        var state = helper.searched()
        state.graphics = graphics ?? .success(choice)
        return helper.run(state, [.resize(rows: rows, columns: columns)]).0
    }

    func testEnterAsksForThePictureAndOnlyItsAnswerIsKept() {
        let (state, effects) = helper.run(searched(), [.key(.enter)])
        let product = BrowseReducerTests.product(1)
        XCTAssertEqual(state.detail?.picture, .loading)
        XCTAssertTrue(effects.contains(.loadPicture(productId: product.productId, url: product.image!)), "\(effects)")
        // Another product's answer (a Detail left and another opened) is dropped.
        let stale = helper.run(state, [.pictureLoaded(productId: "1", url: "x", .success(picture))]).0
        XCTAssertEqual(stale.detail?.picture, .loading)
        let ready = helper.run(state, [.pictureLoaded(productId: product.productId, url: product.image!, .success(picture))]).0
        XCTAssertEqual(ready.detail?.picture, .ready(picture))
        // Leaving Detail leaves the picture with it; a late answer changes nothing.
        let left = helper.run(state, [.key(.escape), .pictureLoaded(productId: product.productId, url: product.image!, .success(picture))]).0
        XCTAssertNil(left.detail)
    }

    func testNoGraphicsNoRequest() {
        let (off, effects) = helper.run(searched(graphics: .failure(.off("pictures are off"))), [.key(.enter)])
        XCTAssertEqual(off.detail?.picture, DetailPicture.none)
        XCTAssertFalse(effects.contains { if case .loadPicture = $0 { return true } else { return false } })
        let missing = helper.run(searched(graphics: .failure(.missingLibrary(.chafa, reason: "gone"))), [.key(.enter)]).0
        XCTAssertEqual(missing.detail?.picture, .failed(.missingLibrary(.chafa, reason: "gone")))
        let frame = BrowseRender.render(missing, rows: 24, columns: 120)
        XCTAssertTrue(frame.plainText.joined(separator: "\n").contains("hint: pictures need libchafa"), frame.plainText.joined(separator: "\n"))
        XCTAssertTrue(frame.plainText.contains { $0.hasPrefix("link      https://") })
    }

    func testTheRegionFollowsTheWindowsShape() {
        let product = BrowseReducerTests.product(1)
        var state = helper.run(searched(), [.key(.enter), .pictureLoaded(productId: product.productId, url: product.image!, .success(picture))]).0
        let wide = BrowseRender.render(state, rows: 24, columns: 120)
        XCTAssertEqual(wide.picture?.region, PictureRegion(row: 2, column: 72, rows: 21, columns: 48))
        XCTAssertTrue(wide.plainText[2..<23].allSatisfy { DisplayWidth.of($0) <= 71 }, "the card keeps left of the picture: \(wide.plainText)")
        let tall = BrowseRender.render(state, rows: 40, columns: 80)
        XCTAssertEqual(tall.picture?.region, PictureRegion(row: 2, column: 0, rows: 16, columns: 80))
        XCTAssertTrue(tall.plainText[2..<18].allSatisfy { $0.isEmpty }, "the card starts below the picture")
        // The help overlay is text: the picture steps aside.
        state.showHelp = true
        XCTAssertNil(BrowseRender.render(state, rows: 24, columns: 120).picture)
        // Loading says so in the region.
        let loading = helper.run(searched(), [.key(.enter)]).0
        XCTAssertTrue(BrowseRender.render(loading, rows: 24, columns: 120).text(2).contains("loading…"))
    }

    func testTheWriterLeavesAPlacedPicturesCellsAlone() {
        let product = BrowseReducerTests.product(1)
        let state = helper.run(searched(), [.key(.enter), .pictureLoaded(productId: product.productId, url: product.image!, .success(picture))]).0
        let before = BrowseRender.render(state, rows: 24, columns: 120)
        var after = before
        // A line that crosses the region changes on both sides of it.
        after.put(String(repeating: "x", count: 120), row: 5, column: 0)
        let bytes = String(decoding: FrameWriter.diff(from: before, to: after), as: UTF8.self)
        XCTAssertTrue(bytes.contains(String(repeating: "x", count: 72)), bytes)
        XCTAssertFalse(bytes.contains(String(repeating: "x", count: 73)), "the region's cells are skipped: \(bytes)")
        // The first frame with a region writes it blank (the driver places the picture after).
        let first = String(decoding: FrameWriter.diff(from: nil, to: after), as: UTF8.self)
        XCTAssertTrue(first.contains(String(repeating: "x", count: 120)))
    }

    func testALikedProductShowsItsTrackedPrices() {
        var state = searched()
        state.liked[BrowseReducerTests.product(1).productId] = "2026-12-01T00:00:00Z"
        let id = BrowseReducerTests.product(1).productId
        let (opened, effects) = helper.run(state, [.key(.enter)])
        XCTAssertTrue(effects.contains(.loadTracked(productId: id)))
        var record = PriceRecord()
        record.record(PricePoint(at: "2026-12-01T00:00:00Z", price: 1000))
        record.record(PricePoint(at: "2026-12-02T00:00:00Z", price: 800))
        let tracked = helper.run(opened, [.trackedLoaded(productId: id, record: record, likedPrice: 1000)]).0
        let text = BrowseRender.render(tracked, rows: 40, columns: 80).plainText.joined(separator: "\n")
        XCTAssertTrue(text.contains("price now 800원  ▼ 20% since liked (1,000원)"), text)
        XCTAssertTrue(text.contains("lowest    800원"), text)
        XCTAssertTrue(text.contains("history   "), text)
    }
}
