import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYCatalog
import ShopYTestSupport

/// `shopy catalog import`, recording, and the local catalog's files (issue 17).
final class CatalogImportTests: StoreDirectoryTestCase {
    static let contract = Repository.root().appendingPathComponent("Fixtures/contract")

    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    func run(_ arguments: [String], environment: [String: String] = [:], transport: any HTTPTransport = NoNetworkTransport(), now: Double = 1_800_000_000) async -> CLIRun {
        var env = environment
        env["SHOPY_HOME"] = home
        var io = IO.capture(environment: env, stdoutIsTerminal: false)
        io.now = { Date(timeIntervalSince1970: now) }
        io.currentDirectory = home
        let code = await ShopY.main(arguments, io: io, transport: transport)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func write(_ name: String, _ text: String) -> String {
        let path = home + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    var local: LocalCatalog { LocalCatalog(directory: home) }

    func records() throws -> [CatalogRecord] { try local.load().records }

    func catalogBytes() -> Data? { FileManager.default.contents(atPath: local.itemsPath) }

    // MARK: - Formats

    func testNaverAnswersInEveryContractShapeImport() async throws {
        for name in ["search-current.json", "search-pre2019.json", "search-numbers.json", "search-escaped.json", "search-zero-prices.json"] {
            let path = CatalogImportTests.contract.appendingPathComponent(name).path
            let result = await run(["catalog", "import", path])
            XCTAssertEqual(result.code, 0, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("(answer)"), result.stderr)
        }
        let all = try records()
        XCTAssertGreaterThan(all.count, 3)
        XCTAssertFalse(all.contains { $0.item.title.contains("<b>") }, "the API's bolding is not stored")
        XCTAssertEqual(Set(all.map(\.item.productId)).count, all.count)
    }

    func testBareArrayJSONLinesAndCSV() async throws {
        let array = write("a.json", #"[{"productId":"101","title":"에어팟 프로","lprice":"250000","category1":"디지털/가전"},{"productId":"102","title":"운동화 러닝"}]"#)
        let lines = write("b.jsonl", "{\"productId\":\"103\",\"title\":\"shoes one\"}\n\n{\"items\":[{\"productId\":\"104\",\"title\":\"Shoes Two\"}]}\n")
        let csv = write("c.csv", "\u{FEFF}productId,title,lprice,mallName,extra\r\n105,\"운동화, 화이트 \"\"특가\"\"\",45000,몰,x\r\n106,\"줄\n바꿈\",1,몰,y\r\n")
        let result = await run(["catalog", "import", array, lines, csv])
        XCTAssertEqual(result.code, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("shopy: 6 added, 0 updated, 0 skipped"), result.stderr)
        for format in ["(array)", "(json lines)", "(csv)"] { XCTAssertTrue(result.stderr.contains(format), result.stderr) }
        let byId = Dictionary(uniqueKeysWithValues: try records().map { ($0.item.productId, $0) })
        XCTAssertEqual(byId["105"]?.item.title, "운동화, 화이트 \"특가\"")
        XCTAssertEqual(byId["105"]?.item.lprice, "45000")
        XCTAssertEqual(byId["106"]?.item.title, "줄\n바꿈")
        XCTAssertEqual(byId["101"]?.origin, "a.json")
        // …and searches find them: part of a word, Latin case-folded, every term.
        let search = await run(["search", "운동", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(search.stdout.contains("\t102\t") && search.stdout.contains("\t105\t"), search.stdout)
        let shoes = await run(["search", "SHOES two", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(shoes.stdout.contains("104") && !shoes.stdout.contains("103"), shoes.stdout)
    }

    func testSkippedItemsHaveReasons() async throws {
        let file = write("s.json", #"[{"productId":"1","title":"ok"},{"title":"no id"},{"productId":"12ab","title":"letters"},{"productId":"2","title":{"x":1}},"text"]"#)
        let result = await run(["catalog", "import", file])
        XCTAssertEqual(result.code, 0)
        XCTAssertTrue(result.stderr.contains("shopy: 1 added, 0 updated, 4 skipped"), result.stderr)
        XCTAssertTrue(result.stderr.contains("item 2: it has no productId"), result.stderr)
        XCTAssertTrue(result.stderr.contains("item 3 (12ab): its productId is not 1 to 32 ASCII digits, alone or after 11st: or coupang:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("item 5"), result.stderr)
    }

    func testDamagedFilesImportNothingAndExit65() async throws {
        let good = write("good.json", #"[{"productId":"1","title":"first"}]"#)
        _ = await run(["catalog", "import", good])
        let before = catalogBytes()
        let damaged: [(String, String)] = [
            ("truncated.json", #"{"items":[{"productId":"2","title":"x"}"#),
            ("lines.jsonl", "{\"productId\":\"3\",\"title\":\"x\"}\n{\"productId\":\"4\",\"title\"\n"),
            ("items-not-array.json", #"{"items":{"productId":"5"}}"#),
            ("no-items.json", #"{"total":1}"#),
            ("header.csv", "id,name\n6,x\n"),
            ("fields.csv", "productId,title\n7,x,extra\n"),
            ("quote.csv", "productId,title\n8,\"never closed\n"),
            ("empty.json", "  \n"),
        ]
        for (name, text) in damaged {
            let result = await run(["catalog", "import", write(name, text)])
            XCTAssertEqual(result.code, 65, "\(name): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("nothing was imported from it"), "\(name): \(result.stderr)")
            XCTAssertEqual(catalogBytes(), before, name)
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: home + "/latin1.csv", contents: Data([0x70, 0x72, 0xE9, 0x0A])))
        let binary = await run(["catalog", "import", home + "/latin1.csv"])
        XCTAssertEqual(binary.code, 65)
        // One bad file among good ones: the good ones are imported, the exit code says 65.
        let mixed = await run(["catalog", "import", write("ok.json", #"[{"productId":"9","title":"fine"}]"#), home + "/truncated.json"])
        XCTAssertEqual(mixed.code, 65)
        XCTAssertEqual(try records().map(\.item.productId), ["1", "9"])
    }

    // MARK: - Dedupe

    func testDedupeNewestWinsAndFirstSeenIsKept() async throws {
        _ = await run(["catalog", "import", write("v1.json", #"[{"productId":"1","title":"old","lprice":"100"},{"productId":"2","title":"two"}]"#)], now: 1_800_000_000)
        let second = await run(["catalog", "import", write("v2.json", #"[{"productId":"1","title":"new","lprice":"90"},{"productId":"2","title":"two"},{"productId":"1","title":"newest","lprice":"80"}]"#)],
                               now: 1_800_086_400)
        XCTAssertTrue(second.stderr.contains("shopy: 0 added, 1 updated, 2 skipped"), second.stderr)
        XCTAssertTrue(second.stderr.contains("(2): unchanged"), second.stderr)
        let one = try XCTUnwrap(try records().first { $0.item.productId == "1" })
        XCTAssertEqual(one.item.title, "newest")
        XCTAssertEqual(one.item.lprice, "80")
        XCTAssertEqual(one.firstSeen, "2027-01-15T08:00:00Z")
        XCTAssertEqual(one.updated, "2027-01-16T08:00:00Z")
        XCTAssertEqual(one.origin, "v2.json")
        XCTAssertEqual(try records().count, 2)
    }

    // MARK: - Recording

    func testRecordingOnAddsNaverListingsAndOffDoesNot() async throws {
        let body = #"{"lastBuildDate":"","total":2,"start":1,"display":2,"items":[{"title":"<b>에어팟</b> 맥스","link":"https://smartstore.naver.com/a","image":"","lprice":"700000","hprice":"","mallName":"몰","productId":"555","productType":"1","brand":"Apple","maker":"","category1":"디지털/가전","category2":"음향가전","category3":"","category4":""},{"title":"케이스","productId":"556","lprice":"1000"}]}"#
        let transport = CatalogTestTransport(body: body)
        let env = ["NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret", "SHOPY_API_BASE": "http://127.0.0.1:9"]
        let off = await run(["search", "에어팟", "--format", "tsv"], environment: env, transport: transport)
        XCTAssertEqual(off.code, 0, off.stderr)
        XCTAssertNil(catalogBytes(), "off by default")
        let summaryOff = await run(["catalog"])
        XCTAssertTrue(summaryOff.stdout.contains("recording: off"), summaryOff.stdout)

        var on = env
        on["SHOPY_CATALOG_RECORD"] = "on"
        let recorded = await run(["search", "에어팟", "--format", "tsv"], environment: on, transport: transport)
        XCTAssertEqual(recorded.code, 0, recorded.stderr)
        XCTAssertEqual(try records().map(\.item.productId), ["555", "556"])
        XCTAssertEqual(try records().first?.item.title, "에어팟 맥스")
        XCTAssertEqual(try records().first?.origin, "naver")
        let summaryOn = await run(["catalog"], environment: ["SHOPY_CATALOG_RECORD": "on"])
        XCTAssertTrue(summaryOn.stdout.contains("recording: on"), summaryOn.stdout)
        // What was recorded is found offline.
        let offline = await run(["search", "에어팟", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(offline.stdout.contains("555"), offline.stdout)
        // The config key is accepted by `config set`.
        let set = await run(["config", "set", "catalog.record", "on"])
        XCTAssertEqual(set.code, 0, set.stderr)
        XCTAssertTrue(CatalogRecording.isOn(IO.capture(environment: ["SHOPY_HOME": home]), store: SettingsStore(directory: home)))
    }

    // MARK: - Files

    func testDamagedCatalogIsReportedAndNeverOverwritten() async throws {
        _ = await run(["catalog", "import", write("a.json", #"[{"productId":"1","title":"x"}]"#)])
        let damaged = Data("{\"schema\":1,\"generation\":5,\"items\":[{\"productId\":".utf8)
        try damaged.write(to: URL(fileURLWithPath: local.itemsPath))
        for arguments in [["search", "x", "--source", "catalog"], ["catalog"], ["catalog", "import", home + "/a.json"], ["catalog", "remove", "1"], ["catalog", "clear", "--yes"]] {
            let result = await run(arguments)
            XCTAssertEqual(result.code, 65, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("catalog.json is damaged"), result.stderr)
            XCTAssertEqual(catalogBytes(), damaged, "\(arguments) left the file as it was")
        }
    }

    /// A crash before the items file's rename leaves the old pair (and a temp file); one after
    /// it leaves the new items with the old index, which is found stale and rebuilt.
    func testInterruptedImportLeavesOneWholeCatalog() async throws {
        _ = await run(["catalog", "import", write("a.json", #"[{"productId":"1","title":"alpha"}]"#)])
        let oldItems = try XCTUnwrap(catalogBytes())
        let oldIndex = try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))
        // Killed mid-write: a half temp file beside the old pair.
        XCTAssertTrue(FileManager.default.createFile(atPath: home + "/.catalog.json.tmp-1-2", contents: Data("{\"schema\":1,\"gen".utf8)))
        var found = await run(["search", "alpha", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(found.stdout.contains("\t1\t") || found.stdout.hasPrefix("1\t1"), found.stdout)
        // Killed between the renames: new items, old index.
        _ = await run(["catalog", "import", write("b.json", #"[{"productId":"2","title":"beta"}]"#)])
        try oldIndex.write(to: URL(fileURLWithPath: local.indexPath))
        XCTAssertNotEqual(catalogBytes(), oldItems)
        found = await run(["search", "beta", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(found.stdout.contains("2"), found.stdout)
        XCTAssertNotEqual(FileManager.default.contents(atPath: local.indexPath), oldIndex, "the stale index was rebuilt")
        let alpha = await run(["search", "alpha", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(alpha.stdout.contains("alpha"), alpha.stdout)
    }

    func testDoctorOnDamagedCatalogFiles() async throws {
        _ = await run(["catalog", "import", write("a.json", #"[{"productId":"1","title":"x"},{"productId":"2","title":"y"}]"#)])
        var doctor = await run(["doctor", "--json"])
        XCTAssertEqual(doctor.code, 0, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("catalog.json") && doctor.stdout.contains("2 items"), doctor.stdout)
        // A damaged index: reported, rebuilt by --repair.
        var index = try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))
        index[index.count - 1] ^= 0xFF
        try index.write(to: URL(fileURLWithPath: local.indexPath))
        doctor = await run(["doctor", "--json"])
        XCTAssertTrue(doctor.stdout.contains("mismatched"), doctor.stdout)
        doctor = await run(["doctor", "--repair", "--json"])
        XCTAssertTrue(doctor.stdout.contains("rebuilt"), doctor.stdout)
        doctor = await run(["doctor", "--json"])
        XCTAssertFalse(doctor.stdout.contains("mismatched"), doctor.stdout)
        // A truncated index: its header no longer fits the file.
        try Data(index.prefix(100)).write(to: URL(fileURLWithPath: local.indexPath))
        doctor = await run(["doctor", "--json"])
        XCTAssertTrue(doctor.stdout.contains("mismatched"), doctor.stdout)
        // A damaged catalog.json: 65, named; --repair moves it aside and keeps it.
        let damaged = Data("{\"schema\":1,\"items\":[{\"title\":\"no id\"}]}".utf8)
        try damaged.write(to: URL(fileURLWithPath: local.itemsPath))
        doctor = await run(["doctor"])
        XCTAssertEqual(doctor.code, 65, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("catalog.json") && doctor.stdout.contains("damaged"), doctor.stdout)
        XCTAssertEqual(catalogBytes(), damaged, "doctor without --repair changes nothing")
        doctor = await run(["doctor", "--repair"])
        XCTAssertNil(catalogBytes())
        let kept = try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix("catalog.json.damaged") }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: home + "/" + kept[0]), damaged)
    }

    func testExportRemoveClear() async throws {
        _ = await run(["catalog", "import", write("a.json", #"[{"productId":"1","title":"x"},{"productId":"2","title":"y"}]"#)])
        let export = await run(["catalog", "export"])
        XCTAssertEqual(try LocalCatalog(directory: home).decode(Array(export.stdout.utf8)).records.count, 2)
        let removed = await run(["catalog", "remove", "1", "3"])
        XCTAssertEqual(removed.code, 1)
        XCTAssertTrue(removed.stderr.contains("shopy: warning: 3 is not in the local catalog"), removed.stderr)
        XCTAssertEqual(try records().map(\.item.productId), ["2"])
        let refused = await run(["catalog", "clear"])
        XCTAssertEqual(refused.code, 64)
        let cleared = await run(["catalog", "clear", "--yes"])
        XCTAssertEqual(cleared.code, 0)
        XCTAssertEqual(cleared.stdout, "", "confirmations are notices")
        let backup = try XCTUnwrap(cleared.stderr.split(separator: " ").last.map { String($0.split(separator: "\n")[0]) })
        XCTAssertTrue(try records().isEmpty)
        let restored = await run(["catalog", "import", backup])
        XCTAssertEqual(restored.code, 0, restored.stderr)
        XCTAssertEqual(try records().map(\.item.productId), ["2"])
    }
}

/// Answers every request with the same body.
struct CatalogTestTransport: HTTPTransport {
    var body: String
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Array(body.utf8))
    }
}

/// The catalog's confirmations are notices, as the likes' are: `-q` leaves them out; the
/// backup's path is cleaned and quoted for the shell.
final class CatalogConfirmationTests: XCTestCase {
    func testQuietLeavesOutConfirmationsAndTheBackupPathIsCleaned() async throws {
        let home = NSTemporaryDirectory() + "shopy-catalog-q-\(UUID().uuidString)/it's \u{1B}[31mred"
        defer { try? FileManager.default.removeItem(atPath: (home as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let file = home + "/a.json"
        try Data(#"[{"productId":"1","title":"x"}]"#.utf8).write(to: URL(fileURLWithPath: file))
        func run(_ arguments: [String]) async -> (code: Int32, stdout: String, stderr: String) {
            let io = IO.capture(environment: ["SHOPY_HOME": home])
            let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
            return (code, io.stdout.text, io.stderr.text)
        }
        let quiet = await run(["catalog", "import", file, "-q"])
        XCTAssertEqual(quiet.code, 0)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "")
        let cleared = await run(["catalog", "clear", "--yes"])
        XCTAssertEqual(cleared.code, 0)
        XCTAssertEqual(cleared.stdout, "")
        XCTAssertFalse(cleared.stderr.contains("\u{1B}"), cleared.stderr)
        XCTAssertTrue(cleared.stderr.contains("restore with: shopy catalog import '"), cleared.stderr)
        let again = await run(["catalog", "clear", "--yes", "-q"])
        XCTAssertEqual(again.stderr, "")
    }
}
