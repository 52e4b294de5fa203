@testable import ShopYBase
@testable import ShopYCatalog
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator

/// `shopy likes refresh` names the sources it asked: 11번가 for `11st:` likes, nothing for
/// Coupang's (untracked), and the offline catalog only when the catalog refreshed a like.
final class LikesRefreshSourceNamesTests: XCTestCase {
    let code = "80285861246"

    func testOnlyElevenStreetLikesSayElevenStreet() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.elevenst])
        let like = await shopy(["like", "--id", "11st:" + code], environment: environment)
        XCTAssertEqual(like.code, 0, like.stderr)

        let table = await shopy(["likes", "refresh"], environment: environment)
        XCTAssertEqual(table.code, 0, table.stderr)
        XCTAssertFalse(table.stdout.contains("offline catalog"), table.stdout)
        XCTAssertFalse(table.stderr.contains("offline catalog"), table.stderr)
        XCTAssertTrue(table.stdout.contains("1 request sent"), table.stdout)

        for arguments in [["likes", "refresh", "--json"], ["likes", "refresh", "--json", "--source", "11st"]] {
            let json = await shopy(arguments, environment: environment)
            XCTAssertEqual(json.code, 0, json.stderr)
            let document = try JSONParser.parse(Array(json.stdout.utf8))
            XCTAssertEqual(document["source"]?.stringValue, "11st", json.stdout)
            XCTAssertNil(document["note"], json.stdout)
        }
    }

    func testOnlyCoupangLikesAskNothingAndSayNoCatalog() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.coupang])
        let search = await shopy(["search", "방충망", "--size", "2", "--format", "tsv"], environment: environment)
        XCTAssertEqual(search.code, 0, search.stderr)
        let like = await shopy(["like", "1"], environment: environment)
        XCTAssertEqual(like.code, 0, like.stderr)

        let table = await shopy(["likes", "refresh"], environment: environment)
        XCTAssertEqual(table.code, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("untracked"), table.stdout)
        XCTAssertFalse(table.stdout.contains("offline catalog"), table.stdout)
        XCTAssertFalse(table.stderr.contains("offline catalog"), table.stderr)
        let json = await shopy(["likes", "refresh", "--json"], environment: environment)
        let document = try JSONParser.parse(Array(json.stdout.utf8))
        XCTAssertEqual(document["source"], .null, json.stdout)
        XCTAssertNil(document["note"], json.stdout)
    }
}
