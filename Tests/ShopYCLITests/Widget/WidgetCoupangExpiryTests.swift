// Coupang's terms let an app keep its data for 60 minutes: a widget item that shows Coupang's
// results carries when they were fetched, is not shown past the hour (in the bar, `widget
// timeline` or `widget open`), is not carried into a later timeline by a failed refresh, and
// `shopy widget` rewrites the timeline file without it. In process, with an injected clock.

@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
import ShopYCoreTestSupport

final class WidgetCoupangExpiryTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home, "SHOPY_WIDGET_BACKGROUND": "off"] }
    let t0 = Date(timeIntervalSince1970: 1_796_000_000)
    let title = "코튼 롤화장지 30롤"

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-widget-coupang-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: home) }

    var provider: WidgetProvider { WidgetProvider(store: SettingsStore(directory: home), name: "default", environment: env) }

    var trends: TrendsService {
        TrendsService(environment: env, transport: NoNetworkTransport(), network: FakeNetwork(online: true), trace: .off, diagnostics: CollectedDiagnostics())
    }

    var coupang: FixedSource {
        FixedSource(kind: .coupang, outcome: .success([
            Product(productId: "coupang:1", title: title, price: 15600, link: "https://www.coupang.com/vp/products/1", source: .coupang),
            Product(productId: "coupang:2", title: "두번째 상품", price: 9900, link: "https://www.coupang.com/vp/products/2", source: .coupang),
        ]))
    }

    var timelineText: String { (try? String(contentsOfFile: home + "/" + WidgetTimeline.fileName("default"), encoding: .utf8)) ?? "" }

    func shopy(_ arguments: [String], now: Date) async -> CLIRun {
        let io = IO.capture(environment: env, now: { now })
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func item(_ state: WidgetState) -> WidgetItem? { state.entry.items.first { $0.optionID == "popular:고양이" } }

    func refreshed(policy: WidgetPolicy = .never) async throws {
        _ = try WidgetService.configure(provider, show: ["popular:고양이"], reset: false, policy: policy)
        let report = try await WidgetRefresher.refresh(provider, now: t0, source: { self.coupang }, trends: trends)
        XCTAssertEqual(report.timeline.entries[0].items.first?.coupangFetchedAt, t0, "the item notes when Coupang's results were fetched")
        XCTAssertTrue(timelineText.contains(title))
    }

    func testCoupangLinesAreShownForAnHourThenNeitherShownNorKept() async throws {
        try await refreshed()
        let within = provider.current(now: t0.addingTimeInterval(3599))
        XCTAssertTrue(item(within)?.line.contains(title) ?? false, "\(String(describing: item(within)))")
        XCTAssertFalse(within.holdsExpiredCoupang)

        let after = provider.current(now: t0.addingTimeInterval(3600))
        let shown = try XCTUnwrap(item(after))
        XCTAssertEqual(shown.line, "★ 고양이: Coupang's results are kept an hour; they return with the next refresh")
        XCTAssertNil(shown.link)
        XCTAssertTrue(after.holdsExpiredCoupang)
        XCTAssertFalse(after.timeline?.entries.flatMap(\.items).contains { $0.line.contains(title) } ?? true, "widget timeline shows none of it")
        let timeline = await shopy(["widget", "timeline", "--json"], now: t0.addingTimeInterval(3600))
        XCTAssertFalse(timeline.stdout.contains(title), timeline.stdout)
        let open = await shopy(["widget", "open", "1"], now: t0.addingTimeInterval(3600))
        XCTAssertEqual(open.code, 64, "no link to open: \(open.stderr)")

        // `shopy widget` (what bars poll) rewrites the file without it, and refreshes nothing
        // under the policy `never`.
        let starter = CountingStarter()
        _ = WidgetService.show(provider, now: t0.addingTimeInterval(3600), starter: starter)
        XCTAssertFalse(timelineText.contains(title), timelineText)
        XCTAssertFalse(timelineText.contains(CoupangSource.disclosure))
        XCTAssertEqual(starter.started, 0)
        XCTAssertFalse(provider.current(now: t0.addingTimeInterval(3700)).holdsExpiredCoupang)
        // A failed refresh then says why, rather than carry the line that stands in for them.
        let failed = try await WidgetRefresher.refresh(provider, now: t0.addingTimeInterval(3700),
                                                       source: { throw NetworkError.offline("no route") }, trends: trends)
        XCTAssertEqual(failed.timeline.entries[0].items.first?.line, "★ 고양이: offline")
    }

    /// Coupang's terms ask for the partner disclosure beside its results: the bar texts (the
    /// small family, whose few words are all a bar shows) carry it once at their end, in every
    /// format; a bar that shows none of Coupang's results does not.
    func testBarsShowingCoupangResultsCarryTheDisclosure() async throws {
        try await refreshed()
        for format in WidgetFormat.allCases where format != .json {
            let bar = await shopy(["widget", "--format", format.rawValue], now: t0.addingTimeInterval(60))
            XCTAssertEqual(bar.code, 0, bar.stderr)
            XCTAssertTrue(bar.stdout.contains("이 포스팅은 쿠팡 파트너스"), "\(format): \(bar.stdout)")
            XCTAssertEqual(bar.stdout.components(separatedBy: "이 포스팅은 쿠팡 파트너스").count - 1,
                           format == .i3blocks ? 2 : format == .swiftbar || format == .waybar ? 2 : 1,
                           "\(format): once in the bar text (and once more where a menu, tooltip or short text shows it): \(bar.stdout)")
        }
        let after = await shopy(["widget"], now: t0.addingTimeInterval(3600))
        XCTAssertFalse(after.stdout.contains("쿠팡 파트너스"), "past the hour nothing of Coupang's is shown: \(after.stdout)")
    }

    func testAFailedRefreshCarriesCoupangLinesOnlyWithinTheHour() async throws {
        try await refreshed()
        let failing: () throws -> any ProductSource = { throw NetworkError.offline("no route") }
        let early = try await WidgetRefresher.refresh(provider, now: t0.addingTimeInterval(600), source: failing, trends: trends)
        let carried = try XCTUnwrap(early.timeline.entries[0].items.first)
        XCTAssertTrue(carried.line.contains(title), "the last good value, within the hour")
        XCTAssertEqual(carried.coupangFetchedAt, t0, "still dated when it was fetched")

        let late = try await WidgetRefresher.refresh(provider, now: t0.addingTimeInterval(3600), source: failing, trends: trends)
        let failed = try XCTUnwrap(late.timeline.entries[0].items.first)
        XCTAssertEqual(failed.line, "★ 고양이: offline")
        XCTAssertFalse(timelineText.contains(title), timelineText)
    }

    func testOtherSourcesLinesCarryNoDate() async throws {
        _ = try WidgetService.configure(provider, show: ["popular:고양이"], reset: false, policy: .never)
        let report = try await WidgetRefresher.refresh(provider, now: t0, source: { CatalogSource() }, trends: trends)
        XCTAssertNil(report.timeline.entries[0].items.first?.coupangFetchedAt)
        let later = provider.current(now: t0.addingTimeInterval(86_400))
        XCTAssertEqual(item(later)?.line, report.timeline.entries[0].items.first?.line)
        XCTAssertFalse(later.holdsExpiredCoupang)
    }

    func testATimelineOfTheSchemaBeforeTheDatesIsNotRead() async throws {
        try await refreshed()
        // The same file as schema 1 wrote it: no dates, so Coupang lines of unknown age.
        let old = timelineText.replacingOccurrences(of: #""schema"\s*:\s*2"#, with: #""schema": 1"#, options: .regularExpression)
        XCTAssertNotEqual(old, timelineText)
        try old.write(toFile: home + "/" + WidgetTimeline.fileName("default"), atomically: true, encoding: .utf8)
        XCTAssertNil(WidgetTimeline.load(directory: home, name: "default"))
        let state = provider.current(now: t0)
        XCTAssertEqual(state.due, .noTimeline)
        XCTAssertFalse(item(state)?.line.contains(title) ?? true)
    }

    func testADateFromTheFutureIsNotTrusted() {
        let item = WidgetItem(optionID: "popular:x", kind: .popular, short: "★", line: "★", coupangFetchedAt: t0.addingTimeInterval(3600))
        XCTAssertTrue(WidgetCoupangExpiry.isExpired(item, at: t0), "fetched 'in an hour': the clock was set back")
        XCTAssertFalse(WidgetCoupangExpiry.isExpired(item, at: t0.addingTimeInterval(3599)))
    }
}
