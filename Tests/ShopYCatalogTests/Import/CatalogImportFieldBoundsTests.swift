// Tests for CatalogFieldBounds.swift and FieldLimits' raw bounds: an import keeps of each field
// what the mapper reads of an answer's (texts cut, over-long links and numbers left out), so a
// 30 MB field neither grows catalog.json and catalog.index nor changes what is shown.

import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogImportFieldBoundsTests: CatalogDirectoryTestCase {
    static let thirtyMB = 30 << 20
    static let oneMB = 1 << 20

    /// `unit` repeated to `count` bytes, or the most whole units below (doubled: quick at any size).
    func repeated(_ unit: String, bytes count: Int) -> [UInt8] {
        var bytes = Array(unit.utf8)
        while bytes.count < count { bytes += bytes }
        return Array(bytes.prefix(count - count % unit.utf8.count))
    }

    func testThirtyMegabyteFieldsAreBoundedAsAnswersAre() throws {
        // The 30 MB field of the issue (a brand); each other kind of field past its bound by a
        // megabyte (past it is past it: the cut reads no more of a larger one).
        let big = repeated("가", bytes: Self.thirtyMB)
        let cluster = Array("e".utf8) + repeated("\u{301}", bytes: Self.oneMB)  // one Character of a megabyte
        let url = Array("https://shop.test/".utf8) + repeated("a", bytes: Self.oneMB)
        let price = repeated("9", bytes: Self.oneMB)
        let escaped = repeated(#"\u00e9\""#, bytes: Self.oneMB)  // decoded by the byte path's escape branch
        var json = Array(#"[{"productId":"90000000001","title":"작은 제목","link":""#.utf8) + url
        json += Array(#"","lprice":""#.utf8) + price + Array(#"","hprice":2000,"brand":""#.utf8) + big
        json += Array(#"","category2":""#.utf8) + cluster + Array(#""},{"productId":"90000000002","title":""#.utf8) + escaped
        json += Array(#"","category1":"도서","lprice":"1000"}]"#.utf8)

        let local = LocalCatalog(directory: directory)
        let report = try CatalogService(local: local, now: { 1_800_000_000 }).importItems([.init(name: "big.json", bytes: json)])
        XCTAssertEqual(report.added, 2)
        XCTAssertEqual(report.skipped, [], "no item is skipped for a long field")

        // What is stored is what the mapper reads of each field: the product shown is the same.
        let records = try local.load().records
        XCTAssertEqual(records.count, 2)
        let stored = records[0].item
        let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
        let sent = WireItem(title: "작은 제목", link: text(url), lprice: text(price), hprice: "2000", productId: "90000000001",
                            brand: text(big), category2: text(cluster))
        XCTAssertEqual(ProductMapper.product(from: stored), ProductMapper.product(from: sent))
        XCTAssertEqual(stored.brand, FieldLimits.cutRaw(text(big), to: FieldLimits.shopText))
        XCTAssertEqual(stored.category2, "", "a Character past the byte budget is not kept")
        XCTAssertEqual(stored.link, "", "a cut URL would point elsewhere: left out (written as empty), as the mapper leaves it")
        XCTAssertEqual(stored.lprice, "0", "longer than any integer: unknown (written as 0)")
        XCTAssertEqual(stored.hprice, "2000")
        let decoded = String(repeating: "é\"", count: escaped.count / 8)
        XCTAssertEqual(records[1].item.title, FieldLimits.cutRaw(decoded, to: FieldLimits.title))

        // The files stay small, so a search maps kilobytes, not the fields' megabytes.
        for path in [local.itemsPath, local.indexPath] {
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            XCTAssertLessThan(size, 64 << 10, path)
        }
        let page = try Catalog.current(environment: ["SHOPY_HOME": directory]).page(SearchRequest(query: "가가가", display: 10))
        XCTAssertEqual(page.items.map(\.productId), ["90000000001"])
    }

    func testTheBoundsAreTheMappersAndIdempotent() {
        let texts = ["", "짧은 제목", String(repeating: "가", count: 5000), String(repeating: "a", count: 4001),
                     String(repeating: "e\u{301}", count: 3000), "👨‍👩‍👧‍👦" + String(repeating: "x", count: 4000)]
        for text in texts {
            let kept = FieldLimits.bound(text, as: .text(FieldLimits.title))
            XCTAssertEqual(kept, FieldLimits.cutRaw(text, to: FieldLimits.title))
            XCTAssertEqual(kept.flatMap { FieldLimits.bound($0, as: .text(FieldLimits.title)) }, kept, "bounding twice changes nothing")
            let item = WireItem(title: text, productId: "1", brand: text)
            XCTAssertEqual(ProductMapper.product(from: item.boundedForCatalog), ProductMapper.product(from: item))
        }
        let longest = String(repeating: "a", count: FieldLimits.url)
        XCTAssertEqual(FieldLimits.bound("  " + longest + "\n", as: .url), "  " + longest + "\n", "kept as sent")
        XCTAssertNil(FieldLimits.bound(longest + "a", as: .url))
        XCTAssertEqual(FieldLimits.bound(" -9223372036854775808 ", as: .integer), " -9223372036854775808 ")
        XCTAssertNil(FieldLimits.bound("123456789012345678901", as: .integer))
    }
}
