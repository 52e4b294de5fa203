// End-to-end checks of issue 12's fixes that need the built binary or the emulator: rank reports
// the requests the server received; rank's link is never cut; --verison gets a did-you-mean.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class ConventionFixesEndToEndTests: XCTestCase {
    func testRankReportsTheRequestsTheServerReceived() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        // 방충망 has 21 results on the emulator's catalog: one page holds them all.
        let result = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table"], environment: emulator.environment.merging(["COLUMNS": "40"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        let received = try emulator.requestCount()
        let footer = try XCTUnwrap(result.stdoutLines.last)
        XCTAssertTrue(footer.hasSuffix("· \(received) request\(received == 1 ? "" : "s") sent"), "footer '\(footer)', server received \(received)")
        // The link is whole even at 40 columns.
        XCTAssertTrue(result.stdoutLines.contains("  https://smartstore.naver.com/main/products/2788117408"), result.stdout)

        let catalog = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table", "--source", "catalog"])
        XCTAssertTrue(catalog.stdoutLines.last?.hasSuffix("· offline catalog") ?? false, "the catalog sends nothing: \(catalog.stdout)")
    }

    func testDidYouMeanForTopLevelOptions() throws {
        let result = try runShopy(["--verison"])
        assertErrorReport(result, status: 64, contains: ["did you mean '--version'?"])
    }
}

/// `shopy open` and `copy` with the real launcher: programs on PATH that record what they got.
final class OpenCopyEndToEndTests: XCTestCase {
    func testOpenAndCopyHandTheLinkOverAsOneArgumentAndOnStdin() throws {
        let home = TestHome()
        defer { home.remove() }
        let bin = home.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let record = home.path + "/record"
        // Records each argument on its own line, then stdin.
        let recorder = "#!/bin/sh\nfor a in \"$@\"; do printf 'arg:%s\\n' \"$a\"; done > \"\(record)\"\ncat >> \"\(record)\"\n"
        for name in ["xdg-open", "xclip", "mybrowser"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/" + name, contents: Data(recorder.utf8), attributes: [.posixPermissions: 0o755]))
        }
        XCTAssertEqual(try runShopy(["search", "방충망", "--size", "2", "-q"], home: home.path).status, 0)
        let link = "https://smartstore.naver.com/main/products/668979777"
        let environment = ["PATH": bin + ":/usr/bin:/bin", "DISPLAY": ":0"]

        var result = try runShopy(["open", "1"], environment: environment, home: home.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "shopy: opened with xdg-open: \(link)\n")
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "arg:\(link)\n")

        result = try runShopy(["open", "1"], environment: environment.merging(["BROWSER": "mybrowser --new-window %s"]) { $1 }, home: home.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "arg:--new-window\narg:\(link)\n", "$BROWSER first, %s replaced")

        result = try runShopy(["copy", "1"], environment: environment, home: home.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "shopy: copied with xclip: \(link)\n")
        XCTAssertEqual(try String(contentsOfFile: record, encoding: .utf8), "arg:-selection\narg:clipboard\narg:-in\n\(link)", "the link on stdin")

        // No opener at all: the link on stdout.
        result = try runShopy(["open", "1"], environment: ["PATH": "/nonexistent"], home: home.path)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, link + "\n")
        XCTAssertTrue(result.stderr.contains("no browser opener found"), result.stderr)
    }
}
