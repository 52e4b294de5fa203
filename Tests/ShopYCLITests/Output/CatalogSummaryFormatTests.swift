// `shopy catalog`: the summary with the catalog's top-level categories and their counts, as a
// table, TSV or CSV (category, count) and JSON (the whole summary).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogSummaryFormatTests: XCTestCase {
    private func homeWithLocalItems() async throws -> Home {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let items = #"[{"productId":"90000000001","title":"a","category1":"도서"},{"productId":"90000000002","title":"b","category1":"도서"},{"productId":"90000000003","title":"c","category1":"탭\t과 \u001b[31m색"}]"#
        XCTAssertTrue(FileManager.default.createFile(atPath: home.path + "/items.json", contents: Data(items.utf8)))
        let imported = await home.run(["catalog", "import", home.path + "/items.json"])
        XCTAssertEqual(imported.code, 0, imported.stderr)
        return home
    }

    /// The embedded catalog's top-level categories with their counts, as the summary orders them.
    private var embedded: [(String, Int)] {
        var counts: [String: Int] = [:]
        for item in Catalog.embedded.items { counts[item.category1 ?? "", default: 0] += 1 }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    func testTheTableListsEveryCategoryWithItsCount() async throws {
        let home = Home()
        let run = await home.run(["catalog"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "offline catalog: 340 items (340 embedded, recorded in 2025; 0 local)")
        let at = try XCTUnwrap(lines.firstIndex(of: "categories:"), run.stdout)
        let width = embedded.map { String($0.1).count }.max()!
        let rows = embedded.map { "  " + String(repeating: " ", count: width - String($0.1).count) + "\($0.1)  \($0.0)" }
        XCTAssertEqual(Array(lines[(at + 1)...]), rows, "no origins without local items")
    }

    func testLocalItemsAreCountedInTheirCategoriesAndTheirOrigins() async throws {
        let home = try await homeWithLocalItems()
        let run = await home.run(["catalog"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("offline catalog: 343 items (340 embedded, recorded in 2025; 3 local)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\n    2  도서\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("\u{1B}"), "category names are sanitized")
        XCTAssertTrue(run.stdout.hasSuffix("local items came from:\n  3  items.json\n"), run.stdout)
    }

    func testTSVAndCSVListTheCategoriesOnly() async throws {
        let home = try await homeWithLocalItems()
        let expected = embedded + [("도서", 2), (Sanitizer.clean("탭\t과 \u{1B}[31m색"), 1)]
        let tsv = await home.run(["catalog", "--format", "tsv"])
        XCTAssertEqual(tsv.code, 0, tsv.stderr)
        XCTAssertEqual(tsv.stdout, expected.map { "\($0.0)\t\($0.1)\n" }.joined())
        XCTAssertEqual(tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t").count }, Array(repeating: 2, count: expected.count),
                       "a tab in a name does not add a column")
        let csv = await home.run(["catalog", "--format", "csv"])
        XCTAssertEqual(csv.code, 0, csv.stderr)
        XCTAssertEqual(csv.stdout, "category,count\r\n" + expected.map { "\(Render.csvField($0.0)),\($0.1)\r\n" }.joined())
    }

    func testJSONHasTheWholeSummary() async throws {
        let home = try await homeWithLocalItems()
        let run = await home.run(["catalog", "--format", "json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let flag = await home.run(["catalog", "--json"])
        XCTAssertEqual(flag.stdout, run.stdout, "--json is --format json")
        let json = try JSONParser.parse(Array(run.stdout.utf8))
        XCTAssertEqual(json["embedded"]?.intValue, 340)
        XCTAssertEqual(json["local"]?.intValue, 3)
        let categories = try XCTUnwrap(json["categories"]?.arrayValue)
        XCTAssertEqual(categories.map { $0["name"]?.stringValue ?? "" }.prefix(embedded.count), embedded.map(\.0)[...])
        XCTAssertEqual(categories.compactMap { $0["count"]?.intValue }.reduce(0, +), 343)
        XCTAssertTrue(categories.contains { $0["name"]?.stringValue == "탭\t과 \u{1B}[31m색" }, "JSON keeps the name, escaped")
        XCTAssertEqual(json["origins"]?.arrayValue?.first?["name"]?.stringValue, "items.json")
    }

    func testAListingFormatTheSummaryDoesNotHaveIsRefused() async {
        let run = await Home().run(["catalog", "--format", "jsonl"])
        XCTAssertEqual(run.code, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("valid values: table, tsv, csv, json"), run.stderr)
        let both = await Home().run(["catalog", "--json", "--format", "tsv"])
        XCTAssertEqual(both.code, 64, both.stderr)
    }
}
