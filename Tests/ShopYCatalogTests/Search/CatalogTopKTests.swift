import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// The relevance page kept as the matches are found rather than sorted: the same answers as a
/// full sort, on the embedded catalog and a large mapped local one.
final class CatalogTopKTests: CatalogDirectoryTestCase {
    /// Hits with few distinct scores (many ties), in the order they are found.
    private func hits(_ count: Int, _ rng: inout SplitMix) -> [CatalogMatcher.Hit] {
        (0..<count).map { CatalogMatcher.Hit(segment: 0, ordinal: $0, score: [3, 5, 6, 10, 15, 20][Int(rng.next() % 6)], global: $0, price: nil) }
    }

    /// What sorting every hit gives: score descending, then the order found.
    private func sortedPrefix(_ hits: [CatalogMatcher.Hit], _ k: Int) -> [Int] {
        Array(hits.enumerated().sorted { $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset }.prefix(k).map(\.element.ordinal))
    }

    func testTheBestHitsAreTheSortedPrefixAndAllAreCounted() {
        var rng = SplitMix(5)
        for count in [0, 1, 2, 7, 100, 1_000] {
            let all = hits(count, &rng)
            for k in [0, 1, 3, 20, count / 2, count - 1, count, count + 5] where k >= 0 {
                var best = CatalogBestHits(keeping: k)
                for (at, hit) in all.enumerated() { best.add(hit, order: at) }
                XCTAssertEqual(best.count, count, "k=\(k) of \(count)")
                XCTAssertEqual(best.sorted().map(\.ordinal), sortedPrefix(all, k), "k=\(k) of \(count)")
            }
        }
    }

    func testPagesOfALargeLocalCatalogMatchTheReference() throws {
        var seen = Set<String>()
        let items = CatalogLocalSearchTests.generated(17_000, seed: 29, idBase: 70_000_000_000).filter { seen.insert($0.productId).inserted }
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
