import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYCatalog

/// A local catalog holding a namespaced productId (`11st:5`) beside a bare one: the ids are
/// told apart by their exact bytes in the merge, the lookups and the searches.
final class CatalogNamespacedIdTests: StoreDirectoryTestCase {
    var home: String { directory }

    func run(_ arguments: [String], now: Double = 1_800_000_000) async -> CLIRun {
        var io = IO.capture(environment: ["SHOPY_HOME": home], stdoutIsTerminal: false)
        io.now = { Date(timeIntervalSince1970: now) }
        io.currentDirectory = home
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func write(_ name: String, _ text: String) -> String {
        let path = home + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    func testNamespacedAndBareIdsAreKeptFoundAndListedApart() async throws {
        let file = write("both.json", #"""
        [{"productId":"11st:5","title":"Alpha gizmo eleven","lprice":"1000","link":"https://example.com/a"},
         {"productId":"183905","title":"Beta gizmo naver","lprice":"2000","link":"https://example.com/b"}]
        """#)
        let imported = await run(["catalog", "import", file])
        XCTAssertEqual(imported.code, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("2 added, 0 updated, 0 skipped"), imported.stderr)
        let records = try LocalCatalog(directory: home).load().records
        XCTAssertEqual(records.map(\.item.productId), ["11st:5", "183905"])

        // Each id finds its own item.
        let environment = ["SHOPY_HOME": home]
        XCTAssertEqual(Catalog.item(productId: "11st:5", environment: environment)?.title, "Alpha gizmo eleven")
        XCTAssertEqual(Catalog.item(productId: "183905", environment: environment)?.title, "Beta gizmo naver")
        XCTAssertNil(Catalog.item(productId: "5", environment: environment))

        // Every sort lists both, each under its own id.
        for sort in ["sim", "date", "asc", "dsc"] {
            let search = await run(["search", "gizmo", "--source", "catalog", "--sort", sort, "--format", "tsv"])
            XCTAssertEqual(search.code, 0, search.stderr)
            let ids = search.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[1] }
            XCTAssertEqual(Set(ids), ["11st:5", "183905"], "\(sort): \(search.stdout)")
        }
        let alpha = await run(["search", "alpha", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(alpha.stdout.contains("\t11st:5\t") && alpha.stdout.contains("Alpha gizmo eleven"), alpha.stdout + alpha.stderr)

        // A later import that changes the bare id's item leaves the namespaced one alone.
        let again = await run(["catalog", "import", write("again.json", #"[{"productId":"183905","title":"Beta gizmo renamed"}]"#)])
        XCTAssertTrue(again.stderr.contains("0 added, 1 updated, 0 skipped"), again.stderr)
        XCTAssertEqual(Catalog.item(productId: "11st:5", environment: environment)?.title, "Alpha gizmo eleven")
        XCTAssertEqual(Catalog.item(productId: "183905", environment: environment)?.title, "Beta gizmo renamed")

        // Liking a row of the listing keeps the namespaced id.
        _ = await run(["search", "alpha", "--source", "catalog", "--format", "tsv"])
        let liked = await run(["like", "1"])
        XCTAssertEqual(liked.code, 0, liked.stderr)
        XCTAssertTrue(liked.stderr.contains("11st:5"), liked.stderr)
    }
}
