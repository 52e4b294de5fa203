// Issue 8: what a hostile server can send (impossible start/display/total, huge Retry-After,
// unusable productIds, huge fields, escapes) and where the base URL's userinfo could show.
// In process, through a transport that answers whatever the test says; nothing leaves the machine.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYCoreTestSupport

/// Answers each request with what `answer` makes of it; counts the requests.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let answer: @Sendable (HTTPRequest) -> HTTPResponse
    private var count = 0

    init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.answer = answer }

    var requests: Int { lock.lock(); defer { lock.unlock() }; return count }

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        lock.withLock { count += 1 }
        return answer(request)
    }

    /// A 200 with `body`.
    static func json(_ body: String) -> ScriptedTransport {
        ScriptedTransport { _ in HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Array(body.utf8)) }
    }
}

/// Runs shopy in process against a transport, with keys set and a loopback base (no path check).
enum HostileRun {
    static func run(_ arguments: [String], transport: any HTTPTransport, home: String? = nil,
                    base: String = "http://127.0.0.1:9", terminal: Bool = false, clock: any TimerClock = SystemClock()) async -> CLIRun {
        let dir = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("shopy-hostile-\(UUID().uuidString)").path
        defer { if home == nil { try? FileManager.default.removeItem(atPath: dir) } }
        let env = ["NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret", "SHOPY_API_BASE": base, "SHOPY_HOME": dir]
        var io = IO.capture(environment: env, stdoutIsTerminal: terminal)
        io.clock = clock
        let code = await ShopY.main(arguments, io: io, transport: transport)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    static func item(_ id: String, title: String = "상품", mall: String = "몰") -> String {
        let object = WireItem(title: title, link: "https://example.test/\(id.count)", lprice: "1000", mallName: mall, productId: id, productType: "2").json
        return String(decoding: JSONWriter.serialize(object), as: UTF8.self)
    }

    static func answer(total: Int, start: Int, display: Int, items: [String]) -> String {
        "{\"lastBuildDate\":\"\",\"total\":\(total),\"start\":\(start),\"display\":\(display),\"items\":[\(items.joined(separator: ","))]}"
    }

    static func tempHome() -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-hostile-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

final class HostileAnswerTests: XCTestCase {

    // MARK: 1. impossible start / display / total

    func testSearchRefusesAStartNearIntMax() async {
        let body = HostileRun.answer(total: 9, start: Int.max, display: 1, items: [HostileRun.item("81813683218")])
        for format in ["table", "tsv", "json"] {
            let run = await HostileRun.run(["search", "후드티", "--format", format], transport: ScriptedTransport.json(body))
            XCTAssertEqual(run.code, 65, run.stderr)
            XCTAssertTrue(run.stderr.contains("\"start\" is 9223372036854775807, but start 1 was asked for"), run.stderr)
            XCTAssertEqual(run.stdout, "")
        }
    }

    func testRankRefusesAStartNearIntMaxAndANegativeTotal() async {
        let huge = HostileRun.answer(total: 9, start: Int.max, display: 1, items: [HostileRun.item("81813683218")])
        var run = await HostileRun.run(["rank", "후드티", "--product", "81813683218", "--depth", "100"], transport: ScriptedTransport.json(huge))
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("\"start\" is 9223372036854775807"), run.stderr)

        let negative = HostileRun.answer(total: -5, start: 1, display: 0, items: [])
        run = await HostileRun.run(["rank", "후드티", "--product", "81813683218", "--depth", "100"], transport: ScriptedTransport.json(negative),
                                   terminal: true)
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("\"total\" is -5, a negative count"), run.stderr)
        XCTAssertFalse(run.stdout.contains("top -5"), run.stdout)
    }

    func testDisplayMustCountTheItemsAndStartMustEchoTheRequest() async {
        let items = [HostileRun.item("81813683218")]
        var run = await HostileRun.run(["search", "후드티"], transport: ScriptedTransport.json(HostileRun.answer(total: 9, start: 1, display: 5, items: items)))
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("\"display\" is 5, but 1 item came"), run.stderr)
        run = await HostileRun.run(["search", "후드티"], transport: ScriptedTransport.json(HostileRun.answer(total: 9, start: 1, display: -1, items: [])))
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("outside 0–100"), run.stderr)
        run = await HostileRun.run(["search", "후드티", "--page", "2"], transport: ScriptedTransport.json(HostileRun.answer(total: 99, start: 1, display: 1, items: items)))
        XCTAssertEqual(run.code, 65)
        XCTAssertTrue(run.stderr.contains("\"start\" is 1, but start 21 was asked for"), run.stderr)
        // What the contract allows still works: past the end, an empty page at the asked start.
        run = await HostileRun.run(["search", "후드티", "--page", "2"], transport: ScriptedTransport.json(HostileRun.answer(total: 3, start: 21, display: 0, items: [])))
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    // MARK: 2. Retry-After

    func testRetryAfterPastTheDeadlineGivesUpAtOnceWith75() async {
        for (status, value) in [(429, "99999999999999999999"), (503, "120"), (429, "Wed, 21 Oct 2099 07:28:00 GMT")] {
            let transport = ScriptedTransport { _ in
                HTTPResponse(status: status, headers: ["retry-after": value], body: Array(#"{"errorMessage":"slow down","errorCode":"012"}"#.utf8))
            }
            let clock = TestClock(immediate: true)
            let run = await HostileRun.run(["search", "후드티", "--timeout", "5"], transport: transport, clock: clock)
            XCTAssertEqual(run.code, 75, "\(status) \(value): \(run.stderr)")
            XCTAssertEqual(transport.requests, 1, "no retry when the wait passes the deadline")
            XCTAssertEqual(clock.sleeps, [], "gave up at once: \(status) \(value)")
            XCTAssertTrue(run.stderr.contains("asked to wait"), run.stderr)
        }
    }

    func testRetryAfterThatIsNotRFC9110FallsBackToTheBackoff() async {
        for value in ["1e300", "inf", "-1"] {
            let transport = ScriptedTransport { _ in HTTPResponse(status: 500, headers: ["retry-after": value], body: []) }
            let clock = TestClock(immediate: true)
            let run = await HostileRun.run(["search", "후드티", "--timeout", "5"], transport: transport, clock: clock)
            XCTAssertEqual(run.code, 69, "\(value): \(run.stderr)")
            XCTAssertEqual(transport.requests, 4, "\(value): retried with the backoff")
            // The backoff: 0.25 s doubling, each between half and all of it (full jitter).
            let sleeps = clock.sleeps
            XCTAssertEqual(sleeps.count, 3, "\(value): \(sleeps)")
            for (retry, wait) in sleeps.enumerated() {
                let full = Duration.milliseconds(250 << retry)
                XCTAssertTrue(wait >= full / 2 - .milliseconds(1) && wait <= full, "\(value): retry \(retry + 1) waited \(wait)")
            }
        }
    }

    // MARK: 4. per-field limits

    func testFieldsAreCutAtACharacterBoundaryAndLongURLsDropped() {
        let title = String(repeating: "e\u{301}가", count: 100_000)
        let item = WireItem(title: title, link: "https://x.test/" + String(repeating: "a", count: 5000), lprice: "1",
                            mallName: String(repeating: "몰", count: 10_000), productId: "123", brand: String(repeating: "b", count: 300),
                            category1: String(repeating: "c", count: 1000))
        let product = ProductMapper.product(from: item)
        XCTAssertEqual(product.title.count, FieldLimits.title)
        XCTAssertTrue(product.title.hasPrefix("e\u{301}가e\u{301}"))
        XCTAssertEqual(product.title, String(title.prefix(FieldLimits.title)), "the cut keeps whole Characters")
        XCTAssertEqual(product.mall?.count, FieldLimits.shopText)
        XCTAssertEqual(product.brand?.count, FieldLimits.shopText)
        XCTAssertEqual(product.categories.first?.count, FieldLimits.shopText)
        XCTAssertNil(product.link, "a cut URL would point elsewhere")
        let stored = JSONWriter.serialize(ItemJSON.object(ListedItem(rank: 1, product: product)))
        XCTAssertLessThan(stored.count, 10_000, "one item brings at most a few KB into the store")
    }

    func testAHugeTitleDoesNotGrowTheStore() async throws {
        let home = HostileRun.tempHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let items = (0..<20).map { HostileRun.item(String(81_000_000_000 + $0), title: String(repeating: "가", count: 200_000)) }
        let run = await HostileRun.run(["search", "후드티"], transport: ScriptedTransport.json(HostileRun.answer(total: 20, start: 1, display: 20, items: items)),
                                       home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: home + "/state.json")[.size] as? Int)
        XCTAssertLessThan(size, 200_000, "20 items of 200,000 characters each, saved at most \(FieldLimits.title) each")
    }

    // MARK: 5. productIds

    func testItemsWithoutAUsableProductIdAreDroppedAndCounted() async throws {
        let ids = [" ", "81813683218", "abc", "\u{1B}]52;c;QUFB\u{07}\u{1B}[2J", "1.5", String(repeating: "9", count: 40), " 27364551122 "]
        let wire = WireSearchResponse(total: 7, start: 1, display: 7, items: ids.map { WireItem(title: "t", productId: $0) })
        let page = ProductMapper.page(from: wire, query: "q", sort: .sim, source: .naver)
        XCTAssertEqual(page.items.map(\.productId), ["81813683218", "27364551122"])
        XCTAssertEqual(page.dropped, 5)

        let home = HostileRun.tempHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let body = HostileRun.answer(total: 2, start: 1, display: 2, items: [HostileRun.item(" "), HostileRun.item("81813683218")])
        var run = await HostileRun.run(["search", "후드티", "--verbose"], transport: ScriptedTransport.json(body), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("dropped 1 of 2 items without a usable productId"), run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1, run.stdout)
        run = await HostileRun.run(["like", "1"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: liked: 81813683218"), run.stderr)
        for command in [["likes"], ["likes", "export"], ["unlike", "1"]] {
            run = await HostileRun.run(command, transport: NoNetworkTransport(), home: home)
            XCTAssertEqual(run.code, 0, "\(command): \(run.stderr)")
        }
    }

    func testLikeRefusesABlankIdFromAnOldListingAndTheStoreStaysReadable() async throws {
        let home = HostileRun.tempHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let store = SettingsStore(environment: ["SHOPY_HOME": home])
        try store.update([.state]) { settings in
            settings.lastListing = LastListing(command: "search old", savedAt: "2026-11-30T00:00:00Z",
                                               rows: [LastListing.Row(row: "1", product: Product(productId: " ", title: "빈 아이디"))])
        }
        var run = await HostileRun.run(["like", "1"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("not a usable productId; nothing was liked"), run.stderr)
        run = await HostileRun.run(["likes"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    // MARK: 8. escapes on every terminal path

    func testLikeAndUnlikeLinesNeverCarryEscapes() async throws {
        let home = HostileRun.tempHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let evil = "\u{1B}]52;c;QUFB\u{07}\u{1B}[2J"
        // A like stored by an older shopy, with an escape in its title (an id outside the product
        // rule is damage now: such a like could never be removed).
        let store = SettingsStore(environment: ["SHOPY_HOME": home])
        try store.update([.likes]) { settings in
            var likes = settings.likes
            _ = likes.add(Like(product: Product(productId: "1", title: "t" + evil, price: 5), likedAt: "", likedPrice: 5))
            settings.likes = likes
        }
        for command in [["like", "--id", "1"], ["unlike", "--id", "1"], ["unlike", "--id", "2" + evil]] {
            let run = await HostileRun.run(command, transport: NoNetworkTransport(), home: home)
            XCTAssertEqual(run.code, 0, run.stderr)
            // The like/unlike lines are notices (stderr), cleaned all the same.
            XCTAssertFalse(run.stderr.contains("\u{1B}") || run.stderr.contains("\u{07}"), "\(command): \(run.stderr.debugDescription)")
            XCTAssertFalse(run.stderr.isEmpty)
        }
        // A like from a listing: the title carries the escape.
        let body = HostileRun.answer(total: 1, start: 1, display: 1, items: [HostileRun.item("81813683218", title: "x" + evil, mall: evil)])
        var run = await HostileRun.run(["search", "q"], transport: ScriptedTransport.json(body), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await HostileRun.run(["like", "1"], transport: NoNetworkTransport(), home: home)
        XCTAssertFalse(run.stdout.contains("\u{1B}"), run.stdout.debugDescription)
    }

    func testRankTableLinesNeverCarryEscapes() async {
        let evil = "\u{1B}]52;c;QUFB\u{07}\u{1B}[2J"
        let body = HostileRun.answer(total: 1, start: 1, display: 1, items: [HostileRun.item("81813683218", title: "x" + evil, mall: "몰" + evil)])
        let run = await HostileRun.run(["rank", "q" + evil, "--product", "81813683218", "--depth", "50"], transport: ScriptedTransport.json(body),
                                       terminal: true)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("81813683218"), run.stdout)
        XCTAssertFalse(run.stdout.contains("\u{1B}]") || run.stdout.contains("\u{1B}[2J") || run.stdout.contains("\u{07}"), run.stdout.debugDescription)
    }

    // MARK: 9. userinfo of SHOPY_API_BASE

    func testTerminalTextCleansEveryInterpolation() {
        let id = "\u{1B}[2J9\u{202E}"
        let line: TerminalText = "liked: \(id) · \(42) · \(Character("\u{9B}"))x"
        XCTAssertFalse(line.rendered.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E }, line.rendered.debugDescription)
        XCTAssertTrue(line.rendered.hasPrefix("liked: "))
        let styled = line.styled(.bold, enabled: true)
        XCTAssertTrue(styled.rendered.hasPrefix("\u{1B}[1m"), "the program's own style survives")
        let nested: TerminalText = "a \(styled)"
        XCTAssertEqual(nested.rendered, "a " + styled.rendered, "safe text is not cleaned twice")
    }

    func testUserinfoIsRedactedInTheTraceAndTheInvalidURLError() async {
        let body = HostileRun.answer(total: 0, start: 1, display: 0, items: [])
        var run = await HostileRun.run(["search", "q", "--verbose"], transport: ScriptedTransport.json(body), base: "http://user:hunter2@127.0.0.1:9")
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("hunter2") || run.stderr.contains("user:"), run.stderr)
        XCTAssertTrue(run.stderr.contains("http://[redacted]@127.0.0.1:9/v1/search/shop.json"), run.stderr)
        run = await HostileRun.run(["search", "q"], transport: NoNetworkTransport(), base: "ftp://user:hunter2@host/")
        XCTAssertEqual(run.code, 1)
        XCTAssertFalse(run.stderr.contains("hunter2"), run.stderr)
        XCTAssertTrue(run.stderr.contains("ftp://[redacted]@host/"), run.stderr)
        XCTAssertEqual(URLRedaction.redact("http://a@b@host:1/p?x=@y"), "http://[redacted]@host:1/p?x=@y")
        XCTAssertEqual(URLRedaction.redact("https://host/p@q"), "https://host/p@q")
        XCTAssertEqual(URLRedaction.redact("mailto:a@b.c"), "mailto:a@b.c")
    }

    /// From the network: a negative productType was listed, liked, and every later `likes`
    /// said likes.json was damaged (65). It means "unknown" now, as a negative price does.
    func testAHostileProductTypeNeverLocksTheLikesOut() async throws {
        let home = HostileRun.tempHome()
        let item = #"{"title":"t","link":"https://example.test/1","lprice":"1000","mallName":"m","productId":"81813683218","productType":"-3"}"#
        let body = HostileRun.answer(total: 1, start: 1, display: 1, items: [item])
        var run = await HostileRun.run(["search", "후드티"], transport: ScriptedTransport.json(body), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await HostileRun.run(["like", "1"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await HostileRun.run(["likes", "--format", "json"], transport: NoNetworkTransport(), home: home)
        XCTAssertEqual(run.code, 0, run.stderr)
        let items = try XCTUnwrap(try JSONParser.parse(Array(run.stdout.utf8))["items"]?.arrayValue)
        XCTAssertEqual(items.first?["productType"], JSONValue.null)
    }
}
