import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

/// The built `shopy` against the built `shopy-emulator` serving 11번가 and Coupang Partners
/// beside Naver on one port: searches side by side, namespaced likes, prices, the Coupang budget
/// and cache, popular's best sellers, status.
final class LiveSourcesEndToEndTests: XCTestCase {
    private var home: TestHome!

    override func setUp() { home = TestHome() }
    override func tearDown() { home.remove() }

    private func live(_ emulator: EmulatorProcess, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["SHOPY_11ST_BASE": emulator.baseURL, "ELEVENST_API_KEY": "emulator-11st-key",
                           "SHOPY_COUPANG_BASE": emulator.baseURL, "COUPANG_ACCESS_KEY": "emulator-coupang-access",
                           "COUPANG_SECRET_KEY": "emulator-coupang-secret"]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    private func shopy(_ arguments: [String], _ environment: [String: String]) throws -> RunResult {
        try runShopy(arguments, environment: environment, home: home.path)
    }

    private func json(_ result: RunResult) throws -> JSONValue { try JSONParser.parse(Array(result.stdout.utf8)) }

    private func requests(_ emulator: EmulatorProcess, _ api: String) throws -> Int {
        try emulator.stats()[api]?["requests"]?.intValue ?? -1
    }

    /// Every file in the store, as text.
    private func storeText() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        return try names.map { try String(contentsOfFile: home.path + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }

    func testSearchAllListsBothSourcesSideBySide() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let run = try shopy(["search", "방충망", "--source", "all", "--size", "5", "--json"], live(emulator))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let page = try json(run)
        XCTAssertEqual(page["source"], .string("11st,coupang"))
        XCTAssertEqual(page["disclosure"]?.stringValue, CoupangSource.disclosure)
        XCTAssertEqual(page["failures"], .array([]))
        let items = try XCTUnwrap(page["items"]?.arrayValue)
        XCTAssertEqual(items.count, 10)
        XCTAssertEqual(items.map { $0["source"]?.stringValue ?? "" }, Array(repeating: ["11st", "coupang"], count: 5).flatMap { $0 }, "round robin")
        XCTAssertEqual(items.map { $0["rank"]?.intValue ?? 0 }, Array(1...10))
        for item in items {
            let id = try XCTUnwrap(item["productId"]?.stringValue)
            XCTAssertTrue(id.hasPrefix(item["source"]!.stringValue! + ":"), id)
            XCTAssertFalse(item["title"]?.stringValue?.contains("<b>") ?? true)
        }
        XCTAssertNotNil(items[1]["rocket"]?.boolValue, "Coupang's flags")
        XCTAssertNil(items[0]["rocket"], "11번가's items have none")
        XCTAssertFalse(run.stdout.contains("link.coupang.com"), "the tracking link is never shown")
        XCTAssertEqual(try requests(emulator, "elevenst"), 1)
        XCTAssertEqual(try requests(emulator, "coupang"), 1)
        // What 11번가 was asked: the keyword in UTF-8, sortCd CP, page 1 of 5.
        let params = try emulator.stats()["elevenst"]?["lastParams"]
        XCTAssertEqual(params?["keyword"]?.stringValue, "방충망")
        XCTAssertEqual(params?["sortCd"]?.stringValue, "CP")
        XCTAssertEqual(params?["pageSize"]?.stringValue, "5")
        XCTAssertEqual(params?["key"]?.stringValue, "***")

        // The table: a SOURCE column, the footer naming both, the disclosure once.
        let table = try shopy(["search", "방충망", "--size", "3", "--sort", "asc", "--format", "table"], live(emulator, ["COLUMNS": "120"]))
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdoutLines[0].contains("SOURCE"), table.stdout)
        XCTAssertTrue(table.stdout.contains("sort asc · 11st, coupang"), table.stdout)
        XCTAssertEqual(table.stdout.components(separatedBy: "쿠팡 파트너스 활동의 일환으로").count, 2, table.stdout)
        let prices = table.stdoutLines.dropFirst().prefix(6).compactMap { line -> Int? in
            line.split(separator: " ").first { $0.hasSuffix("원") }.flatMap { Int($0.dropLast().replacingOccurrences(of: ",", with: "")) }
        }
        XCTAssertEqual(prices, prices.sorted(), "asc orders every item by price: \(table.stdout)")
    }

    /// The issue's own example: `shopy search 에어팟 --source all`, on the emulator with the
    /// hand-made 에어팟 items (the recorded catalog has none).
    func testAirPodsFromBothSources() throws {
        let emulator = try EmulatorProcess(["--items", fixturesDirectory.appendingPathComponent("emulator/airpods-items.json").path])
        defer { emulator.stop() }
        let run = try shopy(["search", "에어팟", "--source", "all", "--format", "table"], live(emulator, ["COLUMNS": "100"]))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("11st") && run.stdout.contains("coupang"), run.stdout)
        XCTAssertTrue(run.stdout.contains("에어팟 프로"), run.stdout)
        XCTAssertTrue(run.stdout.contains("16 of 16 · sort sim · 11st, coupang"), run.stdout)
    }

    func testOneSourceFailingIsNamedAndTheOtherListed() throws {
        // Coupang keys that the gateway refuses: 11번가's items still list, exit 0.
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let run = try shopy(["search", "방충망", "--size", "3"], live(emulator, ["COUPANG_SECRET_KEY": "not-the-secret"]))
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines.count, 3)
        XCTAssertTrue(run.stdoutLines.allSatisfy { $0.contains("\t11st:") }, run.stdout)
        XCTAssertEqual(run.stderrLines, ["shopy: warning: Coupang refused the request's signature or keys (401: Invalid signature.) (listing the other sources)"])
        // Alone, it is the command's error: 77, with the hint.
        let alone = try shopy(["search", "방충망", "--source", "coupang"], live(emulator, ["COUPANG_SECRET_KEY": "not-the-secret"]))
        assertErrorReport(alone, status: 77, contains: ["Invalid signature"])
    }

    func testKeysMissingAndUnsupportedRequestsSendNothing() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        var environment = live(emulator)
        environment["ELEVENST_API_KEY"] = nil
        let missing = try shopy(["search", "방충망", "--source", "11st,coupang"], environment)
        assertErrorReport(missing, status: 77, contains: ["ELEVENST_API_KEY"])
        let date = try shopy(["search", "방충망", "--source", "coupang", "--sort", "date"], live(emulator))
        assertErrorReport(date, status: 64, contains: ["Coupang cannot sort by date"])
        let page = try shopy(["search", "방충망", "--page", "2"], live(emulator))
        assertErrorReport(page, status: 64, contains: ["Coupang cannot list page 2 or later"])
        XCTAssertEqual(try requests(emulator, "elevenst"), 0)
        XCTAssertEqual(try requests(emulator, "coupang"), 0)
        // 11번가 alone pages on.
        let second = try shopy(["search", "방충망", "--source", "11st", "--page", "2", "--size", "5", "--json"], live(emulator))
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try json(second)["start"]?.intValue, 6)
        XCTAssertEqual(try emulator.stats()["elevenst"]?["lastParams"]?["pageNum"]?.stringValue, "2")
    }

    func testNamespacedLikesOpenAndRefresh() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = live(emulator)
        let search = try shopy(["search", "방충망", "--size", "2", "--json"], environment)
        XCTAssertEqual(search.status, 0, search.stderr)
        let items = try XCTUnwrap(try json(search)["items"]?.arrayValue)
        let eleven = try XCTUnwrap(items.first { $0["source"]?.stringValue == "11st" })
        let coupang = try XCTUnwrap(items.first { $0["source"]?.stringValue == "coupang" })
        let elevenID = try XCTUnwrap(eleven["productId"]?.stringValue), coupangID = try XCTUnwrap(coupang["productId"]?.stringValue)
        XCTAssertEqual(try shopy(["like", "1", "2"], environment).status, 0)
        let likes = try json(try shopy(["likes", "--json"], environment))
        XCTAssertEqual(Set(likes["items"]?.arrayValue?.compactMap { $0["productId"]?.stringValue } ?? []), [elevenID, coupangID])

        // open prints the plain link when no opener is there.
        let open = try shopy(["open", "--id", coupangID], environment)
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertEqual(open.stdout, "https://www.coupang.com/vp/products/\(ProductID.bare(coupangID))\n")
        XCTAssertFalse(try storeText().contains("link.coupang.com"), "the tracking link is stored nowhere")

        // 11번가's like by ProductInfo (one request, no search); Coupang's untracked.
        let bare = ProductID.bare(elevenID)
        let before = try requests(emulator, "elevenst"), coupangBefore = try requests(emulator, "coupang")
        _ = try emulator.get("/_emulator/price?productId=\(bare)&price=10")
        let refresh = try shopy(["likes", "refresh", "--json"], environment)
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        let report = try json(refresh)
        let outcomes = Dictionary(uniqueKeysWithValues: (report["items"]?.arrayValue ?? []).map { ($0["productId"]!.stringValue!, $0) })
        XCTAssertEqual(outcomes[elevenID]?["outcome"]?.stringValue, "down")
        XCTAssertEqual(outcomes[elevenID]?["price"]?.intValue, 10)
        XCTAssertEqual(outcomes[coupangID]?["outcome"]?.stringValue, "untracked")
        XCTAssertTrue(outcomes[coupangID]?["reason"]?.stringValue?.contains("terms") ?? false)
        XCTAssertEqual(try requests(emulator, "elevenst"), before + 1)
        XCTAssertEqual(try emulator.stats()["elevenst"]?["lastParams"]?["apiCode"]?.stringValue, "ProductInfo")
        XCTAssertEqual(try requests(emulator, "coupang"), coupangBefore, "nothing asked of Coupang")
        // Gone at 11번가: gone.
        _ = try emulator.get("/_emulator/price?productId=\(bare)&price=gone")
        let gone = try json(try shopy(["likes", "refresh", elevenID, "--id", "--json"], environment))
        XCTAssertEqual(gone["items"]?.arrayValue?.first?["outcome"]?.stringValue, "gone")
        // The price history is kept for the 11번가 like only.
        let prices = try String(contentsOfFile: home.path + "/prices.json", encoding: .utf8)
        XCTAssertTrue(prices.contains(elevenID))
        XCTAssertFalse(prices.contains(coupangID))
        XCTAssertEqual(try shopy(["unlike", "--id", coupangID], environment).status, 0)
    }

    func testTheCoupangBudgetAndCache() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = live(emulator, ["SHOPY_COUPANG_PER_HOUR": "1"])
        XCTAssertEqual(try shopy(["search", "고양이", "--source", "coupang"], environment).status, 0)
        // The same request within the hour: the cache, no request, no budget.
        let again = try shopy(["search", "고양이", "--source", "coupang", "--verbose"], environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("answered from the cache"), again.stderr)
        XCTAssertEqual(try requests(emulator, "coupang"), 1)
        // Another one: past the budget, refused before sending.
        let spent = try shopy(["search", "세제", "--source", "coupang"], environment)
        assertErrorReport(spent, status: 75, contains: ["budget of 1 request an hour is spent", "the next is allowed at"])
        XCTAssertEqual(try requests(emulator, "coupang"), 1)
        // Beside 11번가: a failing source, named; exit 0.
        let both = try shopy(["search", "세제", "--size", "2"], environment)
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual(both.stdoutLines.count, 2)
        XCTAssertTrue(both.stderr.contains("budget of 1 request an hour is spent"), both.stderr)
        // status says how much is spent.
        let status = try shopy(["status", "--no-probe"], environment)
        XCTAssertTrue(status.stdout.contains("source coupang keys set · default"), status.stdout)
        XCTAssertTrue(status.stdout.contains("1 of 1 requests this hour"), status.stdout)
        XCTAssertFalse(status.stdout.contains("emulator-coupang-secret") || status.stdout.contains("emulator-11st-key"), "keys are never printed")
    }

    /// Two shopy processes sharing a store ask Coupang the same at the same moment (a search
    /// beside the widget's refresh): they sign different seconds, so the gateway (the emulator
    /// refuses a signature seen before) takes both; before, one failed with 77 about the clock.
    func testTwoIdenticalCoupangRequestsAtOnceBothSucceed() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = live(emulator, ["SHOPY_COUPANG_PER_HOUR": "100"])
        for keyword in ["러닝화", "고양이", "세제"] {
            let results = Locked<[RunResult]>([])
            let path = home.path
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                if let run = try? runShopy(["search", keyword, "--source", "coupang"], environment: environment, home: path) {
                    results.withLock { $0.append(run) }
                }
            }
            let runs = results.withLock { $0 }
            XCTAssertEqual(runs.count, 2)
            for run in runs { XCTAssertEqual(run.status, 0, "\(keyword): \(run.stderr)") }
        }
    }

    func testACoupang429HoldsTheKey() throws {
        let emulator = try EmulatorProcess(["--coupang-limit", "1"])
        defer { emulator.stop() }
        let environment = live(emulator)
        XCTAssertEqual(try shopy(["search", "고양이", "--source", "coupang"], environment).status, 0)
        let throttled = try shopy(["search", "세제", "--source", "coupang"], environment)
        assertErrorReport(throttled, status: 75, contains: ["Coupang answered 429", "24 hours"])
        XCTAssertEqual(try requests(emulator, "coupang"), 2, "not retried")
        let held = try shopy(["search", "방충망", "--source", "coupang"], environment)
        assertErrorReport(held, status: 75, contains: ["answered 429 earlier"])
        XCTAssertEqual(try requests(emulator, "coupang"), 2, "nothing sent while held")
    }

    func testPopularBestSellersAndGoldbox() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = live(emulator)
        let popular = try shopy(["popular", "--source", "coupang", "-s", "가전디지털", "-s", "1029", "--size", "3", "--json"], environment)
        XCTAssertEqual(popular.status, 0, popular.stderr)
        let sections = try XCTUnwrap(try json(popular)["sections"]?.arrayValue)
        XCTAssertEqual(sections.map { $0["keyword"]?.stringValue ?? "" }, ["가전디지털 (1016)", "반려동물용품 (1029)"])
        XCTAssertEqual(sections.map { $0["items"]?.arrayValue?.count ?? 0 }, [3, 3])
        XCTAssertEqual(try json(popular)["disclosure"]?.stringValue, CoupangSource.disclosure)
        XCTAssertEqual(try emulator.stats()["coupang"]?["lastPath"]?.stringValue?.contains("/products/bestcategories/"), true)
        // Rows 1.1 … like any popular listing.
        XCTAssertEqual(try shopy(["like", "2.1"], environment).status, 0)

        let goldbox = try shopy(["popular", "--source", "coupang", "--goldbox", "--size", "5", "--format", "tsv"], environment)
        XCTAssertEqual(goldbox.status, 0, goldbox.stderr)
        XCTAssertEqual(goldbox.stdoutLines.count, 5)
        let unknown = try shopy(["popular", "--source", "coupang", "-s", "없는분류"], environment)
        assertErrorReport(unknown, status: 64, contains: ["not a Coupang category", "1016 가전디지털"])
        let notCoupang = try shopy(["popular", "--source", "11st", "--goldbox"], environment)
        assertErrorReport(notCoupang, status: 64, contains: ["--goldbox is Coupang's"])
    }

    func testRankOnElevenStreet() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = live(emulator)
        let search = try json(try shopy(["search", "방충망", "--source", "11st", "--size", "30", "--json"], environment))
        let target = try XCTUnwrap(search["items"]?.arrayValue?[7]["productId"]?.stringValue)
        // The namespaced product names its source; with two sources set, rank needs one.
        let rank = try shopy(["rank", "방충망", "--product", target, "--json"], environment)
        XCTAssertEqual(rank.status, 0, rank.stderr)
        XCTAssertEqual(try json(rank)["matches"]?.arrayValue?.first?["rank"]?.intValue, 8)
        let ambiguous = try shopy(["rank", "방충망", "--mall", "다샵"], environment)
        assertErrorReport(ambiguous, status: 64, contains: ["rank scans one source's order"])
    }
}
