import Foundation
import XCTest
import ShopYTestSupport

/// The built `shopy widget`: one background refresh for many concurrent bars, and an answer at
/// once when the API never answers.
final class WidgetEndToEndTests: XCTestCase {
    var home = TestHome()

    override func tearDown() { home.remove() }

    func log() -> String { (try? String(contentsOfFile: home.path + "/widget.log", encoding: .utf8)) ?? "" }

    func waitForLog(_ text: String, count: Int = 1, within seconds: Double) -> Bool {
        eventually(within: seconds) { log().components(separatedBy: text).count - 1 >= count }
    }

    func testEightConcurrentWidgetsStartExactlyOneRefresh() throws {
        let group = DispatchGroup()
        let results = NSLock()
        nonisolated(unsafe) var outputs: [RunResult] = []
        let path = home.path
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                let result = try? runShopy(["widget", "--format", "waybar"], home: path, timeout: 30)
                results.lock()
                if let result { outputs.append(result) }
                results.unlock()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(outputs.count, 8)
        for output in outputs {
            XCTAssertEqual(output.status, 0, output.stderr)
            XCTAssertEqual(output.stderr, "", "nothing for the bar's stderr")
            XCTAssertEqual(output.stdoutLines.count, 1)
        }
        // Every refresh those bars started has ended once its lock is free.
        XCTAssertTrue(waitForWidgetRefreshes(home: home.path), log())
        XCTAssertTrue(log().contains("done"), log())
        XCTAssertEqual(log().components(separatedBy: "refresh default: started").count - 1, 1, log())
        // Now the timeline is there and not due: more calls start nothing.
        for _ in 0..<3 { XCTAssertEqual(try runShopy(["widget"], home: home.path).status, 0) }
        XCTAssertTrue(waitForWidgetRefreshes(home: home.path), log())
        XCTAssertEqual(log().components(separatedBy: "refresh default: started").count - 1, 1, log())
        let shown = try runShopy(["widget", "--format", "json"], home: home.path)
        XCTAssertTrue(shown.stdout.contains("popular:고양이"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("smartstore"), "the refresh filled the section: \(shown.stdout)")
    }

    func testWidgetAnswersAtOnceWhenTheAPINeverAnswers() throws {
        let server = try ScriptedHTTPServer { _, connection in
            _ = connection.waitForPeerClose(within: 30)
            return false
        }
        defer { server.stop() }
        let environment = ["SHOPY_API_BASE": server.baseURL, "NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret"]
        let first = try runShopy(["widget"], environment: environment, home: home.path, timeout: 30)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("★ 신발"), first.stdout)
        // The bar answered while its refresh still waits on the network (until its own 10 s
        // deadline): it never waits for it (the detached refresh has /dev/null for its output,
        // so our pipes closed at once).
        XCTAssertTrue(widgetRefreshRunning(home: home.path), "the refresh ended before the bar answered: \(log())")
        XCTAssertTrue(waitForLog("started", within: 10), log())
        let second = try runShopy(["widget", "--format", "swiftbar"], environment: environment, home: home.path, timeout: 30)
        XCTAssertEqual(second.status, 0)
        XCTAssertTrue(widgetRefreshRunning(home: home.path), "the second bar waited for the hanging refresh: \(log())")
        XCTAssertFalse(log().contains("failed"), "the hanging refresh had not ended: \(log())")
        XCTAssertEqual(log().components(separatedBy: "started").count - 1, 1, "the hanging refresh holds the lock: \(log())")
    }

    func testDamagedStoreKeepsTheBarsSlot() throws {
        try Data([0xFF, 0x00, 0x7B]).write(to: URL(fileURLWithPath: home.path + "/likes.json"))
        let run = try runShopy(["widget", "--format", "i3blocks"], home: home.path)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdoutLines.first, "shopy: store damaged — run shopy doctor")
        XCTAssertEqual(run.stderr, "")
    }
}
