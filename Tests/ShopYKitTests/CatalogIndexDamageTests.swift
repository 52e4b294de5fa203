import Foundation
import XCTest
@testable import ShopYCore

/// A catalog.index damaged in its body (its header still fitting the file, so it is mapped and
/// used) answers less, never traps: postings out of order or past the items are skipped.
final class CatalogIndexDamageTests: StoreDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    func makeCatalog() throws -> LocalCatalog {
        let local = LocalCatalog(directory: home)
        let items = (1...60).map { #"{"productId":"\#(91_000_000_000 + $0)","title":"고양이 장난감 \#($0) 깃털 cat toy","lprice":"\#($0 * 100)","category1":"반려동물"}"# }
        _ = try CatalogService(local: local, now: { 1_800_000_000 }).importItems([.init(name: "items.json", bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))])
        return local
    }

    /// Searches the damaged catalog: it opens (its items are there; the index is used, or built
    /// again when it does not fit them), and every answer holds only the catalog's own items, no
    /// more than there are.
    func search(_ local: LocalCatalog, file: StaticString = #filePath, line: UInt = #line) throws {
        let part = try XCTUnwrap(try local.part(), "the catalog opens: its items are there", file: file, line: line)
        let catalog = Catalog(parts: [part])
        let ids = Set((1...60).map { String(91_000_000_000 + $0) })
        for query in ["고양이", "고양이 장난감", "cat toy", "깃털 1", "9"] {
            for sort in [SortOrder.sim, .date, .asc] {
                let page = catalog.search(SearchRequest(query: query, sort: sort, start: 1, display: 100))
                XCTAssertLessThanOrEqual(page.total, 60, "\(query) \(sort): more matches than items", file: file, line: line)
                XCTAssertLessThanOrEqual(page.items.count, page.total, "\(query) \(sort)", file: file, line: line)
                let strangers = page.items.map(\.productId).filter { !ids.contains($0) }
                XCTAssertEqual(strangers, [], "\(query) \(sort): items not in the catalog", file: file, line: line)
            }
        }
    }

    func testPostingsOutOfOrderOrPastTheItemsAreSkipped() throws {
        let local = try makeCatalog()
        let good = try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))
        let index = try CatalogIndex(bytes: Array(good))
        let postings = index.layout.postings, count = index.layout.postingCount
        // Every posting reversed (descending), then every posting past the items.
        for fill in [{ (i: Int) in UInt32(count - i) }, { _ in UInt32.max }, { (i: Int) in UInt32(i % 3 == 0 ? 1_000_000 : 60 - i % 60) }] {
            var bytes = Array(good)
            for i in 0..<count { withUnsafeBytes(of: fill(i).littleEndian) { bytes.replaceSubrange((postings + i * 4)..<(postings + i * 4 + 4), with: $0) } }
            XCTAssertTrue(FileManager.default.createFile(atPath: local.indexPath, contents: Data(bytes)))
            try search(local)
        }
    }

    func testRandomDamageAfterTheHeaderNeverTraps() throws {
        let local = try makeCatalog()
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath)))
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(truncatingIfNeeded: seed >> 33) }
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<(1 + next() % 20) {
                bytes[CatalogIndexFormat.headerSize + next() % (bytes.count - CatalogIndexFormat.headerSize)] = [0, 0xFF, UInt8(next() & 0xFF)][next() % 3]
            }
            XCTAssertTrue(FileManager.default.createFile(atPath: local.indexPath, contents: Data(bytes)))
            try search(local)
        }
    }
}
