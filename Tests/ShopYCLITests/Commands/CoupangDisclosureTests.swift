// Coupang's terms ask results to carry the partner disclosure, whole. README's example
// `shopy popular --source coupang -s 가전디지털` against the emulator: TSV, CSV and JSONL keep
// stdout data and say the disclosure on stderr (as search does); a table prints it under the
// rows wrapped to the width, never cut.

@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator

final class CoupangDisclosureTests: XCTestCase {
    let notice = "shopy: " + CoupangSource.disclosure

    func testTheREADMEExampleOnTheEmulator() async throws {
        let server = try liveEmulator()
        let environment = liveEnvironment(server, home: scratchHome())
        let run = await shopy(["popular", "--source", "coupang", "-s", "가전디지털"], environment: environment)
        XCTAssertEqual(run.code, 0, run.stderr)
        let rows = run.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        XCTAssertEqual(rows.map { String($0[0]) }, (1...10).map { "1.\($0)" }, run.stdout)
        XCTAssertTrue(rows.allSatisfy { $0[1].hasPrefix("coupang:") && $0[5].hasPrefix("https://www.coupang.com/vp/products/") }, run.stdout)
        XCTAssertEqual(run.stderrLines, [notice], "the disclosure beside the data")
        let requests = try await server.requests("coupang")
        XCTAssertEqual(requests, 1, "one section, one request")

        for format in ["csv", "jsonl"] {
            let other = await shopy(["popular", "--source", "coupang", "-s", "1016", "--size", "2", "--format", format], environment: environment)
            XCTAssertEqual(other.code, 0, other.stderr)
            XCTAssertEqual(other.stderrLines, [notice], format)
            XCTAssertFalse(other.stdout.contains(CoupangSource.disclosure), "stdout stays data: \(format)")
        }
        let quiet = await shopy(["popular", "--source", "coupang", "-s", "1016", "--size", "2", "--quiet"], environment: environment)
        XCTAssertEqual(quiet.stderr, "", "a notice, left out with --quiet as search's")
    }

    func testATableCarriesTheWholeDisclosureAtAnyWidth() async throws {
        let server = try liveEmulator()
        let environment = liveEnvironment(server, home: scratchHome(), sources: [.coupang])
        for (arguments, columns) in [(["popular", "--source", "coupang", "-s", "가전디지털", "--size", "2"], 40),
                                     (["search", "방충망", "--size", "2"], 50), (["popular", "--source", "coupang", "--size", "1"], 200)] {
            let run = await shopy(arguments + ["--format", "table"], environment: environment, columns: columns)
            XCTAssertEqual(run.code, 0, run.stderr)
            let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            XCTAssertTrue(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(arguments) at \(columns): \(run.stdout)")
            let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("이 포스팅은") }, run.stdout)
            XCTAssertEqual(lines[start...].joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines), CoupangSource.disclosure,
                           "\(arguments) at \(columns)")
            XCTAssertEqual(run.stderr, "")
        }
    }
}
