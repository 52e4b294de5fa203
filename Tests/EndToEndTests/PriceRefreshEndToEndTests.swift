import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

/// `shopy likes refresh` against the emulator: drops, rises, products gone, a failing search,
/// alerts once per crossing, `--exec`, a `like` at the same time, and the rate limit.
final class PriceRefreshEndToEndTests: XCTestCase {
    private var home: TestHome!

    override func setUp() { home = TestHome() }
    override func tearDown() { home.remove() }

    private func shopy(_ arguments: [String], _ emulator: EmulatorProcess, timeout: Double = 60) throws -> RunResult {
        try runShopy(arguments, environment: emulator.environment, home: home.path, timeout: timeout)
    }

    private func json(_ result: RunResult) throws -> JSONValue {
        try JSONParser.parse(Array(result.stdout.utf8))
    }

    /// Likes rows 1-3 of a search; their productIds and titles.
    private func likeThree(_ emulator: EmulatorProcess, query: String = "방충망") throws -> [(id: String, title: String, price: Int)] {
        XCTAssertEqual(try shopy(["search", query], emulator).status, 0)
        XCTAssertEqual(try shopy(["like", "1", "2", "3"], emulator).status, 0)
        let likes = try json(try shopy(["likes", "--json"], emulator))
        guard case .array(let items)? = likes["items"] else { throw HarnessError("no items") }
        return items.map { ($0["productId"]!.stringValue!, $0["title"]!.stringValue!, $0["price"]!.intValue!) }
    }

    private func outcomes(_ refresh: JSONValue) -> [String: String] {
        guard case .array(let items)? = refresh["items"] else { return [:] }
        return Dictionary(uniqueKeysWithValues: items.map { ($0["productId"]!.stringValue!, $0["outcome"]!.stringValue!) })
    }

    private func setPrice(_ emulator: EmulatorProcess, _ id: String, _ price: String) throws {
        let answer = try JSONParser.parse(Array(try emulator.get("/_emulator/price?productId=\(id)&price=\(price)")))
        XCTAssertEqual(answer["ok"], .bool(true))
    }

    func testADropARiseAGoneProductAndAnAlertThatFiresOncePerCrossing() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let likes = try likeThree(emulator)
        let (a, b, c) = (likes[0], likes[1], likes[2])
        XCTAssertEqual(try shopy(["likes", "alert", a.id, "--drop", "10"], emulator).status, 0)
        try setPrice(emulator, a.id, String(a.price * 80 / 100))
        try setPrice(emulator, b.id, String(b.price + 1_000))
        try setPrice(emulator, c.id, "gone")

        let first = try shopy(["likes", "refresh", "--json"], emulator)
        XCTAssertEqual(first.status, 0, first.stderr)
        let report = try json(first)
        XCTAssertEqual(outcomes(report), [a.id: "down", b.id: "up", c.id: "gone"])
        guard case .array(let alerts)? = report["alerts"] else { return XCTFail("no alerts: \(first.stdout)") }
        XCTAssertEqual(alerts.count, 1)
        XCTAssertEqual(alerts.first?["productId"]?.stringValue, a.id)
        XCTAssertEqual(alerts.first?["price"]?.intValue, a.price * 80 / 100)

        // Still low: no second alert; the likes listing shows the drop.
        let second = try json(try shopy(["likes", "refresh", "--json"], emulator))
        XCTAssertEqual(outcomes(second)[a.id], "same")
        XCTAssertEqual(second["alerts"], .array([]), "an alert fires once per crossing")
        let listed = try json(try shopy(["likes", "--json", "--drops", "--history"], emulator))
        guard case .array(let drops)? = listed["items"] else { return XCTFail("no items") }
        XCTAssertEqual(drops.map { $0["productId"]?.stringValue }, [a.id], "--drops: only the cheaper like")
        XCTAssertEqual(drops.first?["price"]?.intValue, a.price * 80 / 100)
        XCTAssertEqual(drops.first?["likedPrice"]?.intValue, a.price)
        XCTAssertEqual(drops.first?["lowest"]?.intValue, a.price * 80 / 100)
        XCTAssertNotNil(drops.first?["refreshedAt"]?.stringValue)
        if case .number(let change)? = drops.first?["change"] { XCTAssertEqual(Double(change)!, -0.2, accuracy: 0.001) } else { XCTFail("change") }
        if case .array(let history)? = drops.first?["history"] { XCTAssertEqual(history.count, 2) } else { XCTFail("history") }
        let table = try shopy(["likes", "--format", "table"], emulator)
        XCTAssertTrue(table.stdout.contains("▼ 20%"), table.stdout)

        // Back above the line re-arms; a new drop fires again.
        try setPrice(emulator, a.id, String(a.price))
        XCTAssertEqual(try json(try shopy(["likes", "refresh", a.id, "--json"], emulator))["alerts"], .array([]))
        try setPrice(emulator, a.id, String(a.price / 2))
        let again = try shopy(["likes", "refresh", a.id], emulator)
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("alert: \(a.id) drop 10%"), again.stdout)
        let listedAlerts = try json(try shopy(["likes", "alerts", "--json"], emulator))
        XCTAssertEqual(listedAlerts["count"]?.intValue, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.path + "/prices.json"))
        let doctor = try shopy(["doctor"], emulator)
        XCTAssertTrue(doctor.stdout.contains("prices.json"), doctor.stdout)
    }

    func testALikeWhoseSearchFailsIsAnErrorAndTheOthersAreStillRefreshed() throws {
        // Find the query the second like will be searched by, then fail exactly that query.
        let probe = try EmulatorProcess()
        let likes = try likeThree(probe)
        probe.stop()
        let query = PriceRefresh.query(for: likes[1].title)
        let emulator = try EmulatorProcess(["--fault", "500", "--fault-query", query])
        defer { emulator.stop() }
        try setPrice(emulator, likes[0].id, String(likes[0].price - 10))
        let result = try shopy(["likes", "refresh", "--json", "--timeout", "3"], emulator)
        XCTAssertEqual(result.status, 69, "the error's class: a server error is 69; \(result.stderr)")
        let report = try json(result)
        XCTAssertEqual(outcomes(report), [likes[0].id: "down", likes[1].id: "error", likes[2].id: "same"])
        guard case .array(let items)? = report["items"] else { return XCTFail() }
        XCTAssertFalse(items.first { $0["outcome"]?.stringValue == "error" }?["error"]?.stringValue?.isEmpty ?? true)
        let prices = try json(try shopy(["likes", "--json"], emulator))
        guard case .array(let listed)? = prices["items"] else { return XCTFail() }
        XCTAssertNil(listed.first { $0["productId"]?.stringValue == likes[1].id }?["refreshedAt"]?.stringValue, "the failed like got no point")
        XCTAssertNotNil(listed.first { $0["productId"]?.stringValue == likes[0].id }?["refreshedAt"]?.stringValue)
    }

    func testExecReceivesTheLikeAsJSONAndNotifyWithoutNotifySendSaysSo() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let likes = try likeThree(emulator)
        guard let tee = SystemLauncher().find("tee", searchPath: "/usr/bin:/bin") else { throw XCTSkip("no tee on /usr/bin:/bin") }
        XCTAssertEqual(try shopy(["likes", "alert", likes[2].id, "--below", String(likes[2].price - 1)], emulator).status, 0)
        try setPrice(emulator, likes[2].id, "100")
        let out = home.path + "/exec out.jsonl"
        let notifyMissing = SystemLauncher().find("notify-send", searchPath: "/usr/bin:/bin") == nil
        let result = try shopy(["likes", "refresh", "--exec", "\(tee) -a '\(out)'", "--notify"], emulator)
        XCTAssertEqual(result.status, 0, result.stderr)
        if notifyMissing { XCTAssertTrue(result.stderr.contains("notify-send was not found"), result.stderr) }
        let received = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertEqual(received.split(separator: "\n").count, 1, "one fired alert, one run: \(received)")
        let like = try JSONParser.parse(Array(received.utf8))
        XCTAssertEqual(like["productId"]?.stringValue, likes[2].id)
        XCTAssertEqual(like["currentPrice"]?.intValue, 100)
        XCTAssertEqual(like["likedPrice"]?.intValue, likes[2].price)
        XCTAssertEqual(like["title"]?.stringValue, likes[2].title)
    }

    func testBadInputChangesNothing() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let likes = try likeThree(emulator)
        let before = try? String(contentsOfFile: home.path + "/prices.json", encoding: .utf8)
        for arguments in [["likes", "alert", likes[0].id, "--below", "0"], ["likes", "alert", likes[0].id, "--below", "abc"],
                          ["likes", "alert", likes[0].id, "--drop", "100"], ["likes", "alert", likes[0].id, "--drop", "0"],
                          ["likes", "alert", "99999999999", "--below", "100"], ["likes", "alert", likes[0].id],
                          ["likes", "refresh", "--depth", "0"], ["likes", "refresh", "--depth", "1100"],
                          ["likes", "refresh", "99999999999"], ["likes", "refresh", "--exec", "tee 'x"]] {
            let result = try shopy(arguments, emulator)
            assertErrorReport(result, status: 64)
        }
        XCTAssertEqual(try? String(contentsOfFile: home.path + "/prices.json", encoding: .utf8), before)
        XCTAssertEqual(try emulator.requestCount(), 1, "only the search that made the likes")
    }

    func testTheCatalogIsARecordingAllSame() throws {
        XCTAssertEqual(try runShopy(["search", "방충망"], home: home.path).status, 0)
        XCTAssertEqual(try runShopy(["like", "1", "2"], home: home.path).status, 0)
        let result = try runShopy(["likes", "refresh", "--json"], home: home.path)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try json(result)
        XCTAssertEqual(Set(outcomes(report).values), ["same"])
        XCTAssertTrue(report["note"]?.stringValue?.contains("recording") ?? false, result.stdout)
    }

    func testALikeDuringARefreshIsKept() throws {
        let emulator = try EmulatorProcess(["--latency", "300"])
        defer { emulator.stop() }
        let likes = try likeThree(emulator)
        try setPrice(emulator, likes[0].id, "10")
        // 'shopy likes' (in likeThree) is a listing of its own: the search's rows again.
        XCTAssertEqual(try shopy(["search", "방충망"], emulator).status, 0)
        // The refresh has read the likes once its first request has left (--verbose says so);
        // it asks for three at 2 a second, each answered after 300 ms.
        let refresh = try WatchProcess(Binary.path("shopy"), ["likes", "refresh", "--json", "--rate", "2", "--verbose"],
                                       environment: emulator.environment.merging(["SHOPY_HOME": home.path]) { $1 })
        defer { refresh.kill() }
        try refresh.waitForStderr(containing: "> GET", timeout: 30)
        let like = try shopy(["like", "4"], emulator)
        XCTAssertEqual(like.status, 0, like.stderr)
        XCTAssertEqual(try refresh.waitForExit(timeout: 60), 0, refresh.stderr)
        let listed = try json(try shopy(["likes", "--json"], emulator))
        XCTAssertEqual(listed["count"]?.intValue, 4, "the like made during the refresh is kept")
        guard case .array(let items)? = listed["items"] else { return XCTFail() }
        XCTAssertEqual(items.first { $0["productId"]?.stringValue == likes[0].id }?["price"]?.intValue, 10)
    }

    func testTwoHundredLikesRespectTheRateLimit() throws {
        let rate = 40
        let emulator = try EmulatorProcess(["--rate-limit", String(rate + 4)])
        defer { emulator.stop() }
        var likes = LikeCollection()
        for item in Catalog.embedded.items where likes.count < 200 {
            let product = ProductMapper.product(from: item)
            likes.add(Like(product: product, likedAt: "2026-12-01T00:00:00Z", likedPrice: product.price))
        }
        let file = home.path + "/two-hundred.json"
        try Data(LikesFile.export(likes, at: "2026-12-01T00:00:00Z")).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try shopy(["likes", "import", file], emulator).status, 0)
        let result = try shopy(["likes", "refresh", "--json", "--rate", String(rate)], emulator, timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try json(result)
        let stats = try emulator.stats()
        let requests = stats["requests"]!.intValue!
        XCTAssertEqual(stats["throttled"]?.intValue, 0, "never past the emulator's per-second limit")
        XCTAssertEqual(report["requests"]?.intValue, requests)
        XCTAssertGreaterThanOrEqual(requests, 200)
        XCTAssertGreaterThanOrEqual(result.seconds, Double(requests - 1) / Double(rate), "no faster than --rate")
        XCTAssertEqual(outcomes(report).count, 200)
        XCTAssertFalse(outcomes(report).values.contains("error"))
        let found = outcomes(report).values.filter { $0 == "same" }.count
        XCTAssertGreaterThanOrEqual(found, 190, "nearly every product is found by its title: \(found)")
    }

    func testPriceDriftIsADeterministicWalk() throws {
        func prices(_ emulator: EmulatorProcess) throws -> [[Int]] {
            try (0..<4).map { _ in
                let result = try shopy(["search", "방충망", "--json"], emulator)
                guard case .array(let items)? = try json(result)["items"] else { throw HarnessError("no items") }
                return items.prefix(5).map { $0["price"]!.intValue! }
            }
        }
        let first = try EmulatorProcess(["--price-drift"])
        let a = try prices(first)
        first.stop()
        let second = try EmulatorProcess(["--price-drift"])
        defer { second.stop() }
        XCTAssertEqual(try prices(second), a, "the same requests see the same prices")
        XCTAssertNotEqual(a[0], a[3], "prices walk: \(a)")
        let help = try runProcess(Binary.path("shopy-emulator"), ["--help"])
        XCTAssertTrue(help.stdout.contains("--price-drift") && help.stdout.contains("/_emulator/price"), help.stdout)
    }

    func testARefreshKilledMidwayLeavesWholeFiles() throws {
        let emulator = try EmulatorProcess(["--latency", "200"])
        defer { emulator.stop() }
        let likes = try likeThree(emulator)
        XCTAssertEqual(try shopy(["likes", "refresh"], emulator).status, 0)
        let before = try String(contentsOfFile: home.path + "/prices.json", encoding: .utf8)
        for delay in [0.15, 0.3, 0.45, 0.6] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Binary.path("shopy"))
            process.arguments = ["likes", "refresh", "--rate", "4"]
            process.environment = emulator.environment.merging(["SHOPY_HOME": home.path, "PATH": "/usr/bin:/bin"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            killAfter(process, seconds: delay)
            let prices = try String(contentsOfFile: home.path + "/prices.json", encoding: .utf8)
            XCTAssertNotNil(try? JSONParser.parse(Array(prices.utf8)), "prices.json is whole after SIGKILL at \(delay) s")
            XCTAssertGreaterThanOrEqual(prices.count, before.count)
        }
        let doctor = try JSONParser.parse(Array(try shopy(["doctor", "--json"], emulator).stdout.utf8))
        let statuses = doctor["files"]?.arrayValue?.compactMap { $0["status"]?.stringValue } ?? []
        XCTAssertFalse(statuses.contains("damaged"), "\(statuses)")
        XCTAssertEqual(try json(try shopy(["likes", "--json"], emulator))["count"]?.intValue, likes.count)
    }
}
