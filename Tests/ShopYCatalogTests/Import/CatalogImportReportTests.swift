import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// The import report counts the catalog as it is, also when nothing was merged.
final class CatalogImportReportTests: CatalogDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    func input(_ name: String, _ text: String) -> CatalogService.Input { .init(name: name, bytes: Array(text.utf8)) }

    func testAnImportThatMergesNothingStillCountsTheCatalog() throws {
        let service = CatalogService(local: LocalCatalog(directory: home), now: { 1_800_000_000 })
        let first = try service.importItems([input("good.json", #"[{"productId":"1","title":"a"},{"productId":"2","title":"b"}]"#)])
        XCTAssertEqual(first.total, 2)
        // Every file refused: the catalog still holds its 2 items, and the report says so.
        let refused = try service.importItems([input("bad.csv", "productId,title\n3,\"never closed\n")])
        XCTAssertEqual(refused.failures.count, 1)
        XCTAssertEqual(refused.total, 2)
        // Parsed, but nothing usable in it.
        let nothing = try service.importItems([input("numbers.json", "[1,2]")])
        XCTAssertEqual(nothing.skipped.count, 2)
        XCTAssertEqual(nothing.total, 2)
        // No local catalog at all: 0.
        let empty = CatalogService(local: LocalCatalog(directory: home + "/none"), now: { 1_800_000_000 })
        XCTAssertEqual(try empty.importItems([input("bad.json", "{")]).total, 0)
    }

    /// A CSV cell guarded against being read as a formula (`'=…`, as shopy's CSV writes one) is
    /// read back without the guard; a `'` before anything else is kept.
    func testCSVCellsGuardedAgainstFormulasReadBackWithoutTheGuard() throws {
        let service = CatalogService(local: LocalCatalog(directory: home), now: { 1_800_000_000 })
        let csv = "productId,title,brand,maker\r\n7,'=SUM(1),'@x,'it's\r\n"
        let report = try service.importItems([input("guarded.csv", csv)])
        XCTAssertEqual(report.added, 1, "\(report)")
        let record = try XCTUnwrap(LocalCatalog(directory: home).load().records.first)
        XCTAssertEqual(record.item.title, "=SUM(1)")
        XCTAssertEqual(record.item.brand, "@x")
        XCTAssertEqual(record.item.maker, "'it's")
    }
}
