import Foundation
import XCTest
@testable import ShopYCore

/// The catalog built into shopy is Fixtures/recorded-items.json (Scripts/embed-catalog.py
/// regenerates its literal), decoded and indexed at its first use like any items in memory.
final class EmbeddedCatalogTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/recorded-items.json")

    func testTheEmbeddedItemsAreTheFixturesAndAreIndexed() throws {
        let fixture = Array(try Data(contentsOf: Self.fixture))
        var literal = fixture
        while literal.last == 0x0A { literal.removeLast() }
        let embedded = UnsafeBufferPointer(start: embeddedCatalogJSON.utf8Start, count: embeddedCatalogJSON.utf8CodeUnitCount)
        XCTAssertTrue(embedded.elementsEqual(literal), "the embedded items are not the fixture's: run python3 Scripts/embed-catalog.py")

        let json = try XCTUnwrap(try JSONParser.parse(fixture).arrayValue)
        let items = try json.enumerated().map { try WireItem(json: $1, index: $0) }
        XCTAssertEqual(items.count, 340)
        XCTAssertEqual(Catalog.embedded.items, items)
        XCTAssertEqual(Catalog.embedded.count, 340)
        XCTAssertEqual(Catalog.embedded.parts[0].index.count, 340)
        XCTAssertNil(Catalog.embedded.parts[0].index.damage)
        for (i, item) in items.enumerated() { XCTAssertEqual(Catalog.embeddedItem(productId: item.productId), item, "item \(i)") }
        XCTAssertNil(Catalog.embeddedItem(productId: "1"))
    }
}
