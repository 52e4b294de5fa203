import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// catalog.json's bound (`StoreFileLimits.catalogItems`): a change that would write past it is
/// refused whole, one at the bound is written and reads back, and a file past it is damaged.
final class CatalogFileLimitTests: CatalogDirectoryTestCase {
    func input(_ ids: ClosedRange<Int>, name: String = "in.json") -> CatalogService.Input {
        let items = ids.map { #"{"productId":"\#($0)","title":"limit item \#($0)","lprice":"\#($0 * 10)"}"# }
        return CatalogService.Input(name: name, bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))
    }

    func service(limit: Int) -> CatalogService {
        var local = LocalCatalog(directory: directory)
        local.itemsLimit = limit
        return CatalogService(local: local, now: { 1_800_000_000 })
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func testTheLimitIsTheImportLimitSoAnExportImportsBack() {
        XCTAssertEqual(StoreFileLimits.catalogItems, FileIO.importLimit)
        XCTAssertEqual(LocalCatalog(directory: directory).itemsLimit, StoreFileLimits.catalogItems)
    }

    func testAnImportThatWouldPassTheLimitIsRefusedAndNothingIsWritten() throws {
        let local = LocalCatalog(directory: directory)
        _ = try service(limit: .max).importItems([input(1...3)])
        let size = try XCTUnwrap(contents(local.itemsPath)).count
        let before = (contents(local.itemsPath), contents(local.indexPath))

        // Room for a few more records, not for a hundred.
        XCTAssertThrowsError(try service(limit: size + 500).importItems([input(4...103)])) { error in
            guard case .unstorable(let path, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, local.itemsPath)
            XCTAssertTrue(problem.hasPrefix("it would be ") && problem.hasSuffix("more than the \(FileIO.describe(bytes: size + 500)) shopy reads back"), problem)
            XCTAssertEqual((error as? StoreError)?.hint, "nothing was changed")
        }
        XCTAssertEqual(contents(local.itemsPath), before.0, "catalog.json as it was")
        XCTAssertEqual(contents(local.indexPath), before.1, "catalog.index as it was")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        XCTAssertEqual(left, [], "no temporary file left")
        XCTAssertEqual(try local.load().records.map(\.item.productId), ["1", "2", "3"])
    }

    func testACatalogWrittenAtTheLimitReadsBack() throws {
        // The size the import writes, found with no limit in another directory.
        let probe = directory + "/probe"
        try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        _ = try CatalogService(local: LocalCatalog(directory: probe), now: { 1_800_000_000 }).importItems([input(1...40)])
        let size = try XCTUnwrap(contents(probe + "/catalog.json")).count
        // The generation's digits vary by a few bytes between writes: the limit is the size
        // written here, whatever it is, and the file at exactly it reads back.
        var local = LocalCatalog(directory: directory)
        local.itemsLimit = size + 20
        _ = try CatalogService(local: local, now: { 1_800_000_000 }).importItems([input(1...40)])
        let written = try XCTUnwrap(contents(local.itemsPath)).count
        local.itemsLimit = written
        XCTAssertEqual(try local.load().records.count, 40)
        XCTAssertEqual(try local.part()?.index.count, 40)
        local.itemsLimit = written - 1
        XCTAssertThrowsError(try local.load()) { error in
            XCTAssertEqual(error as? StoreError, .damaged(path: local.itemsPath, problem: "it is \(FileIO.describe(bytes: written)), more than the \(FileIO.describe(bytes: written - 1)) shopy ever writes there"))
        }
        XCTAssertThrowsError(try local.part()) { error in
            guard case .damaged(let path, _)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, local.itemsPath)
        }
    }
}
