import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCoreTestSupport
import ShopYTestSupport

/// One listing from several sources: asked at once, merged in one service.
final class SourceMergeTests: XCTestCase {
    func product(_ id: String, _ price: Int?, _ source: SourceKind) -> Product {
        Product(productId: id, title: id, price: price, source: source)
    }

    lazy var eleven = FixedSource(kind: .elevenst, outcome: .success([product("11st:1", 300, .elevenst), product("11st:2", 100, .elevenst),
                                                                      product("11st:3", nil, .elevenst)]), total: 1000)
    lazy var coupang = FixedSource(kind: .coupang, outcome: .success([product("coupang:1", 200, .coupang), product("coupang:2", 100, .coupang)]))

    func testSimInterleavesTheSourcesOrders() async throws {
        let page = try await SourceMerge([eleven, coupang]).search(SearchRequest(query: "q", sort: .sim, start: 1, display: 3))
        XCTAssertEqual(page.items.map(\.productId), ["11st:1", "coupang:1", "11st:2", "coupang:2", "11st:3"])
        XCTAssertEqual(page.total, 1002, "the sum")
        XCTAssertEqual(page.sources, [.elevenst, .coupang])
        XCTAssertEqual(page.source, .elevenst)
        XCTAssertEqual(page.start, 1)
        XCTAssertEqual(page.display, 5)
        XCTAssertEqual(page.failures, [])
    }

    func testPriceSortsOrderEveryItem() async throws {
        let asc = try await SourceMerge([eleven, coupang]).search(SearchRequest(query: "q", sort: .asc, start: 1, display: 3))
        XCTAssertEqual(asc.items.map(\.productId), ["11st:2", "coupang:2", "coupang:1", "11st:1", "11st:3"], "ties in round-robin order, unknown last")
        let dsc = try await SourceMerge([eleven, coupang]).search(SearchRequest(query: "q", sort: .dsc, start: 1, display: 3))
        XCTAssertEqual(dsc.items.map(\.productId), ["11st:1", "coupang:1", "11st:2", "coupang:2", "11st:3"])
    }

    func testPagesKeepRowsUnique() async throws {
        let page = try await SourceMerge([eleven, coupang]).search(SearchRequest(query: "q", sort: .sim, start: 21, display: 20))
        XCTAssertEqual(page.start, 41, "page 2 of two sources at size 20 starts at 41")
        XCTAssertEqual(page.rank(of: 0), 41)
    }

    func testAFailingSourceIsNamedAndTheOthersListed() async throws {
        let failing = FixedSource(kind: .coupang, outcome: .failure(.coupangBudgetSpent(budget: 10, next: "12:00:00 (in 5 min)")))
        let page = try await SourceMerge([eleven, failing]).search(SearchRequest(query: "q"))
        XCTAssertEqual(page.items.count, 3)
        XCTAssertEqual(page.failures.map(\.source), [.coupang])
        XCTAssertEqual(page.total, 1000)
    }

    func testEverySourceFailingIsTheFirstFailure() async {
        let a = FixedSource(kind: .elevenst, outcome: .failure(.timeout(seconds: 10, host: "openapi.11st.co.kr")))
        let b = FixedSource(kind: .coupang, outcome: .failure(.coupangHeld(until: "later")))
        do {
            _ = try await SourceMerge([a, b]).search(SearchRequest(query: "q"))
            XCTFail("every source failed")
        } catch {
            XCTAssertEqual(error as? SourceError, .timeout(seconds: 10, host: "openapi.11st.co.kr"), "the first in the sources' order")
        }
    }

    func testSourcesAreAskedAtOnce() async throws {
        // Each answers only once both are being asked: asked one after the other, the first
        // would wait for the second in vain.
        let meeting = Meeting(of: 2)
        var first = eleven
        first.meeting = meeting
        var second = coupang
        second.meeting = meeting
        let page = try await SourceMerge([first, second]).search(SearchRequest(query: "q"))
        XCTAssertTrue(meeting.met, "both in flight together, not one after the other")
        XCTAssertEqual(page.sources, [.elevenst, .coupang])
    }

    func testOneSourceIsItself() async throws {
        let page = try await SourceMerge([coupang]).search(SearchRequest(query: "q", start: 1, display: 2))
        XCTAssertEqual(page.sources, [.coupang])
        XCTAssertEqual(page.items.count, 2)
    }
}
