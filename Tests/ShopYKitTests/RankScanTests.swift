// Tests for Sources/ShopYCore/Services/RankScan.swift: how a seller's title is matched.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class RankScanTests: XCTestCase {
    func testRankMatchingIgnoresEverySpace() {
        XCTAssertEqual(RankQuery.normalize(" 다 샵 "), RankQuery.normalize("다샵"))
        XCTAssertEqual(RankQuery.normalize("자석 방충망\tDIY"), "자석방충망diy")
    }
}
