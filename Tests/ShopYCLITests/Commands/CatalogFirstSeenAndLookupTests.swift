import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYCatalog

/// Issue 17's loose ends: re-importing an export keeps first-seen dates; `like --id` and
/// `open --id` find items that only the local catalog holds.
final class CatalogFirstSeenAndLookupTests: StoreDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    func run(_ arguments: [String], environment: [String: String] = [:], now: Double = 1_800_000_000) async -> CLIRun {
        var env = environment
        env["SHOPY_HOME"] = home
        var io = IO.capture(environment: env, stdoutIsTerminal: false)
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

    func records() throws -> [CatalogRecord] { try LocalCatalog(directory: home).load().records }

    func testReimportingAnExportKeepsFirstSeen() async throws {
        _ = await run(["catalog", "import", write("v1.json", #"[{"productId":"1","title":"하나"},{"productId":"2","title":"둘"}]"#)], now: 1_800_000_000)
        let exported = await run(["catalog", "export", home + "/export.json"], now: 1_800_000_100)
        XCTAssertEqual(exported.code, 0, exported.stderr)
        // Cleared, then the export imported back a day later: the export's dates win.
        let cleared = await run(["catalog", "clear", "--yes"], now: 1_800_000_200)
        XCTAssertEqual(cleared.code, 0, cleared.stderr)
        let back = await run(["catalog", "import", home + "/export.json"], now: 1_800_086_400)
        XCTAssertEqual(back.code, 0, back.stderr)
        XCTAssertEqual(try records().map(\.firstSeen), ["2027-01-15T08:00:00Z", "2027-01-15T08:00:00Z"])
        XCTAssertEqual(try records().map(\.updated), ["2027-01-16T08:00:00Z", "2027-01-16T08:00:00Z"])

        // Imported again over itself (changed item, an export with a later date): the catalog's
        // older date stays.
        let later = #"[{"productId":"1","title":"하나 새로","firstSeen":"2027-02-01T00:00:00Z"}]"#
        _ = await run(["catalog", "import", write("later.json", later)], now: 1_800_172_800)
        XCTAssertEqual(try records().first { $0.item.productId == "1" }?.firstSeen, "2027-01-15T08:00:00Z")
        XCTAssertEqual(try records().first { $0.item.productId == "1" }?.item.title, "하나 새로")

        // An unchanged item whose file says it was seen earlier takes the earlier date; a date in
        // the future, or one that is not a timestamp, is ignored.
        let earlier = #"[{"productId":"2","title":"둘","firstSeen":"2026-03-01T00:00:00Z"},{"productId":"3","title":"셋","firstSeen":"2999-01-01T00:00:00Z"},{"productId":"4","title":"넷","firstSeen":"yesterday"}]"#
        let third = await run(["catalog", "import", write("earlier.json", earlier)], now: 1_800_259_200)
        XCTAssertTrue(third.stderr.contains("2 added, 1 updated"), third.stderr)
        let byId = Dictionary(uniqueKeysWithValues: try records().map { ($0.item.productId, $0.firstSeen) })
        XCTAssertEqual(byId["2"], "2026-03-01T00:00:00Z")
        XCTAssertEqual(byId["3"], "2027-01-18T08:00:00Z")
        XCTAssertEqual(byId["4"], "2027-01-18T08:00:00Z")
    }

    func testLookupByProductIdCoversEmbeddedAndLocal() async throws {
        let env = ["SHOPY_HOME": home]
        let embedded = try XCTUnwrap(Catalog.embedded.items.first)
        XCTAssertEqual(Catalog.item(productId: embedded.productId, environment: env), embedded)
        XCTAssertNil(Catalog.item(productId: "77777777777", environment: env))
        _ = await run(["catalog", "import", write("local.json", #"[{"productId":"77777777777","title":"로컬 전용","link":"https://example.com/p/7"},{"productId":"77777777778","title":"열기 전용","link":"https://example.com/p/8"},{"productId":"\#(embedded.productId)","title":"로컬 판"}]"#)])
        XCTAssertEqual(Catalog.item(productId: "77777777777", environment: env)?.title, "로컬 전용")
        XCTAssertEqual(Catalog.item(productId: embedded.productId, environment: env)?.title, "로컬 판", "the local record replaces the embedded one")
        XCTAssertEqual(try Catalog.current(environment: env).count, Catalog.embedded.count + 2)

        let liked = await run(["like", "--id", "77777777777"])
        XCTAssertEqual(liked.code, 0, liked.stderr)
        XCTAssertTrue((liked.stdout + liked.stderr).contains("로컬 전용"), liked.stdout)
        let opened = await run(["open", "--id", "77777777778"], environment: ["BROWSER": "", "PATH": "/nonexistent"])
        XCTAssertTrue(opened.stdout.contains("https://example.com/p/8"), opened.stdout + opened.stderr)
    }
}
