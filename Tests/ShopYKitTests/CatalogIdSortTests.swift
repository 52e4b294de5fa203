import XCTest
@testable import ShopYCore

/// The index's id table is sorted by hash, then ordinal, with a radix sort that relies on the
/// pairs coming in ordinal order: it must give what a comparator sort gives.
final class CatalogIdSortTests: XCTestCase {
    func testTheRadixSortIsTheComparatorSort() {
        var rng = SplitMix(31)
        for count in [0, 1, 2, 3, 17, 1000, 70_000] {
            // Hashes from a small set too, so that many are equal and the ordinals decide.
            let narrow = count % 2 == 1
            var ids = (0..<count).map { ordinal -> (UInt64, UInt64) in
                let hash = narrow ? rng.next() % 7 << 48 | rng.next() % 3 : rng.next()
                return (hash, UInt64(ordinal))
            }
            let expected = ids.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            CatalogIndexBuilder.sortIds(&ids)
            XCTAssertTrue(ids.elementsEqual(expected) { $0 == $1 }, "\(count) ids")
        }
    }
}
