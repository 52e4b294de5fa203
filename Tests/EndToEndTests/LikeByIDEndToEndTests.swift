@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore

/// The built `shopy` against the built `shopy-emulator`: `like --id 11st:N` for a product no
/// listing showed is looked up by 11번가's ProductInfo (one request) and liked with that
/// snapshot; without ELEVENST_API_KEY it is 77 and nothing is written; `like --id coupang:N`
/// outside a listing of the hour is one clear line.
final class LikeByIDEndToEndTests: XCTestCase {
    private var home: TestHome!

    override func setUp() { home = TestHome() }
    override func tearDown() { home.remove() }

    private func environment(_ emulator: EmulatorProcess) -> [String: String] {
        ["SHOPY_11ST_BASE": emulator.baseURL, "ELEVENST_API_KEY": "emulator-11st-key",
         "SHOPY_COUPANG_BASE": emulator.baseURL, "COUPANG_ACCESS_KEY": "emulator-coupang-access",
         "COUPANG_SECRET_KEY": "emulator-coupang-secret"]
    }

    func testLikeAnElevenStreetIDThroughProductInfo() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let like = try runShopy(["like", "--id", "11st:80285861246"], environment: environment(emulator), home: home.path)
        XCTAssertEqual(like.status, 0, like.stderr)
        XCTAssertEqual(like.stderrLines.count, 1, like.stderr)
        XCTAssertTrue(like.stderr.hasPrefix("shopy: liked: 11st:80285861246  일체형 자석 방충망"), like.stderr)
        let stats = try emulator.stats()["elevenst"]
        XCTAssertEqual(stats?["requests"]?.intValue, 1)
        XCTAssertEqual(stats?["lastParams"]?["apiCode"]?.stringValue, "ProductInfo")

        let likes = try JSONParser.parse(Array(try runShopy(["likes", "--json"], environment: environment(emulator), home: home.path).stdout.utf8))
        let item = try XCTUnwrap(likes["items"]?.arrayValue?.first)
        XCTAssertEqual(item["productId"]?.stringValue, "11st:80285861246")
        XCTAssertEqual(item["link"]?.stringValue, "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=80285861246")
        XCTAssertNotNil(item["price"]?.intValue)
    }

    func testWithoutTheKeyNothingIsSentOrWritten() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        var environment = environment(emulator)
        environment["ELEVENST_API_KEY"] = nil
        let like = try runShopy(["like", "--id", "11st:80285861246"], environment: environment, home: home.path)
        assertErrorReport(like, status: 77, contains: ["ELEVENST_API_KEY"])
        XCTAssertEqual(try emulator.stats()["elevenst"]?["requests"]?.intValue, 0)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []
        XCTAssertFalse(files.contains("likes.json") || files.contains("likes.journal"), "\(files)")
    }

    func testACoupangIDWithoutAListingIsOneLine() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let like = try runShopy(["like", "--id", "coupang:80285861246"], environment: environment(emulator), home: home.path)
        XCTAssertEqual(like.status, 64, like.stderr)
        XCTAssertEqual(like.stderrLines, ["shopy: coupang:80285861246 is not in a listing of the last hour, and Coupang cannot look a product up by its id: search for it and like its row; nothing was liked"])
        XCTAssertEqual(try emulator.stats()["coupang"]?["requests"]?.intValue, 0)
    }
}
