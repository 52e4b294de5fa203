import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// A damaged catalog.index is never answered from: damage found when it is opened (a cut, a
/// header or keys that do not check out) or while a search reads it (postings, a record or its
/// text) makes the catalog build the index again from catalog.json, say so once, and answer with
/// every local item, exactly as with the good index.
final class CatalogIndexDamageTests: CatalogDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    static let queries = ["고양이", "고양이 장난감", "cat toy", "깃털 1", "9", "장난감 59"]

    func makeCatalog() throws -> LocalCatalog {
        let local = LocalCatalog(directory: home)
        let items = (1...60).map { #"{"productId":"\#(91_000_000_000 + $0)","title":"고양이 장난감 \#($0) 깃털 cat toy","lprice":"\#($0 * 100)","category1":"반려동물"}"# }
        _ = try CatalogService(local: local, now: { 1_800_000_000 }).importItems([.init(name: "items.json", bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))])
        return local
    }

    /// Every query at three sorts, as listings show them: total and productIds.
    func answers(_ catalog: Catalog) throws -> [String] {
        var lines: [String] = []
        for query in Self.queries {
            for sort in [SortOrder.sim, .date, .asc] {
                let page = try catalog.page(SearchRequest(query: query, sort: sort, start: 1, display: 100))
                lines.append("\(query) \(sort): \(page.total) " + page.items.map(\.productId).joined(separator: ","))
            }
        }
        return lines
    }

    /// Opens the catalog on `index` written as catalog.index, searches it, and checks the
    /// answers against the good index's; the notices it gave.
    func searchDamaged(_ index: [UInt8], _ local: LocalCatalog, expected: [String], _ what: String, line: UInt = #line) throws -> [String] {
        XCTAssertTrue(FileManager.default.createFile(atPath: local.indexPath, contents: Data(index)), line: line)
        let notices = Locked<[String]>([])
        let catalog = try Catalog.current(environment: ["SHOPY_HOME": home]) { notices.value.append($0) }
        XCTAssertEqual(try answers(catalog), expected, "\(what): every local item, as with the good index", line: line)
        XCTAssertEqual(try answers(catalog), expected, "\(what): a second search on the same catalog", line: line)
        XCTAssertLessThanOrEqual(notices.value.count, 1, "\(what): said once: \(notices.value)", line: line)
        return notices.value
    }

    func testDamageTheSearchesReadIsFoundRebuiltAndSaidOnce() throws {
        let local = try makeCatalog()
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath)))
        let expected = try answers(try Catalog.current(environment: ["SHOPY_HOME": home]))
        XCTAssertTrue(expected.contains { $0.hasPrefix("cat toy sim: 60 91000000001,") }, "the local items answer: \(expected)")
        let layout = try CatalogIndex(bytes: good).layout
        var damages: [(String, [UInt8])] = []
        // The second half zeroed, the size kept (the header still fits the file).
        damages.append(("second half zeroed", Array(good.prefix(good.count / 2)) + [UInt8](repeating: 0, count: good.count - good.count / 2)))
        // Postings reversed, past the items, all one ordinal.
        for (name, fill) in [("postings reversed", { (i: Int) in UInt32(layout.postingCount - i) }), ("postings past the items", { (_: Int) in UInt32.max }),
                             ("postings all one", { (_: Int) in UInt32(1) })] {
            var bytes = good
            for i in 0..<layout.postingCount { withUnsafeBytes(of: fill(i).littleEndian) { bytes.replaceSubrange((layout.postings + i * 4)..<(layout.postings + i * 4 + 4), with: $0) } }
            damages.append((name, bytes))
        }
        // One record's title text, one record's price, one record's place in catalog.json, a key.
        var text = good
        text[layout.text + 2] ^= 0x01
        damages.append(("a title's byte", text))
        var price = good
        price[layout.records + 5 * CatalogIndexFormat.recordSize + 32] ^= 0x40
        damages.append(("a price", price))
        var place = good
        place[layout.records + 2 * CatalogIndexFormat.recordSize + 1] ^= 0x01
        damages.append(("an item's place in catalog.json", place))
        var key = good
        key[layout.keys + 8 * (layout.keyCount / 2)] ^= 0x10
        damages.append(("a key", key))
        for (what, bytes) in damages {
            let notices = try searchDamaged(bytes, local, expected: expected, what)
            XCTAssertEqual(notices.count, 1, "\(what): the rebuild is said once")
            XCTAssertTrue(notices.first?.contains("built it again from catalog.json") == true, "\(what): \(notices)")
            XCTAssertEqual(Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))), good, "\(what): catalog.index rebuilt on disk")
            // The next search opens the rebuilt index: nothing more to say.
            XCTAssertEqual(try searchDamaged(good, local, expected: expected, "\(what), then rebuilt"), [])
        }
    }

    func testACutIndexIsRebuiltWhenOpened() throws {
        let local = try makeCatalog()
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath)))
        let expected = try answers(try Catalog.current(environment: ["SHOPY_HOME": home]))
        for cut in [good.count / 2, 100, 10] {
            let notices = try searchDamaged(Array(good.prefix(cut)), local, expected: expected, "cut to \(cut) bytes")
            XCTAssertEqual(notices.count, 1, "cut to \(cut): \(notices)")
            XCTAssertEqual(Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))), good)
        }
        // Missing, or from another commit: built again without a word.
        try FileManager.default.removeItem(atPath: local.indexPath)
        let catalog = try Catalog.current(environment: ["SHOPY_HOME": home]) { XCTFail("a missing index is no damage: \($0)") }
        XCTAssertEqual(try answers(catalog), expected)
    }

    func testRandomDamageNeverChangesAnAnswer() throws {
        let local = try makeCatalog()
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath)))
        let expected = try answers(try Catalog.current(environment: ["SHOPY_HOME": home]))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(truncatingIfNeeded: seed >> 33) }
        var found = 0
        for round in 0..<40 {
            var bytes = good
            for _ in 0..<(1 + next() % 20) {
                bytes[next() % bytes.count] = [0, 0xFF, UInt8(next() & 0xFF)][next() % 3]
            }
            found += try searchDamaged(bytes, local, expected: expected, "round \(round)").count
        }
        XCTAssertGreaterThan(found, 25, "most random damage is in what the searches read, and found")
    }
}
