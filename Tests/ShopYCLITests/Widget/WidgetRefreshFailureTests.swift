// A widget refresh that dies without writing a timeline (a crash, a kill, a full disk) must not
// make every later poll start another one; a refresh that fails says so in `widget timeline`;
// the timeline's `lastError` is text from a file and is shown sanitized. In process, with an
// injected clock and a starter that starts nothing.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Counts the refreshes it is asked to start; the "child" never writes a timeline.
final class CountingStarter: WidgetRefreshStarter, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var started: Int { lock.withLock { count } }

    func start(directory: String, name: String, environment: [String: String], stillDue: () -> Bool) -> Bool {
        guard stillDue() else { return false }
        lock.withLock { count += 1 }
        return true
    }
}

final class WidgetRefreshFailureTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home, "SHOPY_WIDGET_BACKGROUND": "off"] }
    let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-widget-fail-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: home) }

    var provider: WidgetProvider { WidgetProvider(store: SettingsStore(directory: home), name: "default", environment: env) }

    func shopy(_ arguments: [String], now: Date) async -> CLIRun {
        let io = IO.capture(environment: env, now: { now })
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func testARefreshThatLeavesNoTimelineIsNotStartedAgainAtEveryPoll() {
        let starter = CountingStarter()
        for seconds in stride(from: 0.0, through: 50, by: 10) {
            _ = WidgetService.show(provider, now: t0.addingTimeInterval(seconds), starter: starter)
        }
        XCTAssertEqual(starter.started, 1, "six polls within a minute of a refresh that died start one refresh")
        let state = WidgetService.show(provider, now: t0.addingTimeInterval(30), starter: starter)
        XCTAssertNil(state.due, "not due while the attempt is recent")
        _ = WidgetService.show(provider, now: t0.addingTimeInterval(WidgetRefresher.retryDelay + 1), starter: starter)
        XCTAssertEqual(starter.started, 2, "after the retry delay the next poll tries again")
    }

    func testAnAttemptFromTheFutureDoesNotStopRefreshes() {
        let starter = CountingStarter()
        _ = WidgetService.show(provider, now: t0.addingTimeInterval(86_400), starter: starter)
        XCTAssertEqual(starter.started, 1)
        // The clock was set back a day: the attempt "tomorrow" is ignored.
        _ = WidgetService.show(provider, now: t0, starter: starter)
        XCTAssertEqual(starter.started, 2)
    }

    func testATimelineWrittenAfterTheAttemptDecidesAgain() throws {
        let starter = CountingStarter()
        _ = WidgetService.show(provider, now: t0, starter: starter)
        let (_, selection, policy) = try provider.resolve()
        // The refresh finished: its timeline is newer than the attempt, and its entries end in 20 min.
        let entries = (0..<4).map { WidgetEntry(date: t0.addingTimeInterval(Double($0) * 300 + 1), items: []) }
        try WidgetTimeline(name: "default", generatedAt: t0.addingTimeInterval(1), policy: policy,
                           fingerprint: StoreFingerprint.of(directory: home), shownIDs: selection.shown.map(\.id), entries: entries).save(directory: home)
        _ = WidgetService.show(provider, now: t0.addingTimeInterval(2), starter: starter)
        XCTAssertEqual(starter.started, 1, "fresh timeline: not due")
        _ = WidgetService.show(provider, now: t0.addingTimeInterval(1_000), starter: starter)
        XCTAssertEqual(starter.started, 2, "the timeline's end passed: due by its policy")
    }

    func testAFailedRefreshIsRecordedAndShown() async throws {
        // A refresh that throws (here: the timeline cannot be written, a directory is in its way).
        try FileManager.default.createDirectory(atPath: home + "/" + WidgetTimeline.fileName("default") + "/x", withIntermediateDirectories: true)
        let run = await shopy(["widget", "refresh", "--background"], now: t0)
        XCTAssertEqual(run.code, 1)
        let state = provider.current(now: t0.addingTimeInterval(5))
        XCTAssertNil(state.due, "the failure holds the next refresh back")
        let shown = await shopy(["widget", "timeline"], now: t0.addingTimeInterval(5))
        XCTAssertTrue(shown.stdout.contains("last refresh failed at \(WidgetClock.format(t0)): store-"), shown.stdout)
    }

    func testLastErrorFromTheFileIsSanitized() async throws {
        let hostile = "timeout\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\nsecond line\u{202E}"
        let timeline = WidgetTimeline(name: "default", generatedAt: t0, policy: .atEnd, fingerprint: StoreFingerprint(text: "x"), shownIDs: ["status"],
                                      entries: [WidgetEntry(date: t0, items: [])], retryAt: t0.addingTimeInterval(60), lastError: hostile)
        // Written as a hostile hand would: save cleans what it writes, so the file is made here.
        guard case .object(var object) = timeline.json else { return XCTFail("a timeline is an object") }
        object["lastError"] = .string(hostile)
        try FileIO.atomicWrite(JSONWriter.serialize(.object(object), pretty: true), to: home + "/" + WidgetTimeline.fileName("default"))
        for arguments in [["widget", "timeline"], ["widget", "timeline", "--json"], ["widget", "--format", "json"]] {
            let run = await shopy(arguments, now: t0.addingTimeInterval(5))
            XCTAssertEqual(run.code, 0, run.stderr)
            let shown = arguments.contains("--json") || arguments.contains("json")
                ? (try JSONParser.parse(run.stdout))[arguments.count == 3 && arguments[1] == "--format" ? "lastRefreshError" : "lastError"]?.stringValue ?? ""
                : run.stdout
            for bad in ["\u{1B}", "\u{07}", "\u{202E}", "\nsecond line"] where shown.contains(bad) {
                XCTFail("\(arguments): \(bad.debugDescription) in \(shown.debugDescription)")
            }
            XCTAssertTrue(shown.contains("timeout"), shown)
        }
    }
}
