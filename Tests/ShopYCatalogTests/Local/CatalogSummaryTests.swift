// Tests for CatalogService.summary: the top-level categories of every item a search covers
// (embedded and local, a replaced embedded item counted once), most items first then by name,
// the same for a catalog.json written by hand.

import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogSummaryTests: CatalogDirectoryTestCase {
    private var service: CatalogService { CatalogService(local: LocalCatalog(directory: directory), now: { 1_800_000_000 }) }

    private func embeddedCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in Catalog.embedded.items { counts[(item.category1 ?? "").isEmpty ? "(none)" : item.category1!, default: 0] += 1 }
        return counts
    }

    private func counts(_ summary: CatalogSummaryReport) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: summary.categories.map { ($0.name, $0.count) })
    }

    func testWithoutALocalCatalogTheEmbeddedCategoriesAreListed() throws {
        let summary = try service.summary(recording: false)
        XCTAssertEqual(summary.embedded, Catalog.embedded.items.count)
        XCTAssertEqual(summary.local, 0)
        XCTAssertFalse(summary.categories.isEmpty)
        XCTAssertEqual(counts(summary), embeddedCounts())
        XCTAssertEqual(summary.categories.reduce(0) { $0 + $1.count }, summary.embedded)
        XCTAssertEqual(summary.origins, [])
    }

    func testLocalItemsAddToTheirCategoriesAndAReplacedEmbeddedItemCountsOnce() throws {
        let replaced = try XCTUnwrap(Catalog.embedded.items.first)
        let items = [
            #"{"productId":"\#(replaced.productId)","title":"교체","category1":"교체됨"}"#,
            #"{"productId":"90000000001","title":"a","category1":"가구/인테리어"}"#,
            #"{"productId":"90000000002","title":"b","category1":"가구/인테리어"}"#,
            #"{"productId":"90000000003","title":"c","category1":"도서"}"#,
            #"{"productId":"90000000004","title":"d","category1":"도서"}"#,
            #"{"productId":"90000000005","title":"e"}"#,
        ]
        _ = try service.importItems([.init(name: "local.json", bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))])
        let summary = try service.summary(recording: false)
        XCTAssertEqual(summary.embedded, Catalog.embedded.items.count - 1, "the replaced embedded item is not counted")
        XCTAssertEqual(summary.local, 6)
        var expected = embeddedCounts()
        expected[replaced.category1!, default: 0] -= 1
        expected["교체됨"] = 1
        expected["가구/인테리어"] = 2
        expected["도서"] = 2
        expected["(none)"] = 1
        XCTAssertEqual(counts(summary), expected)
        XCTAssertEqual(summary.categories.reduce(0) { $0 + $1.count }, summary.embedded + summary.local)
        // Most items first, ties by name.
        let tail = summary.categories.suffix(4).map(\.name)
        XCTAssertEqual(tail, ["가구/인테리어", "도서", "(none)", "교체됨"])
        for (a, b) in zip(summary.categories, summary.categories.dropFirst()) {
            XCTAssertTrue(a.count > b.count || (a.count == b.count && a.name < b.name), "\(a) before \(b)")
        }
        XCTAssertEqual(summary.origins, [.init(name: "local.json", count: 6)])
    }

    func testACatalogNotAsShopyWritesItGivesTheSameCounts() throws {
        // Keys in another order than shopy writes them, no index: read through the rebuilt index.
        let json = #"{"schema":1,"generation":3,"items":[{"origin":"hand.json","productId":"90000000011","title":"a","category1":"도서","firstSeen":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z"},{"origin":"","productId":"90000000012","title":"b","category1":"도서"}]}"#
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/catalog.json", contents: Data(json.utf8)))
        let summary = try service.summary(recording: false)
        XCTAssertEqual(summary.local, 2)
        XCTAssertEqual(counts(summary)["도서"], 2)
        XCTAssertEqual(summary.origins, [.init(name: "(unknown)", count: 1), .init(name: "hand.json", count: 1)])
    }
}
