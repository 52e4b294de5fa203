// End-to-end checks of issue 12's fixes that need the built binary or the emulator: rank reports
// the requests the server received; rank's link is never cut; --verison gets a did-you-mean.

import Foundation
import XCTest
@testable import ShopYKit

final class ConventionFixesEndToEndTests: XCTestCase {
    func testRankReportsTheRequestsTheServerReceived() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        // 방충망 has 21 results on the emulator's catalog: one page holds them all.
        let result = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table"], environment: emulator.environment.merging(["COLUMNS": "40"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        let received = try emulator.requestCount()
        let footer = try XCTUnwrap(result.stdoutLines.last)
        XCTAssertTrue(footer.hasSuffix("· \(received) request\(received == 1 ? "" : "s") sent"), "footer '\(footer)', server received \(received)")
        // The link is whole even at 40 columns.
        XCTAssertTrue(result.stdoutLines.contains("  https://smartstore.naver.com/main/products/2788117408"), result.stdout)

        let catalog = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table", "--source", "catalog"])
        XCTAssertTrue(catalog.stdoutLines.last?.hasSuffix("· offline catalog") ?? false, "the catalog sends nothing: \(catalog.stdout)")
    }

    func testDidYouMeanForTopLevelOptions() throws {
        let result = try runShopy(["--verison"])
        assertErrorReport(result, status: 64, contains: ["did you mean '--version'?"])
    }
}
