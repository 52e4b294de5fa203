// `shopy doctor` on coupang.json (Coupang's budget, holds and 60-minute cache) like every other
// store file: ok with what it holds, missing, damaged (65; --repair moves it aside), not a
// regular file; and answers kept past the hour Coupang's terms allow, which --repair removes.

@testable import ShopYBase
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

final class DoctorCoupangFileTests: StoreDirectoryTestCase {
    let t0 = Date(timeIntervalSince1970: 1_796_000_000)
    var ledgerPath: String { directory + "/coupang.json" }

    func doctor(_ arguments: [String] = [], at now: Date) async -> CLIRun {
        let io = IO.capture(environment: ["SHOPY_HOME": directory, "NO_COLOR": "1", "COLUMNS": "200"], now: { now })
        let code = await ShopY.main(["doctor"] + arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func line(_ run: CLIRun) -> String? {
        run.stdout.split(separator: "\n").map(String.init).first { $0.hasPrefix("  coupang.json") }
    }

    /// A ledger with one request and one cached answer at `t0`.
    func ledger() throws {
        let ledger = CoupangLedger(directory: directory)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /search?keyword=x", now: t0, budget: 10), .send)
        try ledger.remember(key: "k", request: "GET /search?keyword=x", body: Array(#"{"rCode":"0","data":{"productData":[{"productName":"롤화장지"}]}}"#.utf8), at: t0)
    }

    func testMissingAndOK() async throws {
        var run = await doctor(at: t0)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(line(run), "  coupang.json      not created yet")
        try ledger()
        run = await doctor(at: t0.addingTimeInterval(60))
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(line(run), "  coupang.json      ok · 1 key, 1 request in the last hour, 1 answer cached · 0600")
        let jsonRun = await doctor(["--json"], at: t0)
        let json = try JSONParser.parse(Array(jsonRun.stdout.utf8))
        let file = try XCTUnwrap(json["files"]?.arrayValue?.first { $0["name"]?.stringValue == "coupang.json" })
        XCTAssertEqual(file["status"]?.stringValue, "ok")
    }

    func testAnswersPastTheHourAreReportedAndRemovedByRepair() async throws {
        try ledger()
        let later = t0.addingTimeInterval(3600 + 5)
        let run = await doctor(at: later)
        XCTAssertEqual(run.code, 0, "kept but never used: no action needed; \(run.stderr)")
        XCTAssertEqual(line(run), "  coupang.json      stale: it holds 1 Coupang answer older than the hour Coupang's terms allow (never used; the next Coupang request or --repair removes them)")
        XCTAssertTrue(try String(contentsOfFile: ledgerPath, encoding: .utf8).contains("롤화장지"), "doctor alone changes nothing")

        let repaired = await doctor(["--repair"], at: later)
        XCTAssertEqual(repaired.code, 0, repaired.stderr)
        XCTAssertTrue(repaired.stdout.contains("  coupang.json      ok · no requests in the last hour, nothing cached"), repaired.stdout)
        XCTAssertTrue(repaired.stdout.contains("    removed 1 answer older than an hour"), repaired.stdout)
        XCTAssertFalse(try String(contentsOfFile: ledgerPath, encoding: .utf8).contains("롤화장지"), "Coupang's data is gone from the file")
    }

    func testDamagedIsReportedAndMovedAsideByRepair() async throws {
        try Data("{\"schema\":1,\"keys\":[".utf8).write(to: URL(fileURLWithPath: ledgerPath))
        let run = await doctor(at: t0)
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(line(run)?.hasPrefix("  coupang.json      damaged: it is not JSON") ?? false, run.stdout)
        XCTAssertTrue(run.stdout.contains("run 'shopy doctor --repair'"), run.stdout)

        let repaired = await doctor(["--repair"], at: t0)
        XCTAssertEqual(repaired.code, 0, repaired.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ledgerPath))
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("coupang.damaged-") }
        XCTAssertEqual(aside.count, 1)
        let moved = try XCTUnwrap(aside.first)
        XCTAssertTrue(repaired.stdout.contains("moved aside to \(directory)/\(moved); starting fresh: its request counts of the last hour went with it, so wait an hour before asking Coupang"),
                      repaired.stdout)
        let after = await doctor(at: t0)
        XCTAssertEqual(line(after), "  coupang.json      not created yet")
    }

    func testALinkIsLeftAloneAndALockThatIsAFIFOIsRemoved() async throws {
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory + "/elsewhere.json"))
        try FileManager.default.createSymbolicLink(atPath: ledgerPath, withDestinationPath: directory + "/elsewhere.json")
        XCTAssertEqual(mkfifo(directory + "/.coupang.lock", 0o600), 0)
        let run = await doctor(at: t0)
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(line(run)?.hasPrefix("  coupang.json      not a regular file: it is a symbolic link") ?? false, run.stdout)
        XCTAssertTrue(run.stdout.contains(".coupang.lock is a FIFO, not a regular file: shopy refuses it (exit 74); --repair removes it"), run.stdout)
        let repaired = await doctor(["--repair"], at: t0)
        XCTAssertTrue(repaired.stdout.contains("removed .coupang.lock, which was a FIFO"), repaired.stdout)
        XCTAssertEqual(FileIO.kind(of: ledgerPath), "a symbolic link", "the link and its target are the user's")
    }
}
