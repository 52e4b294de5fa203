// The widget's commands as execute → typed result → presenter, and the core refresher on fakes
// (a counting product source, the emulator's DataLab through the shared TrendsService).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
import ShopYCoreTestSupport

final class WidgetResultTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home, "SHOPY_WIDGET_BACKGROUND": "off"] }

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-widget-result-\(UUID().uuidString)").path
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: home) }

    func parsed<C: Command>(_ type: C.Type, _ arguments: [String]) throws -> C {
        try C(ArgumentParser.parse(arguments, for: C.spec, commandPath: "widget " + C.spec.name))
    }

    func context(_ environment: [String: String]? = nil, launcher: (any Launcher)? = nil, now: Date = Date()) -> (Context, CollectedDiagnostics) {
        var io = IO.capture(environment: environment ?? env, now: { now })
        if let launcher { io.launcher = launcher }
        var context = Context(io: io, transport: NoNetworkTransport(), store: SettingsStore(directory: home), network: FakeNetwork(online: true))
        let collected = CollectedDiagnostics()
        context.diagnosticsSink = collected
        return (context, collected)
    }

    /// Counts the searches it answers (from the embedded catalog).
    final class CountingSource: ProductSource, @unchecked Sendable {
        let lock = NSLock()
        var queries: [String] = []
        var kind: SourceKind { .catalog }
        func search(_ request: SearchRequest) async throws -> SearchPage {
            lock.withLock { queries.append("\(request.query) \(request.display)") }
            return try await CatalogSource(catalog: .embedded).search(request)
        }
    }

    func testOptionsAndConfigureAreTypedResults() async throws {
        let (context, _) = context()
        let options = try await parsed(WidgetOptionsCommand.self, []).execute(context)
        XCTAssertEqual(options.map(\.id).prefix(4), ["status", "likes", "price-drops", "trends"])
        XCTAssertEqual(context.io.stdout.text, "", "execute prints nothing")
        _ = WidgetOptionsPresenter(json: true).present(options, context: context)
        XCTAssertEqual(try JSONParser.parse(context.io.stdout.text).arrayValue?.count, options.count)

        let (configure, _) = self.context()
        let result = try await parsed(WidgetConfigureCommand.self, ["--show", "likes,popular:고양이", "--policy", "never"]).execute(configure)
        XCTAssertTrue(result.changed)
        XCTAssertEqual(result.configuration.show, ["likes", "popular:고양이"])
        XCTAssertEqual(result.configuration.policy, .never)
        XCTAssertEqual(configure.io.stdout.text, "")
        do {
            _ = try await parsed(WidgetConfigureCommand.self, ["--policy", "sometimes"]).execute(configure)
            XCTFail("a bad policy is refused")
        } catch let error as UsageError {
            XCTAssertTrue(error.message.contains("invalid --policy"))
        }
    }

    func testShowTimelineAndRefreshResults() async throws {
        let (context, _) = context()
        let before = try await parsed(WidgetTimelineCommand.self, []).execute(context)
        XCTAssertNil(before.state.timeline)
        _ = WidgetTimelinePresenter(json: true).present(before, context: context)
        XCTAssertEqual(context.io.stdout.text, "null\n")

        let (refreshing, _) = self.context()
        guard case .refreshed(let report) = try await parsed(WidgetRefreshCommand.self, []).execute(refreshing) else { return XCTFail("not refreshed") }
        XCTAssertEqual(report.requests, 0, "the catalog sends nothing")
        XCTAssertEqual(report.timeline.entries.count, WidgetRefresher.entryCount)
        XCTAssertEqual(refreshing.io.stdout.text, "")
        _ = WidgetRefreshPresenter(name: "default", background: false).present(.refreshed(report), context: refreshing)
        XCTAssertEqual(refreshing.io.stdout.text, "widget default: refreshed, 0 requests\n")

        let (showing, _) = self.context()
        let state = try await parsed(WidgetCommand.self, []).execute(showing)
        XCTAssertNotNil(state.timeline)
        XCTAssertEqual(state.entry.items.map(\.optionID), report.timeline.shownIDs)
        XCTAssertEqual(showing.io.stdout.text, "")
        XCTAssertEqual(WidgetPresenter(format: .json, family: .small, name: "default").present(state, context: showing), .ok)
        XCTAssertNotNil(try JSONParser.parse(showing.io.stdout.text).objectValue)

        let (background, _) = self.context()
        XCTAssertEqual(WidgetRefreshPresenter(name: "default", background: true).present(.failedInBackground, context: background), .failure)
        XCTAssertEqual(WidgetRefreshPresenter(name: "default", background: true).present(.alreadyRunning, context: background), .ok)
        XCTAssertEqual(background.io.stdout.text, "", "the background prints nothing")
    }

    /// The core refresher fetches each shown item through the shared services: TopItems on the
    /// source it is given, the trends item through TrendsService (here on the emulator).
    func testCoreRefresherUsesTheSourceAndTheTrendsService() async throws {
        let server = try startDataLab()
        var environment = env
        for (k, v) in TrendsFixture.apiHub(server) { environment[k] = v }
        let provider = WidgetProvider(store: SettingsStore(directory: home), name: "default", environment: environment)
        try provider.store.update([.state]) { $0.history = HistoryEntry.record("방충망", at: "2026-12-01T00:00:00Z", in: []) }
        _ = try WidgetService.configure(provider, show: ["status", "popular:고양이", "history:방충망", "trends"], reset: false, policy: nil)
        let source = CountingSource()
        let transport = RecordingTransport()
        let collected = CollectedDiagnostics()
        let trends = TrendsService(environment: environment, transport: transport, network: FakeNetwork(online: true), trace: .off, diagnostics: collected)
        let report = try await WidgetRefresher.refresh(provider, now: TrendsFixture.now, source: { source }, trends: trends)
        XCTAssertEqual(source.lock.withLock { source.queries }.sorted(), ["고양이 3", "방충망 1"])
        XCTAssertFalse(transport.requests.isEmpty)
        XCTAssertEqual(report.requests, transport.requests.count, "the catalog sends nothing; DataLab's requests are counted")
        XCTAssertTrue(report.failures.isEmpty, "\(report.failures)")
        let items = Dictionary(uniqueKeysWithValues: report.timeline.entries[0].items.map { ($0.optionID, $0) })
        XCTAssertTrue(items["trends"]?.line.hasPrefix("↗ trending: ") == true, "\(String(describing: items["trends"]))")
        XCTAssertTrue(items["popular:고양이"]?.short.hasPrefix("★ 고양이: ") == true)
        XCTAssertEqual(items["status"]?.short, "● catalog")
        // A source that cannot be made fails the items that need it, and the status says why.
        let failed = try await WidgetRefresher.refresh(provider, now: TrendsFixture.now,
                                                       source: { throw NetworkError.offline("no route") }, trends: trends)
        XCTAssertEqual(Set(failed.failures.map(\.id)), ["popular:고양이", "history:방충망"])
        XCTAssertEqual(failed.timeline.entries[0].items.first { $0.optionID == "status" }?.short, "● offline")
    }

    func testOpenIsTypedAndItsWarningsGoThroughTheSink() async throws {
        let (setup, _) = context()
        _ = try await parsed(WidgetConfigureCommand.self, ["--show", "popular:고양이"]).execute(setup)
        _ = try await parsed(WidgetRefreshCommand.self, []).execute(setup)

        var environment = env
        environment["PATH"] = "/usr/bin"
        environment["DISPLAY"] = ":0"
        let failing = RecordingLauncher(installed: ["xdg-open"], outcome: ["xdg-open": .exited(3)])
        let (context, collected) = context(environment, launcher: failing)
        let outcome = try await parsed(WidgetOpenCommand.self, ["1"]).execute(context)
        guard case .noOpener(let link) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(link.hasPrefix("https://"))
        XCTAssertEqual(collected.messages(.warning).count, failing.calls.count)
        XCTAssertTrue(collected.messages(.warning).allSatisfy { $0.contains("failed (exit status 3); trying the next opener") }, "\(collected.all)")
        XCTAssertEqual(context.io.stderr.text, "")
        _ = LinkOpeningPresenter().present(outcome, context: context)
        XCTAssertEqual(context.io.stdout.text, link + "\n")
        XCTAssertEqual(collected.messages(.notice), ["no browser opener found ($BROWSER, xdg-open, open, wslview); the link is printed above"])

        let working = RecordingLauncher(installed: ["xdg-open"])
        let (opened, openedDiagnostics) = self.context(environment, launcher: working)
        let result = try await parsed(WidgetOpenCommand.self, ["1"]).execute(opened)
        XCTAssertEqual(result, .opened(link: link, by: "xdg-open"))
        _ = LinkOpeningPresenter().present(result, context: opened)
        XCTAssertEqual(openedDiagnostics.messages(.notice), ["opened with xdg-open: \(link)"])
        XCTAssertEqual(opened.io.stdout.text, "")
    }

    func testInstallIsTheSnippet() async throws {
        let (context, _) = context()
        let snippet = try await parsed(WidgetInstallCommand.self, ["tmux"]).execute(context)
        XCTAssertTrue(snippet.contains(" widget "))
        XCTAssertEqual(context.io.stdout.text, "")
    }
}
