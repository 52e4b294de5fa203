import Foundation
import XCTest
@testable import ShopYCore

/// The relevance page selected rather than sorted, and the matches scored a window at a time:
/// the same answers as a full sort, across window boundaries of a mapped local catalog.
final class CatalogTopKTests: StoreDirectoryTestCase {
    func testSmallestIsTheSortedPrefix() {
        var rng = SplitMix(5)
        for count in [0, 1, 2, 7, 100, 1_000] {
            // Distinct keys, as the matcher's (the low half holds the position).
            let keys = (0..<count).map { UInt64(rng.next() % 50) << 32 | UInt64($0) }
            for k in [0, 1, 3, 20, count / 2, count - 1, count, count + 5] where k >= 0 {
                XCTAssertEqual(CatalogMatcher.smallest(k, of: keys), Array(keys.sorted().prefix(k)), "k=\(k) of \(count)")
            }
        }
    }

    func testPagesAcrossScanWindowsMatchTheReference() throws {
        // More items than one scan window (16,384 ordinals), so batches are flushed and pages
        // handed back between windows.
        var seen = Set<String>()
        let items = CatalogLocalSearchTests.generated(17_000, seed: 29, idBase: 70_000_000_000).filter { seen.insert($0.productId).inserted }
        XCTAssertGreaterThan(items.count, 16_384)
        let records = items.map { CatalogRecord(item: $0, firstSeen: "t", updated: "t", origin: "test") }
        try LocalCatalog(directory: directory).write(records, after: 0)
        let catalog = try Catalog.current(environment: ["SHOPY_HOME": directory])
        let reference = CatalogLocalSearchTests.Reference(items: Catalog.embedded.items + items)
        for query in ["방충망", "shoes 운동화", "미니"] {
            for sort in [SortOrder.sim, .asc] {
                for (start, display) in [(1, 20), (981, 20), (1000, 100)] {
                    let request = SearchRequest(query: query, sort: sort, start: start, display: display)
                    let got = catalog.search(request)
                    let want = reference.search(request)
                    XCTAssertEqual(got.total, want.total, "\(query) \(sort) \(start)/\(display)")
                    XCTAssertEqual(got.items.map(\.productId), want.ids, "\(query) \(sort) \(start)/\(display)")
                }
            }
        }
    }
}
