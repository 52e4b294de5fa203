import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Options, configuration, default set, the cap, policies with an injected clock, store
/// changes, a damaged store. In process; background refreshes are off (SHOPY_WIDGET_BACKGROUND).
final class WidgetBehaviourTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home, "SHOPY_WIDGET_BACKGROUND": "off"] }

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-widget-\(UUID().uuidString)").path
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: home) }

    func shopy(_ arguments: [String], now: Date? = nil) async -> CLIRun {
        let clock = now
        let io = IO.capture(environment: env, now: { clock ?? Date() })
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    var provider: WidgetProvider { WidgetProvider(store: SettingsStore(directory: home), name: "default", environment: env) }

    func ids() throws -> [String] { try provider.options().map(\.id) }

    func testOptionsFollowLikesSectionsAndHistory() async throws {
        XCTAssertEqual(try ids(), ["status", "likes", "price-drops", "trends", "popular:고양이", "popular:세제", "popular:방충망"])
        let priceDrops = try XCTUnwrap(provider.options().first { $0.id == "price-drops" })
        XCTAssertTrue(priceDrops.available, "prices are tracked (likes refresh)")
        XCTAssertNil(priceDrops.reason)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "{\"schema\":1,".write(toFile: home + "/prices.json", atomically: true, encoding: .utf8)
        let damaged = try XCTUnwrap(provider.options().first { $0.id == "price-drops" })
        XCTAssertFalse(damaged.available, "a damaged prices.json makes price drops unavailable, not the widget")
        XCTAssertEqual(damaged.reason, "prices.json cannot be read — run shopy doctor")
        try FileManager.default.removeItem(atPath: home + "/prices.json")
        let r1 = await shopy(["search", "세제", "-q"])
        XCTAssertEqual(r1.code, 0)
        XCTAssertTrue(try ids().contains("history:세제"))
        let r2 = await shopy(["like", "1", "-q"])
        XCTAssertEqual(r2.code, 0)
        let liked = try ids().filter { $0.hasPrefix("like:") }
        XCTAssertEqual(liked.count, 1)
        let r3 = await shopy(["popular", "-s", "강아지", "--save", "-q", "--size", "1"])
        XCTAssertEqual(r3.code, 0)
        let sections = try ids().filter { $0.hasPrefix("popular:") }
        XCTAssertEqual(sections, ["popular:강아지"])
        let r4 = await shopy(["history", "--clear"])
        XCTAssertEqual(r4.code, 0)
        XCTAssertFalse(try ids().contains("history:세제"))
        let json = await shopy(["widget", "options", "--json"])
        XCTAssertEqual(json.code, 0)
        let values = try XCTUnwrap(JSONParser.parse(json.stdout).arrayValue)
        XCTAssertTrue(values.allSatisfy { $0["id"]?.stringValue != nil && $0["title"]?.stringValue != nil && $0["available"]?.boolValue != nil })
    }

    func testDefaultSetWhenNothingIsChosen() async throws {
        let (_, selection, policy) = try provider.resolve()
        XCTAssertTrue(selection.isDefault)
        XCTAssertEqual(selection.shown.map(\.id), ["status", "likes", "popular:고양이", "price-drops"])
        XCTAssertEqual(policy, .atEnd)
        let run = await shopy(["widget"])
        XCTAssertEqual(run.code, 0)
        XCTAssertEqual(run.stdout.split(separator: "·").count, 4, run.stdout)
    }

    func testFourItemCapAndOrderKept() async throws {
        let run = await shopy(["widget", "configure", "--show", "popular:세제,status,likes", "--show", "popular:방충망,popular:고양이"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("only the first 4 are shown"), run.stdout)
        let (_, selection, _) = try provider.resolve()
        XCTAssertEqual(selection.shown.map(\.id), ["popular:세제", "status", "likes", "popular:방충망"])
        XCTAssertEqual(selection.overflow, ["popular:고양이"])
        let medium = await shopy(["widget", "--family", "medium"])
        XCTAssertEqual(medium.stdout.split(separator: "\n").count, 4)
        let r5 = await shopy(["widget", "configure", "--reset"])
        XCTAssertEqual(r5.code, 0)
        XCTAssertTrue(try provider.resolve().1.isDefault)
    }

    func testUnknownIDsAre64WithTheCloseOnesAndNothingIsWritten() async throws {
        let run = await shopy(["widget", "configure", "--show", "status,popular:고양", "--policy", "never"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("popular:고양이"), run.stderr)
        XCTAssertTrue(try provider.resolve().1.isDefault)
        XCTAssertEqual(try provider.resolve().2, .atEnd)
    }

    func testNamesAreIndependent() async throws {
        let r6 = await shopy(["widget", "configure", "--name", "bar2", "--show", "likes"])
        XCTAssertEqual(r6.code, 0)
        let other = WidgetProvider(store: SettingsStore(directory: home), name: "bar2", environment: env)
        XCTAssertEqual(try other.resolve().1.shown.map(\.id), ["likes"])
        XCTAssertTrue(try provider.resolve().1.isDefault)
        let r7 = await shopy(["widget", "--name", "../x"])
        XCTAssertEqual(r7.code, 64)
    }

    func testRefreshThenNotDueThenStoreChangeMakesItDue() async throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let r8 = await shopy(["widget", "configure", "--policy", "never"])
        XCTAssertEqual(r8.code, 0)
        XCTAssertEqual(provider.current(now: t0).due, .noTimeline)
        let refresh = await shopy(["widget", "refresh"], now: t0)
        XCTAssertEqual(refresh.code, 0, refresh.stderr)
        XCTAssertTrue(refresh.stdout.contains("0 requests"), "the catalog needs no request: \(refresh.stdout)")
        XCTAssertNil(provider.current(now: t0.addingTimeInterval(86400)).due)
        XCTAssertTrue(provider.current(now: t0).entry.items.contains { $0.optionID == "popular:고양이" && $0.link != nil })
        let r9 = await shopy(["search", "고양이", "-q"])
        XCTAssertEqual(r9.code, 0)
        let r10 = await shopy(["like", "2", "-q"])
        XCTAssertEqual(r10.code, 0)
        let state = provider.current(now: t0)
        XCTAssertEqual(state.due, .storeChanged)
        XCTAssertEqual(state.entry.items.first { $0.optionID == "likes" }?.short, "♥ 1", "likes are read live")
        let timeline = await shopy(["widget", "timeline", "--json"])
        XCTAssertEqual(try JSONParser.parse(timeline.stdout)["entries"]?.arrayValue?.count, 4)
        XCTAssertEqual(try JSONParser.parse(timeline.stdout)["policy"]?["kind"]?.stringValue, "never")
    }

    func testDamagedStoreShowsAShortEntryAndExitsZero() async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: home + "/preferences.json"))
        let plain = await shopy(["widget"])
        XCTAssertEqual(plain.code, 0)
        XCTAssertEqual(plain.stdout, "shopy: store damaged — run shopy doctor\n")
        let json = await shopy(["widget", "--format", "json"])
        XCTAssertEqual(json.code, 0)
        XCTAssertEqual(try JSONParser.parse(json.stdout)["error"]?["class"]?.stringValue, "store-damaged")
        let waybar = await shopy(["widget", "--format", "waybar"])
        XCTAssertEqual(waybar.code, 0)
        XCTAssertEqual(try JSONParser.parse(waybar.stdout)["alt"]?.stringValue, "store-damaged")
    }

    func testPlaceholderSnapshotOpenAndInstall() async throws {
        let r11 = await shopy(["widget", "--placeholder"])
        XCTAssertTrue(r11.stdout.contains("···"))
        let r12 = await shopy(["widget", "--snapshot", "--family", "medium"])
        XCTAssertTrue(r12.stdout.contains("♥ 12"))
        let r13 = await shopy(["widget", "refresh"])
        XCTAssertEqual(r13.code, 0)
        XCTAssertTrue(try WidgetService.link(ofItem: 3, provider, now: Date()).hasPrefix("https://"))
        XCTAssertThrowsError(try WidgetService.link(ofItem: 1, provider, now: Date()), "status has no link")
        // A bar's click (`widget open` without a number): the first shown item with a link.
        XCTAssertEqual(try WidgetService.link(ofItem: nil, provider, now: Date()), try WidgetService.link(ofItem: 3, provider, now: Date()))
        let r14 = await shopy(["widget", "open", "9"])
        XCTAssertEqual(r14.code, 64)
        for bar in WidgetInstall.Bar.allCases {
            let run = await shopy(["widget", "install", bar.rawValue])
            XCTAssertEqual(run.code, 0)
            XCTAssertTrue(run.stdout.contains(" widget "), run.stdout)
        }
        let waybar = await shopy(["widget", "install", "waybar"]).stdout
        XCTAssertTrue(waybar.contains("\"return-type\": \"json\""))
    }

    /// A history query with a comma (`USB-C, 65W`) is listed by `widget options` as `--show`
    /// takes it back: the comma written `\,`.
    func testAnOptionIdWithACommaCanBeChosen() async throws {
        let searched = await shopy(["search", "-q", "{a,b}", "--source", "catalog"])
        XCTAssertNotEqual(searched.code, 64, searched.stderr)
        let options = await shopy(["widget", "options"])
        XCTAssertTrue(options.stdout.contains("history:{a\\,b}"), options.stdout)
        let chosen = await shopy(["widget", "configure", "--show", "status,history:{a\\,b}"])
        XCTAssertEqual(chosen.code, 0, chosen.stderr)
        XCTAssertEqual(try provider.store.read { $0.widgets["default"]?.show }, ["status", "history:{a,b}"])
        XCTAssertEqual(WidgetConfigureCommand.ids(#"a\,b,c\\,d\e"#), ["a,b", #"c\"#, #"d\e"#])
        for id in ["x", "a,b", #"back\slash,"#] { XCTAssertEqual(WidgetConfigureCommand.ids(WidgetConfigureCommand.typed(id)), [id]) }
    }

    /// `widget open` without a number, as every bar snippet's click runs it, when no shown item
    /// has a link: one line saying so, exit 64; with a number past the shown ones, the same code.
    func testOpenWithoutANumberWhenNoItemHasALink() async throws {
        let configured = await shopy(["widget", "configure", "--show", "status,likes"])
        XCTAssertEqual(configured.code, 0, configured.stderr)
        let refreshed = await shopy(["widget", "refresh"])
        XCTAssertEqual(refreshed.code, 0, refreshed.stderr)
        let run = await shopy(["widget", "open"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: none of the widget's 2 shown items has an http or https link to open\n"), run.stderr)
        let two = await shopy(["widget", "open", "1", "2"])
        XCTAssertEqual(two.code, 64, "at most one number")
    }

    /// The issue's case: `--policy after:0001-01-01T00:00:00Z` wrote the year as `1`, and every
    /// later read of preferences.json failed.
    func testAPolicyInTheYearOneReadsBack() async throws {
        var run = await Shell.run(["widget", "configure", "--policy", "after:0001-01-01T00:00:00Z"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 0, run.stderr)
        let stored = try XCTUnwrap(FileManager.default.contents(atPath: home + "/preferences.json"))
        XCTAssertTrue(String(decoding: stored, as: UTF8.self).contains("\"0001-01-01T00:00:00Z\""), String(decoding: stored, as: UTF8.self))
        run = await Shell.run(["widget", "configure"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("policy: after 0001-01-01T00:00:00Z"), run.stdout)
        run = await Shell.run(["config", "list"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 0, run.stderr)
    }
}

/// The widget's price drops come from the prices `likes refresh` records.
final class WidgetPriceDropTests: XCTestCase {
    func like(_ id: String, liked: Int?) -> Like {
        let product = Product(productId: id, title: "t\(id)", price: liked, highPrice: nil, mall: nil, brand: nil, maker: nil,
                              categories: [], productType: nil, link: nil, image: nil)
        return Like(product: product, likedAt: "2026-12-01T00:00:00Z", likedPrice: liked)
    }

    func testADropIsALikeWhoseLatestRefreshedPriceIsBelowItsLikedPrice() {
        var book = PriceBook()
        var cheaper = PriceRecord()
        cheaper.record(PricePoint(at: "2026-12-01T01:00:00Z", price: 12_000))
        cheaper.record(PricePoint(at: "2026-12-01T02:00:00Z", price: 9_000))
        book["1"] = cheaper
        var dearer = PriceRecord()
        dearer.record(PricePoint(at: "2026-12-01T01:00:00Z", price: 8_000))
        dearer.record(PricePoint(at: "2026-12-01T02:00:00Z", price: 11_000))
        book["2"] = dearer
        var gone = PriceRecord()
        gone.record(PricePoint(at: "2026-12-01T02:00:00Z", price: nil))
        book["3"] = gone
        let tracking = TrackedPrices(book: book)
        XCTAssertNil(tracking.unavailableReason)
        let drops = tracking.drops(among: [like("1", liked: 10_000), like("2", liked: 10_000), like("3", liked: 10_000), like("4", liked: 10_000), like("5", liked: nil)])
        XCTAssertEqual(drops.map(\.like.product.productId), ["1"], "only the latest price counts; never refreshed, gone or unknown liked price are not drops")
        XCTAssertEqual(drops.first?.currentPrice, 9_000)
    }
}
