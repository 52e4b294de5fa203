import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CatalogTests: XCTestCase {
    func testEmbeddedCatalogLoads() {
        XCTAssertEqual(Catalog.embedded.items.count, 340)
    }
}
