import Foundation
import XCTest
@testable import ShopYCore

/// The embedded catalog's generated source (Scripts/embed-catalog.py) is up to date with
/// Fixtures/recorded-items.json: its items are the fixture's, and its precomputed index is byte
/// for byte the one CatalogIndexBuilder builds from them (so the script mirrors the builder).
final class EmbeddedCatalogTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/recorded-items.json")

    func testPrecomputedIndexIsTheOneTheBuilderMakesFromTheFixture() throws {
        let fixture = Array(try Data(contentsOf: Self.fixture))
        var literal = fixture
        while literal.last == 0x0A { literal.removeLast() }
        let embedded = UnsafeBufferPointer(start: embeddedCatalogJSON.utf8Start, count: embeddedCatalogJSON.utf8CodeUnitCount)
        XCTAssertTrue(embedded.elementsEqual(literal), "the embedded items are not the fixture's: run python3 Scripts/embed-catalog.py")

        // The items and their byte ranges in the literal, as the generator finds them.
        var items: [WireItem] = []
        var ranges: [Range<Int>] = []
        try literal.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            try parser.forEachElement { start, parser throws(JSONParseError) in
                let value = try parser.parseValue()
                ranges.append(start..<parser.offset)
                items.append(try! WireItem(json: value, index: items.count))
            }
        }
        XCTAssertEqual(items.count, 340)
        let built = CatalogIndexBuilder.build(items: items, ranges: ranges, generation: 0, itemsLength: literal.count)
        let precomputed = Array(EmbeddedCatalog.indexBytes)
        XCTAssertEqual(precomputed.count, built.count, "run python3 Scripts/embed-catalog.py")
        XCTAssertTrue(precomputed == built, "the precomputed index differs from the builder's: run python3 Scripts/embed-catalog.py (or mirror the builder's change in it)")

        // And the catalog searches it without building anything.
        XCTAssertEqual(Catalog.embedded.count, 340)
        XCTAssertEqual(Catalog.embedded.items, items)
        for (i, item) in items.enumerated().prefix(40) { XCTAssertEqual(Catalog.embeddedItem(productId: item.productId), item, "item \(i)") }
    }
}
