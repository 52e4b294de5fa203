// `shopy open` and `copy` end to end: the built binary with the real launcher, and programs on
// PATH that record what they got (the argv, stdin). In process: ShopYCLITests/Commands/OpenCopyTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

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
