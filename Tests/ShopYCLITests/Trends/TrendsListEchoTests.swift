import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// `trends categories --list WORD` quotes a word that matches nothing as errors quote values:
/// cleaned and cut, never echoed whole.
final class TrendsListEchoTests: XCTestCase {
    func testAHugeOrHostileWordIsQuotedCutAndClean() async {
        for (format, stream) in [("table", \CLIRun.stdout), ("json", \CLIRun.stderr)] {
            let word = "\u{1B}]0;x\u{07}" + String(repeating: "가", count: 5000)
            let io = IO.capture(environment: [:], stdoutIsTerminal: false)
            let code = await ShopY.main(["trends", "categories", "--list", word, "--format", format], io: io, transport: NoNetworkTransport())
            let run = CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
            XCTAssertEqual(run.code, 0, format)
            let line = run[keyPath: stream]
            XCTAssertTrue(line.contains("no category matches '"), "\(format): \(line.prefix(200))")
            XCTAssertLessThan(line.utf8.count, 400, format)
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, format)
        }
    }
}
