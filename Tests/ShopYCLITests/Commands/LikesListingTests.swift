import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

/// `likes --json`/`--format jsonl` copy stored bytes to the output; they must write exactly
/// the document that decoding every like and encoding it again would write.
final class LikesListingTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-likes-listing-\(UUID().uuidString)"
        let items = Catalog.embedded.items.prefix(40).map(ProductMapper.product(from:))
        var likes = LikeCollection()
        for (i, product) in items.enumerated() {
            var product = product
            if i % 7 == 0 { product.price = nil; product.categories = [] }
            if i % 5 == 0 { product.title += " \"quoted\" \\ back \u{1B}[31m \u{202E}" }
            // Some likes share a time, so the tie-break (newest stored first) matters.
            likes.add(Like(product: product, likedAt: Like.timestamp(Date(timeIntervalSince1970: 1_780_000_000 + Double(i / 3))), likedPrice: product.price))
        }
        try SettingsStore(directory: home).update([.likes]) { settings in settings.likes = likes }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    func run(_ arguments: [String]) async -> (Int32, String) {
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(arguments, io: io)
        return (code, io.stdout.text)
    }

    func expected(sort: LikesCommand.Sort, pretty: Bool) throws -> String {
        let likes = try SettingsStore(directory: home).read { try $0.allLikes() }
        // The decoded path's items: every price key present (null when unknown) before any refresh.
        let items = PriceView.items(LikesCommand.sorted(likes, by: sort), book: PriceBook(), history: false, table: false).map(ItemJSON.object)
        if !pretty { return items.map { JSONWriter.string($0) + "\n" }.joined() }
        var o = JSONObject()
        o.appendUnchecked("sort", .string(sort.rawValue))
        o.appendUnchecked("count", .int(items.count))
        o.appendUnchecked("items", .array(items))
        return JSONWriter.string(.object(o), pretty: true) + "\n"
    }

    func testJSONFromStoredBytesEqualsTheDecodedDocument() async throws {
        for sort in [LikesCommand.Sort.recent, .price] {
            let (code, json) = await run(["likes", "--json", "--sort", sort.rawValue])
            XCTAssertEqual(code, 0)
            XCTAssertEqual(json, try expected(sort: sort, pretty: true), "sort \(sort)")
            let (code2, jsonl) = await run(["likes", "--format", "jsonl", "--sort", sort.rawValue])
            XCTAssertEqual(code2, 0)
            XCTAssertEqual(jsonl, try expected(sort: sort, pretty: false), "jsonl sort \(sort)")
        }
    }

    func testNoLikesIsAnEmptyList() async throws {
        try FileManager.default.removeItem(atPath: home)
        let (code, json) = await run(["likes", "--json"])
        XCTAssertEqual(code, 0)
        XCTAssertEqual(json, "{\n  \"sort\": \"recent\",\n  \"count\": 0,\n  \"items\": []\n}\n")
        XCTAssertEqual(try JSONParser.parse(json)["items"], .array([]))
    }
}
