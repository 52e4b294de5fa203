import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// Items without a category (an import of bare productId/title records) are counted as
/// "other", never under an empty name (`holds …:  2,000 · 생활용품 153`).
final class CatalogCategoryCountTests: XCTestCase {
    func testItemsWithEmptyCategoriesAreOther() throws {
        let json = #"[{"productId":"1","title":"a","category1":"","category2":""},{"productId":"2","title":"b"},{"productId":"3","title":"c","category1":"반려동물","category2":""}]"#
        let catalog = try Catalog(json: Array(json.utf8))
        let counts = catalog.categoryCounts()
        XCTAssertFalse(counts.contains { $0.name.isEmpty }, "\(counts)")
        XCTAssertEqual(counts.first { $0.name == "other" }?.count, 2)
        XCTAssertFalse(NoResultsHelp.lines(for: catalog)[0].contains(":  "), NoResultsHelp.lines(for: catalog)[0])
    }

    func testCategoryCounts() {
        let counts = Catalog.embedded.categoryCounts()
        XCTAssertEqual(counts.prefix(3).map { "\($0.name) \($0.count)" }, ["생활용품 153", "반려동물 100", "노트북 20"])
        XCTAssertEqual(counts.reduce(0) { $0 + $1.count }, Catalog.embedded.items.count)
    }
}
