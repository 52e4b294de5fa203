// Where Coupang's results could outlive the hour its terms allow, besides the likes: the local
// catalog's recording (`catalog.record`) never takes them, the search history holds only the
// query, and `likes export` writes of a Coupang like only what the like keeps (no tracking link,
// no price history). In process, against the emulator.

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
