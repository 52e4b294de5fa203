// A short, bounded run of the libFuzzer target (Fuzz/run.sh): the answer decoder, the title
// cleaner and the listing arithmetic under a few seconds of generated input. Longer runs:
// `Fuzz/run.sh 600` (docs/architecture.md).

import Foundation
import XCTest
import ShopYTestSupport

final class FuzzSmokeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testFuzzTargetRunsCleanForAFewSeconds() throws {
        let script = Self.root.appendingPathComponent("Fuzz/run.sh").path
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("Fuzz/run.sh needs /bin/sh") }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }) else {
            throw XCTSkip("swiftc is not on PATH, so the fuzz target cannot be built")
        }
        // stdout and stderr drained together: libFuzzer reports on stderr.
        let result = try ChildProcess.run("/bin/sh", [script, "3"], timeout: 900)
        let text = result.stdout + result.stderr
        if result.status == 77 {
            throw XCTSkip("this toolchain cannot build with -sanitize=fuzzer: \(text.suffix(300))")
        }
        XCTAssertEqual(result.status, 0, String(text.suffix(3000)))
        XCTAssertTrue(text.contains("stat::number_of_executed_units"), String(text.suffix(1000)))
    }
}
