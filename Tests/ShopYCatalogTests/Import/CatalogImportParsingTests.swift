// Tests for Sources/ShopYCatalog/Import/CatalogImportParsing.swift: what is read from stdin is
// parsed as any file, and named "stdin".

import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogImportParsingTests: XCTestCase {
    func testStdin() async throws {
        // `-` goes through FileHandle.standardInput, which the in-process runner cannot feed;
        // the parser is the same one, called by name.
        let parsed = try CatalogImportParsing.parse(Array(#"{"items":[{"productId":"7","title":"x"}]}"#.utf8), name: "stdin")
        XCTAssertEqual(parsed.items.map(\.productId), ["7"])
        XCTAssertEqual(CatalogService.origin("-"), "stdin")
    }
}
