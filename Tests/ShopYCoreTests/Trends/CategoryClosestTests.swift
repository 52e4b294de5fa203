import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// The closest names of an unknown category: only names whose length can be within the limit
/// are scored, with the same answer as scoring every name.
final class CategoryClosestTests: XCTestCase {
    let table = CategoryTable.embedded

    /// Every name scored, as before the length bound.
    func naive(_ query: String) -> [String] {
        let all = table.topLevel + table.leaves
        let limit = max(1, query.count / 2)
        let scored = all.map { ($0, Suggest.editDistance(query, $0.name.lowercased())) }
        return scored.filter { $0.1 <= limit }.sorted { $0.1 < $1.1 }.prefix(5).map(\.0.code)
    }

    func testTheLengthBoundChangesNoAnswer() {
        for query in ["러닝하", "패션의르", "화장폼", "zz", "노트붘", "디지털가저", "qwertyuiopasdfgh"] {
            XCTAssertEqual(table.closest(to: query).map(\.code), naive(query), query)
        }
    }

    func testAHugeWordHasNoClosestName() {
        // 3,000 syllables: no name is within 1,500 edits of it (this scored 4,967 names, 15 s).
        XCTAssertEqual(table.closest(to: String(repeating: "가", count: 3000)), [])
        guard case .unknown(let closest) = table.lookup(String(repeating: "갸", count: 3000)) else { return XCTFail("not unknown") }
        XCTAssertEqual(closest, [])
    }
}
