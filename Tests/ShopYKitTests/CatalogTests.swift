import XCTest
@testable import ShopYKit

final class CatalogTests: XCTestCase {
    func testEmbeddedCatalogLoads() {
        XCTAssertEqual(Catalog.embedded.items.count, 340)
    }
}
