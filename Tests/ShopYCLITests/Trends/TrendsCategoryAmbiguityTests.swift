// A category name that several categories bear is a usage error (64) that lists them, even
// when one of them is a leaf of exactly that name: `운동화` is a leaf under 출산/육아 and a
// branch under both 남성신발 and 여성신발 (Sources/ShopYCore/Trends/CategoryTable.swift; the lookup
// itself: ShopYCoreTests/Trends/TrendsUnitTests).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class TrendsCategoryAmbiguityTests: XCTestCase {
    typealias F = TrendsFixture
    let keys = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key-value", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9/shopping/v1"]
    let table = CategoryTable.embedded

    func testTheCommandRefusesWithTheCandidatesAndSendsNothing() async {
        let run = await F.run(["categories", "운동화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertEqual(run.code, 64, run.stderr)
        XCTAssertEqual(run.stdout, "")
        let lines = run.stderrLines
        XCTAssertEqual(lines.count, 2, run.stderr)
        let first = lines.first ?? "", last = lines.last ?? ""
        XCTAssertTrue(first.contains("category '운동화' is ambiguous"), run.stderr)
        for candidate in ["50004198 출산/육아 > 유아동잡화 > 신발 > 운동화", "패션잡화 > 남성신발 > 운동화 (6 categories)", "패션잡화 > 여성신발 > 운동화 (6 categories)"] {
            XCTAssertTrue(first.contains(candidate), "\(candidate) in \(first)")
        }
        XCTAssertTrue(last.hasPrefix("hint: give the code, or more of the path (e.g. 신발/운동화)"), last)
        let keywords = await F.run(["keywords", "나이키", "--category", "운동화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertEqual(keywords.code, 64, keywords.stderr)
        XCTAssertTrue(keywords.stderr.contains("is ambiguous"), keywords.stderr)
    }

    func testTheHintNamesAPathThatIsItselfUnambiguous() async {
        // Under 남성신발/운동화 the shortest end unique among the six (러닝화) is not unique in the table.
        let run = await F.run(["categories", "남성신발/운동화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertEqual(run.code, 64)
        let hint = run.stderrLines.last ?? ""
        guard let start = hint.range(of: "(e.g. "), let end = hint.range(of: ")", range: start.upperBound..<hint.endIndex) else {
            return XCTFail(hint)
        }
        let example = String(hint[start.upperBound..<end.lowerBound])
        guard case .found = table.lookup(example) else { return XCTFail("the hint's example '\(example)' is not one category") }
    }
}
