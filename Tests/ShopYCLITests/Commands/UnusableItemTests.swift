// Items of an answer without a usable productId — no key at all, null, "", a number too long, an
// object, or an item that is not an object — are left out of the page and counted; the rest is
// listed. One such item never makes the whole answer fail.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class UnusableItemTests: XCTestCase {
    /// Five items without a usable productId around two good ones.
    static let items = [
        #"{"title":"no id"}"#,
        HostileRun.item("81813683218"),
        #"{"title":"null id","productId":null}"#,
        #"{"title":"empty id","productId":""}"#,
        #"{"title":"object id","productId":{"a":1}}"#,
        "null",
        HostileRun.item("27364551122"),
    ]

    func testTheAnswerDecodesAndThePageLeavesThemOut() throws {
        let body = HostileRun.answer(total: 7, start: 1, display: 7, items: Self.items)
        let wire = try WireSearchResponse(body: Array(body.utf8))
        XCTAssertEqual(wire.items.count, 7, "every item is counted against display")
        XCTAssertNil(AnswerCheck.problem(in: wire, for: SearchRequest(query: "q", sort: .sim, start: 1, display: 7)))
        let page = ProductMapper.page(from: wire, query: "q", sort: .sim, source: .naver)
        XCTAssertEqual(page.items.map(\.productId), ["81813683218", "27364551122"])
        XCTAssertEqual(page.dropped, 5)
    }

    func testSearchListsTheRestAndVerboseCountsThem() async throws {
        let home = HostileRun.tempHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let body = HostileRun.answer(total: 7, start: 1, display: 7, items: Self.items)
        var run = await HostileRun.run(["search", "후드티", "--verbose", "--format", "tsv"], transport: ScriptedTransport.json(body), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("dropped 5 of 7 items without a usable productId"), run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").map { $0.split(separator: "\t")[1] }, ["81813683218", "27364551122"], run.stdout)
        // The rows are the listed ones: row 2 is the second good item.
        run = await HostileRun.run(["like", "2"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: liked: 27364551122"), run.stderr)
    }

    func testRankSkipsThemToo() async throws {
        let body = HostileRun.answer(total: 7, start: 1, display: 7, items: Self.items)
        let run = await HostileRun.run(["rank", "후드티", "--product", "27364551122", "--depth", "100", "--format", "tsv"],
                                       transport: ScriptedTransport.json(body))
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("27364551122"), run.stdout)
    }

    /// Other damage in an item is still bad data: only a missing productId is forgiven.
    func testAnItemWithAUsableIdButAWrongTitleTypeStillFails() async throws {
        let body = HostileRun.answer(total: 1, start: 1, display: 1, items: [#"{"productId":"81813683218","title":{"x":1}}"#])
        let run = await HostileRun.run(["search", "후드티"], transport: ScriptedTransport.json(body))
        XCTAssertEqual(run.code, 65, run.stderr)
    }
}
