import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYCatalog

/// A catalog.index damaged behind shopy's back (its second half zeroed, its size kept, so its
/// header still fits the file): `shopy search` answers with the local items all the same, built
/// again from catalog.json with one warning, and `doctor` names the damage and repairs it.
final class CatalogDamagedIndexCommandTests: StoreDirectoryTestCase {
    var home: String { directory }
    var local: LocalCatalog { LocalCatalog(directory: home) }

    func run(_ arguments: [String]) async -> CLIRun {
        var io = IO.capture(environment: ["SHOPY_HOME": home], stdoutIsTerminal: false)
        io.now = { Date(timeIntervalSince1970: 1_800_000_000) }
        io.currentDirectory = home
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func importItems(_ count: Int) async throws {
        let items = (1...count).map { #"{"productId":"\#(93_000_000_000 + $0)","title":"내 방충망 \#($0) 특가","lprice":"\#(1000 + $0)","category1":"생활/건강"}"# }
        let path = home + "/items.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(("[" + items.joined(separator: ",") + "]").utf8)))
        let imported = await run(["catalog", "import", path, "-q"])
        XCTAssertEqual(imported.code, 0, imported.stderr)
    }

    func zeroSecondHalf() throws -> Data {
        let good = try XCTUnwrap(FileManager.default.contents(atPath: local.indexPath))
        var damaged = good
        damaged.replaceSubrange((good.count / 2)..<good.count, with: Data(count: good.count - good.count / 2))
        try damaged.write(to: URL(fileURLWithPath: local.indexPath))
        return good
    }

    func testASearchNeverLeavesOutTheLocalItems() async throws {
        try await importItems(40)
        let before = await run(["search", "방충망", "--source", "catalog", "--format", "json", "--size", "100"])
        XCTAssertEqual(before.code, 0, before.stderr)
        XCTAssertTrue(before.stdout.contains("93000000040"), before.stdout)
        let good = try zeroSecondHalf()

        let after = await run(["search", "방충망", "--source", "catalog", "--format", "json", "--size", "100"])
        XCTAssertEqual(after.code, 0, after.stderr)
        XCTAssertEqual(after.stdout, before.stdout, "the same answer, every local item in it")
        XCTAssertEqual(after.stderr.components(separatedBy: "catalog.index could not be used").count - 1, 1, after.stderr)
        XCTAssertTrue(after.stderr.contains("built it again from catalog.json"), after.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: local.indexPath), good, "rebuilt on disk")
        let again = await run(["search", "방충망", "--source", "catalog", "--format", "json", "--size", "100"])
        XCTAssertEqual(again.stdout, before.stdout)
        XCTAssertFalse(again.stderr.contains("catalog.index"), "said once: \(again.stderr)")
    }

    func testDoctorNamesTheDamageAndRepairsIt() async throws {
        try await importItems(40)
        _ = try zeroSecondHalf()
        let doctor = await run(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("catalog.index") && doctor.stdout.contains("mismatched"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("--repair"), doctor.stdout)
        let repaired = await run(["doctor", "--repair"])
        XCTAssertEqual(repaired.code, 0, repaired.stdout + repaired.stderr)
        XCTAssertTrue(repaired.stdout.contains("rebuilt"), repaired.stdout)
        let after = await run(["doctor"])
        XCTAssertFalse(after.stdout.contains("mismatched"), after.stdout)
        let search = await run(["search", "방충망", "--source", "catalog", "--format", "tsv"])
        XCTAssertTrue(search.stdout.contains("93000000001"), search.stdout)
        XCTAssertFalse(search.stderr.contains("catalog.index"), search.stderr)
    }
}
