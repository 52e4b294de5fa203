// `likes --json` exposes the all-time highest price the history keeps, beside the lowest, in both
// of its ways of writing (from the stored bytes before any refresh, and decoded after one).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesHighestPriceTests: StoreDirectoryTestCase {
    /// A store whose directory does not exist yet (shopy creates it).
    func makeStore() -> SettingsStore { SettingsStore(directory: directory + "/home") }

    func product(_ id: String, price: Int? = 12_900, title: String = "상품") -> Product {
        Product(productId: id, title: title, price: price, highPrice: price.map { $0 * 2 }, mall: "몰", brand: "브랜드", maker: nil,
                categories: ["생활/건강", "생활용품"], productType: 2, link: "https://example.com/\(id)",
                image: "https://example.com/\(id).jpg")
    }

    func like(_ id: String, price: Int? = 12_900, title: String = "상품", at likedAt: String = "2026-01-02T03:04:05Z") -> Like {
        Like(product: product(id, price: price, title: title), likedAt: likedAt, likedPrice: price)
    }

    func likesJSON(_ arguments: [String] = []) async throws -> [JSONValue] {
        let run = await Shell.run(["likes", "--format", "json"] + arguments, environment: ["SHOPY_HOME": directory + "/home"])
        XCTAssertEqual(run.code, 0, run.stderr)
        return try XCTUnwrap(try JSONParser.parse(Array(run.stdout.utf8))["items"]?.arrayValue, run.stdout)
    }

    func keys(_ item: JSONValue) -> [String] {
        guard case .object(let object) = item else { return [] }
        return object.keys
    }

    func testHighestIsNullBeforeAnyRefresh() async throws {
        let store = makeStore()
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like("111", price: 9_900))
            settings.likes = likes
        }
        for format in ["json", "jsonl"] {
            let run = await Shell.run(["likes", "--format", format], environment: ["SHOPY_HOME": store.directory])
            XCTAssertEqual(run.code, 0, run.stderr)
            let parsed = try JSONParser.parse(Array(run.stdout.utf8))
            let item = try XCTUnwrap(format == "json" ? parsed["items"]?.arrayValue?.first : parsed, run.stdout)
            XCTAssertEqual(item["highest"], JSONValue.null, run.stdout)
            let names = keys(item)
            XCTAssertEqual(names.firstIndex(of: "highest"), names.firstIndex(of: "lowest").map { $0 + 1 }, "highest right after lowest: \(names)")
        }
    }

    func testHighestIsTheAllTimeHighestPriceSeen() async throws {
        let store = makeStore()
        try store.update([.likes, .prices]) { settings in
            var likes = settings.likes
            likes.add(like("111", price: 9_900))
            likes.add(like("222", price: 5_000))
            settings.likes = likes
            var record = PriceRecord()
            record.record(PricePoint(at: "2026-12-01T00:00:00Z", price: 9_000))
            record.record(PricePoint(at: "2026-12-02T00:00:00Z", price: 12_500))
            record.record(PricePoint(at: "2026-12-03T00:00:00Z", price: 8_000))
            var book = PriceBook()
            book["111"] = record
            settings.prices = book
        }
        let items = try await likesJSON()
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0["productId"]!.stringValue!, $0) })
        XCTAssertEqual(byID["111"]?["highest"]?.intValue, 12_500)
        XCTAssertEqual(byID["111"]?["lowest"]?.intValue, 8_000)
        XCTAssertEqual(byID["222"]?["highest"], JSONValue.null)
        let names = keys(byID["111"]!)
        XCTAssertEqual(names.firstIndex(of: "highest"), names.firstIndex(of: "lowest").map { $0 + 1 }, "\(names)")
    }
}
