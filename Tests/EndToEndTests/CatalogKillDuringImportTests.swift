import Foundation
import XCTest
import ShopYTestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import ShopYCore
@testable import ShopYBase

/// `shopy catalog import` killed (SIGKILL) in the middle of writing: the catalog it was
/// replacing is intact and searchable, doctor finds no damage and names the leftover, and the
/// next import works and leaves no temporary file behind.
final class CatalogKillDuringImportTests: XCTestCase {
    func testSIGKILLWhileTheTemporaryFileIsWrittenLeavesTheOldCatalog() throws {
        let home = NSTemporaryDirectory() + "shopy-kill-import-\(getpid())"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        // The old catalog: three items.
        let small = home + "/small.json"
        let old = (0..<3).map { WireItem(title: "이전 방충망 \($0)", lprice: "1000", productId: String(50_000_000_000 + $0)) }
        try Data(JSONWriter.serialize(.array(old.map(\.json)))).write(to: URL(fileURLWithPath: small))
        XCTAssertEqual(try runShopy(["catalog", "import", small], home: home).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: home + "/catalog.json"))

        // A large import (tens of MB), killed as soon as its temporary file appears.
        let large = home + "/large.json"
        let many = (0..<50_000).map { WireItem(title: "새 운동화 \($0) 가볍고 편한 러닝화 블랙 화이트", link: "https://smartstore.naver.com/main/products/\($0)",
                                                lprice: String(1000 + $0), mallName: "몰\($0 % 100)", productId: String(60_000_000_000 + $0),
                                                brand: "브랜드\($0 % 50)", category1: "패션잡화", category2: "남성신발") }
        try Data(JSONWriter.serialize(.array(many.map(\.json)))).write(to: URL(fileURLWithPath: large))

        let running = try ChildProcess.start(Binary.path("shopy"), ["catalog", "import", large],
                                             environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": home])
        let process = running.process
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: home)) ?? []).filter { $0.hasPrefix(".catalog.") && $0.contains(".tmp-") }
        }
        let deadline = Date().addingTimeInterval(60)
        var seen: [String] = []
        while process.isRunning && Date() < deadline {
            seen = temporaries()
            if !seen.isEmpty { break }
            usleep(200)
        }
        kill(process.processIdentifier, SIGKILL)
        XCTAssertNoThrow(try running.finish(timeout: 30), "stdout and stderr drained")
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the import was killed before it finished")
        XCTAssertFalse(seen.isEmpty, "the kill came while a temporary file was being written")
        let left = temporaries()

        // The old catalog, byte for byte, readable and searchable.
        if left.contains(where: { $0.hasPrefix(".catalog.json.tmp-") }) {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: home + "/catalog.json")), before, "the items file was not replaced")
        }
        let listed = try runShopy(["catalog", "--json"], home: home)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let summary = try JSONParser.parse(Array(listed.stdout.utf8))
        XCTAssertEqual(summary["local"]?.intValue, 3, listed.stdout)
        let search = try runShopy(["search", "이전", "--source", "catalog", "--format", "json"], home: home)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertEqual(try JSONParser.parse(Array(search.stdout.utf8))["total"]?.intValue, 3)

        // doctor: no damage; the items file's leftover is reported (the index's is the next
        // write's to remove).
        let doctor = try runShopy(["doctor"], home: home)
        XCTAssertEqual(doctor.status, 0, doctor.stdout + doctor.stderr)
        XCTAssertFalse((doctor.stdout + doctor.stderr).contains("damaged"), doctor.stdout)
        if left.contains(where: { $0.hasPrefix(".catalog.json.tmp-") }) {
            XCTAssertTrue((doctor.stdout + doctor.stderr).contains("left by killed processes"), doctor.stdout)
        }

        // A second import works, and cleans what the killed one left.
        let again = try runShopy(["catalog", "import", large], home: home, timeout: 120)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(temporaries(), [], "no temporary file is left")
        let after = try runShopy(["catalog", "--json"], home: home)
        XCTAssertEqual(try JSONParser.parse(Array(after.stdout.utf8))["local"]?.intValue, 3 + many.count, after.stdout)
    }
}
