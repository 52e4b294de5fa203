import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CatalogTests: XCTestCase {
    func testEmbeddedCatalogLoads() {
        XCTAssertEqual(Catalog.embedded.items.count, 340)
    }
}

/// The catalog in the binary is exactly Fixtures/recorded-items.json (Scripts/embed-catalog.py
/// regenerates it; the script's docstring names this test).
final class EmbeddedCatalogFixtureTests: XCTestCase {
    func testEmbeddedCatalogMatchesFixture() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/recorded-items.json")
        let text = try String(contentsOf: fixture, encoding: .utf8)
        // The script strips trailing newlines and adds one before the closing delimiter, which
        // the literal leaves out.
        XCTAssertEqual(embeddedCatalogJSON.description, String(text.reversed().drop(while: { $0 == "\n" }).reversed()),
                       "run python3 Scripts/embed-catalog.py")
        let json = try JSONParser.parse(Array(text.utf8))
        XCTAssertEqual(Catalog.embedded.items.count, json["items"]?.arrayValue?.count ?? json.arrayValue?.count)
    }
}
