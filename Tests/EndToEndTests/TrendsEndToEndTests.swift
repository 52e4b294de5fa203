// The built `shopy trends` against the built `shopy-emulator`, as a user runs them.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class TrendsEndToEndTests: XCTestCase {
    func testTwelveKeywordsInThreeRequestsAndErrorsAsAUserSeesThem() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = ["SHOPY_DATALAB_BASE": emulator.baseURL + "/shopping/v1",
                           "NAVER_API_HUB_KEY_ID": EmulatorProcess.id, "NAVER_API_HUB_KEY": EmulatorProcess.secret]
        let keywords = ["원피스", "청바지", "니트", "코트", "패딩", "셔츠", "슬랙스", "후드티", "가디건", "점퍼", "레깅스", "블라우스"]
        let result = try runShopy(["trends", "keywords"] + keywords + ["--category", "패션의류", "--from", "2026-06-01", "--to", "2026-11-29",
                                                                     "--json", "--verbose"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONParser.parse(result.stdout)
        XCTAssertEqual(json["requests"], .int(3))
        XCTAssertEqual(json["series"]?.arrayValue?.count, 12)
        let stats = try JSONParser.parse(Array(try emulator.get("/_emulator/datalab/stats")))
        XCTAssertEqual(stats["requests"], .int(3))
        XCTAssertEqual(stats["status"], .object(JSONObject(["200": .int(3)])))
        XCTAssertFalse((result.stdout + result.stderr).contains(EmulatorProcess.secret), "keys never printed")
        XCTAssertTrue(result.stderr.contains("anchored by '원피스'"), result.stderr)

        let noKeys = try runShopy(["trends", "categories"], environment: ["SHOPY_DATALAB_BASE": emulator.baseURL + "/shopping/v1"])
        assertErrorReport(noKeys, status: 77, contains: ["NAVER_API_HUB_KEY_ID", "NAVER_CLIENT_ID"])
        let future = try runShopy(["trends", "categories", "--to", "2099-01-01"], environment: environment)
        assertErrorReport(future, status: 64, contains: ["future"])
        let stillThree = try JSONParser.parse(Array(try emulator.get("/_emulator/datalab/stats")))
        XCTAssertEqual(stillThree["requests"], .int(3), "nothing sent for errors found before sending")
    }
}
