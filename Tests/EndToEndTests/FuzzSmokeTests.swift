// A short, bounded run of the libFuzzer target (Fuzz/run.sh): the answer decoder, the title
// cleaner and the listing arithmetic under a few seconds of generated input. Longer runs:
// `Fuzz/run.sh 600` (docs/architecture.md).

import Foundation
import XCTest

final class FuzzSmokeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testFuzzTargetRunsCleanForAFewSeconds() throws {
        let script = Self.root.appendingPathComponent("Fuzz/run.sh").path
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("Fuzz/run.sh needs /bin/sh") }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }) else {
            throw XCTSkip("swiftc is not on PATH, so the fuzz target cannot be built")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script, "3"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // one pipe: nothing to deadlock on
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if process.terminationStatus == 77 {
            throw XCTSkip("this toolchain cannot build with -sanitize=fuzzer: \(text.suffix(300))")
        }
        XCTAssertEqual(process.terminationStatus, 0, String(text.suffix(3000)))
        XCTAssertTrue(text.contains("stat::number_of_executed_units"), String(text.suffix(1000)))
    }
}
