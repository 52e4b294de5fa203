// Scripts/xctest-summary.sh, which .ci/run ends with: XCTest's own count, its skipped and failed
// test cases and swift test's exit status, in one line (Swift Testing's "0 tests" left out).

import Foundation
import XCTest
import ShopYTestSupport

final class XCTestSummaryScriptTests: XCTestCase {
    func testXCTestSummaryScript() throws {
        let script = Repository.root().appendingPathComponent("Scripts/xctest-summary.sh").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("xctest-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        try """
            Test Case 'A.testOne' passed (0.1 seconds)
            Test Case 'A.testTwo' skipped (0.0 seconds)
            \t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.1 (0.1) seconds
            ✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let text = try ChildProcess.run("/bin/bash", [script, log, "0"]).stdout
        XCTAssertEqual(text, "ci: XCTest: Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.1 (0.1) seconds; 1 skipped, 0 failed test cases; swift test exit status 0\n")
    }
}
