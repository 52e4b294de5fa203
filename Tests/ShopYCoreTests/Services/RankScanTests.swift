// Tests for Sources/ShopYCore/Services/RankScan.swift: the pages a scan asks for at every
// depth, its events (progress, then the outcome), and how a seller's title is matched.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class RankScanTests: XCTestCase {
    func testRankScanEventsEndWithTheOutcomeAfterProgress() async throws {
        var events: [RankScan.Event] = []
        for try await event in RankScan.events(RankQuery(keyword: "고양이", title: "없는제목xyz", depth: 300), source: CatalogSource(), pacer: nil) {
            events.append(event)
        }
        guard case .finished(let outcome)? = events.last else { return XCTFail("no finished event: \(events)") }
        XCTAssertTrue(outcome.matches.isEmpty)
        XCTAssertEqual(outcome.scannedTo, 84)
        let progress = events.dropLast().compactMap { event -> Int? in if case .progress(let scanned, 300) = event { return scanned } else { return nil } }
        XCTAssertFalse(progress.isEmpty)
        XCTAssertEqual(progress.last, 84)
    }

    func testRankPagesForEveryDepthStayWithinTheContract() {
        for depth in [1, 2, 99, 100, 101, 999, 1000, 1001, 1099] {
            for page in RankScan.pages(depth: depth) {
                XCTAssertTrue((1...SearchRequest.maxStart).contains(page.start))
                XCTAssertTrue((1...SearchRequest.maxDisplay).contains(page.display))
            }
        }
    }

    func testRankMatchingIgnoresEverySpace() {
        XCTAssertEqual(RankQuery.normalize(" 다 샵 "), RankQuery.normalize("다샵"))
        XCTAssertEqual(RankQuery.normalize("자석 방충망\tDIY"), "자석방충망diy")
    }
}
