// An answer's item whose lprice is not a positive whole number of won (the contract's "0" and
// "", and a negative one) has an unknown price: listed with an empty price, never dropped and
// never bad data (docs/guide.md, "Everything from the server is checked").

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class UnknownPriceItemTests: XCTestCase {
    func testItemsWithoutAUsablePriceAreListedWithAnEmptyPrice() async throws {
        let prices = ["-1500", "0", "", "-0", "12.5", "abc", "900"]
        let items = prices.enumerated().map { i, lprice in
            String(decoding: JSONWriter.serialize(WireItem(title: "상품 \(i)", link: "https://example.test/\(i)", lprice: lprice,
                                                             productId: "5000000000\(i)").json), as: UTF8.self)
        }
        let body = HostileRun.answer(total: prices.count, start: 1, display: prices.count, items: items)
        let tsv = await HostileRun.run(["search", "상품", "--size", "\(prices.count)", "--format", "tsv"], transport: ScriptedTransport.json(body))
        XCTAssertEqual(tsv.code, 0, tsv.stderr)
        let rows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        XCTAssertEqual(rows.map { String($0[1]) }, prices.indices.map { "5000000000\($0)" }, "every item listed, none dropped")
        XCTAssertEqual(rows.map { String($0[2]) }, ["", "", "", "", "", "", "900"])

        let json = await HostileRun.run(["search", "상품", "--size", "\(prices.count)", "--json"], transport: ScriptedTransport.json(body))
        XCTAssertEqual(json.code, 0, json.stderr)
        let document = try JSONParser.parse(Array(json.stdout.utf8))
        guard case .array(let listed)? = document["items"] else { return XCTFail(json.stdout) }
        XCTAssertEqual(listed.map { $0["price"] }, [.null, .null, .null, .null, .null, .null, .int(900)], json.stdout)
    }
}
