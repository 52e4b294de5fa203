// Where Coupang's results could outlive the hour its terms allow, besides the likes: the local
// catalog's recording (`catalog.record`) never takes them, the search history holds only the
// query, and `likes export` writes of a Coupang like only what the like keeps (no tracking link,
// no price history). In process, against the emulator.

@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator

final class CoupangDataPersistenceTests: XCTestCase {
    func testRecordingHistoryAndExportKeepNoneOfCoupangsResults() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        var environment = liveEnvironment(server, home: home, sources: [.coupang])
        environment["SHOPY_CATALOG_RECORD"] = "on"
        let search = await shopy(["search", "방충망", "--size", "3", "--format", "tsv"], environment: environment)
        XCTAssertEqual(search.code, 0, search.stderr)
        let firstRow = try XCTUnwrap(search.stdout.split(separator: "\n").first).split(separator: "\t", omittingEmptySubsequences: false)
        let title = String(firstRow[4])
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/catalog.json"), "catalog.record takes the naver source's items only")
        XCTAssertEqual(try SettingsStore(directory: home).read { $0.history.map(\.query) }, ["방충망"])

        let liked = await shopy(["like", "1"], environment: environment)
        XCTAssertEqual(liked.code, 0, liked.stderr)
        let export = await shopy(["likes", "export"], environment: environment)
        XCTAssertEqual(export.code, 0, export.stderr)
        let like = try XCTUnwrap(try JSONParser.parse(Array(export.stdout.utf8))["likes"]?.arrayValue?.first?.objectValue)
        let kept: Set<String> = ["productId", "title", "price", "link", "image", "categories", "likedAt", "likedPrice"]
        let held = like.keys.filter { key in like[key] != .null && like[key] != .array([]) }
        XCTAssertTrue(Set(held).isSubset(of: kept), "only what a Coupang like keeps: \(held)")
        XCTAssertEqual(like["title"]?.stringValue, title)
        XCTAssertFalse(export.stdout.contains("link.coupang.com"), "never the tracking link")
        XCTAssertFalse(export.stdout.contains("\"prices\""), "no price history")
    }
}

final class CoupangPriceHistoryImportTests: StoreDirectoryTestCase {
    /// An export that holds a price history for a Coupang like (hand-made, or from another tool):
    /// the import keeps the like and its alert, not the history.
    func testImportTakesNoPriceHistoryOfACoupangLike() async throws {
        let export = #"""
        {"schema":1,"exportedAt":"2026-12-01T00:00:00Z","likes":[
        {"productId":"coupang:27664441","title":"롤화장지","price":15600,"likedAt":"2026-12-01T00:00:00Z","likedPrice":15600},
        {"productId":"11st:6543210987","title":"방충망","price":9900,"likedAt":"2026-12-01T00:00:00Z","likedPrice":9900}],
        "prices":{"coupang:27664441":{"points":[{"at":"2026-12-01T01:00:00Z","price":14000}],"refreshedAt":"2026-12-01T01:00:00Z","alert":{"below":13000}},
        "11st:6543210987":{"points":[{"at":"2026-12-01T01:00:00Z","price":9000}],"refreshedAt":"2026-12-01T01:00:00Z"}}}
        """#
        let io = IO.capture(environment: ["SHOPY_HOME": directory], stdin: Array(export.utf8))
        let code = await ShopY.main(["likes", "import", "-"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 0, io.stderr.text)
        let book = try SettingsStore(directory: directory).read { $0.prices }
        XCTAssertEqual(book["coupang:27664441"]?.points, [], "no history for a Coupang like")
        XCTAssertNil(book["coupang:27664441"]?.refreshedAt)
        XCTAssertNotNil(book["coupang:27664441"]?.alert, "the alert is the user's rule")
        XCTAssertEqual(book["11st:6543210987"]?.points.map(\.price), [9000], "other sources' histories are imported")
    }
}
