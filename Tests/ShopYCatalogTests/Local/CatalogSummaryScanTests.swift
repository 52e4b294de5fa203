// Tests for Sources/ShopYCatalog/Local/CatalogSummaryScan.swift: `shopy catalog`'s counts read
// from the records' tails are the counts of every record decoded, escapes and all; a record not
// as shopy writes it makes the summary decode the catalog as before.

import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogSummaryScanTests: CatalogDirectoryTestCase {
    func decodedCounts(_ local: LocalCatalog) throws -> (categories: [String: Int], origins: [String: Int]) {
        var categories: [String: Int] = [:], origins: [String: Int] = [:]
        for record in try local.load().records {
            let name = record.item.category1 ?? ""
            categories[name.isEmpty ? "(none)" : name, default: 0] += 1
            origins[record.origin.isEmpty ? "(unknown)" : record.origin, default: 0] += 1
        }
        return (categories, origins)
    }

    func testTheScannedCountsAreTheDecodedOnes() throws {
        let local = LocalCatalog(directory: directory)
        let service = CatalogService(local: local, now: { 1_800_000_000 })
        let items = [
            #"{"productId":"1","title":"a","category1":"생활/건강","category2":"반려동물"}"#,
            #"{"productId":"2","title":"b","category1":"생활/건강","category2":"반려동물"}"#,
            #"{"productId":"3","title":"c","category1":"따옴표 \"와\" 역슬래시 \\","category2":"줄\n바꿈 \u00e9 \ud83d\ude00"}"#,
            #"{"productId":"4","title":"d \",\"origin\":\"x","category1":"","category2":""}"#,
            #"{"productId":"5","title":"e","category1":"only one"}"#,
        ]
        _ = try service.importItems([.init(name: "첫 \"파일\".json", bytes: Array(("[" + items[0...2].joined(separator: ",") + "]").utf8))])
        _ = try service.importItems([.init(name: "second\\file.json", bytes: Array(("[" + items[3...4].joined(separator: ",") + "]").utf8))])
        let part = try XCTUnwrap(try local.part())
        let scanned = try XCTUnwrap(service.scannedCounts(part), "a catalog shopy wrote is scanned")
        let decoded = try decodedCounts(local)
        XCTAssertEqual(scanned.categories, decoded.categories)
        XCTAssertEqual(scanned.origins, decoded.origins)
        XCTAssertEqual(scanned.categories["따옴표 \"와\" 역슬래시 \\"], 1)
        XCTAssertEqual(scanned.categories["(none)"], 1)
        XCTAssertEqual(scanned.origins["second\\file.json"], 2)
        let summary = try service.summary(recording: false)
        XCTAssertEqual(summary.local, 5)
        // The embedded items' top-level categories are counted with the local ones.
        XCTAssertEqual(summary.categories.first, .init(name: "생활/건강", count: 300 + 2))
    }

    func testARecordNotAsShopyWritesItIsNotScanned() {
        func fields(_ text: String) -> (category1: String, category2: String, origin: String)? {
            Array(text.utf8).withUnsafeBufferPointer { CatalogSummaryScan.fields($0) }
        }
        let written = #"{"title":"t","category1":"a","category2":"b","category3":"c","category4":"d","firstSeen":"","updated":"","origin":"o"}"#
        XCTAssertEqual(fields(written)?.category1, "a")
        XCTAssertEqual(fields(written)?.origin, "o")
        XCTAssertNil(fields(#"{"title":"t","origin":"o","category1":"a","category2":"b","category3":"c","category4":"d"}"#), "keys out of order")
        XCTAssertNil(fields(#"{"title":"t","category1":"a","category2":"b","category3":"c","category4":"d","origin":1}"#), "not a string")
        XCTAssertNil(fields(#"{"category2":"b","category3":"c","category4":"d","origin":"o"}"#), "a key missing")
        XCTAssertNil(fields(#"{"title":"t","category1":"\q","category2":"b","category3":"c","category4":"d","origin":"o"}"#), "a bad escape")
        XCTAssertNil(fields(""))
    }
}
