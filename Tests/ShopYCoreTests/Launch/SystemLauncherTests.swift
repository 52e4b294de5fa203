// The real launcher (Sources/ShopYCore/Launch/Launcher.swift) on harmless programs: argv without
// a shell, stdin, exit codes, SIGPIPE back to its default, a program left running. What `open`
// and `copy` hand it: ShopYCLITests/Commands/OpenCopyTests.

import Foundation
import XCTest
@testable import ShopYCore

final class SystemLauncherTests: XCTestCase {
    func testSystemLauncherRunsArgvWithoutAShell() throws {
        let launcher = SystemLauncher()
        let path = "/usr/bin:/bin"
        let sh = try XCTUnwrap(launcher.find("sh", searchPath: path))
        XCTAssertNil(launcher.find("no-such-program-shopy", searchPath: path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("launch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The "link" is one argument: its `;` and `$(…)` are never interpreted.
        let hostile = "https://x.example/;touch \(dir)/pwned;$(touch \(dir)/pwned2)"
        let out = dir + "/out"
        XCTAssertEqual(launcher.run([sh, "-c", "printf '%s' \"$1\" > \"$0\"; cat >> \"$0\"", out, hostile], input: Array("+stdin".utf8), attached: false, wait: 5), .exited(0))
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), hostile + "+stdin")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/pwned"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/pwned2"))
        XCTAssertEqual(launcher.run([sh, "-c", "exit 7"], input: nil, attached: false, wait: 5), .exited(7))
        // SIGPIPE, which shopy ignores, is back to its default in the program started.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let signals = dir + "/signals"
        XCTAssertEqual(launcher.run([sh, "-c", "grep -E '^Sig(Ign|Blk)' /proc/self/status > \"$0\"", signals], input: nil, attached: false, wait: 5), .exited(0))
        if let status = try? String(contentsOfFile: signals, encoding: .utf8), let ignored = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn") }) {
            let mask = UInt64(ignored.split(separator: "\t").last ?? "", radix: 16) ?? 0
            XCTAssertEqual(mask & (1 << (UInt64(SIGPIPE) - 1)), 0, "SIGPIPE not ignored in the child: \(status)")
        }
        XCTAssertEqual(launcher.run([sh, "-c", "sleep 5"], input: nil, attached: false, wait: 0.2), .stillRunning)
        XCTAssertEqual(launcher.run([dir + "/missing"], input: nil, attached: false, wait: 1), .failedToStart(ENOENT))
    }
}
