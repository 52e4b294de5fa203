// A Coupang hold as `shopy status` and the refused command say it (Sources/ShopYCLI/Commands/
// SourceStatus.swift, Sources/ShopYCore/ProductSources/Coupang/CoupangClient.swift): the same
// end, in the same words (`WaitDuration`).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class CoupangHoldTextTests: XCTestCase {
    let credentials = CoupangCredentials(accessKey: "access-key-abcdefgh", secretKey: "secret-key-abcdefgh")

    func run(_ arguments: [String], home: String, now: Date) async -> CLIRun {
        let environment = ["SHOPY_HOME": home, "COUPANG_ACCESS_KEY": credentials.accessKey, "COUPANG_SECRET_KEY": credentials.secretKey,
                           "SHOPY_COUPANG_BASE": "http://127.0.0.1:1"]
        let io = IO.capture(environment: environment, now: { now })
        let code = await ShopY.main(arguments, io: io)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func testStatusAndTheRefusedSearchSayTheHoldAlike() async throws {
        // "now" with a fraction of a second, as a real one has.
        let now = Date(timeIntervalSince1970: 1_780_000_000.4)
        for (seconds, distance) in [(59.0, "1 min"), (3599, "1 h"), (3600, "1 h"), (3601, "1 h 1 min"), (86399, "24 h"), (25 * 3600, "25 h")] {
            let home = NSTemporaryDirectory() + "shopy-hold-\(UUID().uuidString.prefix(8))"
            defer { try? FileManager.default.removeItem(atPath: home) }
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let key = try CoupangLedger.keyHash(credentials)
            try CoupangLedger(directory: home).hold(key: key, until: now.addingTimeInterval(seconds), now: now)
            // Its end as stored: rounded up to the second (down at the 25 h cap).
            let stored = try XCTUnwrap(try CoupangLedger(directory: home).usage(key: key, now: now, budget: 10).heldUntil)
            let expected = WaitDuration.until(stored, now: now)
            XCTAssertTrue(expected.hasSuffix("(in \(distance))"), expected)

            let status = await run(["status", "--no-probe"], home: home, now: now)
            let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("source coupang") }.map(String.init) ?? status.stdout
            XCTAssertTrue(line.hasSuffix("held after a 429 until \(expected)"), "\(seconds) s: \(line)")

            let search = await run(["search", "고양이", "--source", "coupang"], home: home, now: now)
            XCTAssertEqual(search.code, ExitCode.temporary.rawValue, search.stderr)
            XCTAssertTrue(search.stderr.contains("until \(expected)"), "\(seconds) s: \(search.stderr)")
        }
    }
}
