import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// The built `shopy` against the built `shopy-emulator`, over real HTTP on loopback.
final class SearchEndToEndTests: XCTestCase {
    nonisolated(unsafe) static var emulator: EmulatorProcess!

    override class func setUp() {
        super.setUp()
        emulator = try! EmulatorProcess()
    }

    override class func tearDown() {
        emulator.stop()
        TestHome.shared.remove()
        super.tearDown()
    }

    var emulator: EmulatorProcess { Self.emulator }

    override func setUpWithError() throws {
        try emulator.reset()
    }

    // MARK: The offline catalog

    func testCatalogIsTheDefaultWithoutKeys() throws {
        let result = try runShopy(["search", "방충망"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines.count, 20)
        let first = result.stdoutLines[0].split(separator: "\t", omittingEmptySubsequences: false)
        XCTAssertEqual(first.count, 6)
        XCTAssertEqual(first[0], "1")
        XCTAssertTrue(first[4].contains("방충망"))
        XCTAssertEqual(result.stderrLines.count, 1)
        XCTAssertTrue(result.stderr.contains("offline catalog") && result.stderr.contains("NAVER_CLIENT_ID") && result.stderr.contains("NAVER_CLIENT_SECRET"))
    }

    func testSourceNaverWithoutKeysIsAnAuthenticationErrorAndSendsNothing() throws {
        let result = try runShopy(["search", "방충망", "--source", "naver"], environment: ["SHOPY_API_BASE": emulator.baseURL])
        assertErrorReport(result, status: 77, contains: ["NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET"])
        XCTAssertEqual(try emulator.requestCount(), 0)
    }

    // MARK: Formats against the emulator

    func testTSVIsTheDefaultForPipesWithAbsoluteRanks() throws {
        let result = try runShopy(["search", "방충망", "--page", "2", "--size", "5"], environment: emulator.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "no catalog notice when searching the API")
        let ranks = result.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[0] }
        XCTAssertEqual(ranks, ["6", "7", "8", "9", "10"])
        for line in result.stdoutLines {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false)
            XCTAssertEqual(cells.count, 6)
            XCTAssertFalse(cells[4].contains("<b>"), "titles are cleaned")
            XCTAssertTrue(cells[5].hasPrefix("https://"))
        }
        let params = try emulator.stats()["lastParams"]
        XCTAssertEqual(params?["start"]?.textValue, "6")
        XCTAssertEqual(params?["display"]?.textValue, "5")
        XCTAssertEqual(params?["sort"]?.textValue, "sim")
    }

    func testJSONSchema() throws {
        let result = try runShopy(["search", "방충망", "--size", "3", "--json", "--sort", "asc"], environment: emulator.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONParser.parse(result.stdout)
        XCTAssertEqual(json.objectValue?.keys, ["query", "sort", "source", "total", "start", "display", "items"])
        XCTAssertEqual(json["query"], .string("방충망"))
        XCTAssertEqual(json["sort"], .string("asc"))
        XCTAssertEqual(json["source"], .string("naver"))
        XCTAssertEqual(json["start"]?.intValue, 1)
        XCTAssertEqual(json["display"]?.intValue, 3)
        XCTAssertGreaterThan(json["total"]?.intValue ?? 0, 3)
        let items = try XCTUnwrap(json["items"]?.arrayValue)
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items[0].objectValue?.keys,
                       ["rank", "productId", "title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image", "source", "liked"])
        XCTAssertEqual(items[0]["source"], .string("naver"))
        XCTAssertEqual(items.map { $0["rank"]?.intValue }, [1, 2, 3])
        let prices = items.compactMap { $0["price"]?.intValue }
        XCTAssertEqual(prices, prices.sorted(), "asc sorts by price")
        XCTAssertEqual(items[0]["highPrice"], .null, "hprice \"\" is null")
        XCTAssertEqual(items[0]["liked"], .bool(false))
        guard case .number = items[0]["productType"] else { return XCTFail("productType is a number") }
        XCTAssertFalse(items[0]["title"]?.stringValue?.contains("<b>") ?? true)
    }

    func testJSONLAndCSV() throws {
        let jsonl = try runShopy(["search", "세제", "--size", "4", "--format", "jsonl"], environment: emulator.environment)
        XCTAssertEqual(jsonl.status, 0, jsonl.stderr)
        XCTAssertEqual(jsonl.stdoutLines.count, 4)
        for (i, line) in jsonl.stdoutLines.enumerated() {
            XCTAssertEqual(try JSONParser.parse(line)["rank"]?.intValue, i + 1)
        }
        let csv = try runShopy(["search", "세제", "--size", "4", "--format=csv"], environment: emulator.environment)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(rows.count, 5)
        XCTAssertTrue(rows[0].hasPrefix("rank,productId,title,price,highPrice,mall,brand,maker,categories,productType,link,image"))
    }

    func testTableFitsTheTerminalWidth() throws {
        for columns in [40, 60, 100] {
            let result = try runShopy(["search", "방충망", "--format", "table", "--size", "10"],
                                      environment: emulator.environment.merging(["COLUMNS": "\(columns)"]) { $1 })
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")
            for line in result.stdoutLines {
                XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns, "'\(line)' fits \(columns) columns")
            }
            XCTAssertTrue(result.stdoutLines.last?.hasPrefix("1–10 of ") ?? false, result.stdout)
            XCTAssertTrue(result.stdout.contains("원"))
        }
    }

    // MARK: The query reaches the server exactly

    func testQueryIsPercentEncodedExactly() throws {
        for query in ["1+1", "a&b=c", "50% 할인 #1", "고양이/강아지"] {
            let result = try runShopy(["search", query], environment: emulator.environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try emulator.stats()["lastQuery"]?.stringValue, query)
        }
    }

    // MARK: Every error of the contract

    func testWrongKeysAre77AndNamesTheVariables() throws {
        var environment = emulator.environment
        environment["NAVER_CLIENT_SECRET"] = "wrong"
        let result = try runShopy(["search", "방충망"], environment: environment)
        assertErrorReport(result, status: 77, contains: ["401", "NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET"])
        XCTAssertFalse(result.stderr.contains("wrong"), "the secret is never printed")
    }

    func testRetiredAPIExplainsTheRetirement() throws {
        let retired = try EmulatorProcess(["--retired"])
        defer { retired.stop() }
        let result = try runShopy(["search", "방충망"], environment: retired.environment)
        assertErrorReport(result, status: 69, contains: ["2026-07-31", "SE05", "--source catalog", "SHOPY_API_BASE"])
    }

    func testDailyQuotaIs75WithoutRetry() throws {
        let limited = try EmulatorProcess(["--quota", "1"])
        defer { limited.stop() }
        XCTAssertEqual(try runShopy(["search", "방충망"], environment: limited.environment).status, 0)
        let result = try runShopy(["search", "방충망"], environment: limited.environment)
        assertErrorReport(result, status: 75, contains: ["daily", "010"])
        XCTAssertEqual(try limited.requestCount(), 2, "a quota answer is not retried")
    }

    func testThrottleIsRetriedThen75() throws {
        let throttled = try EmulatorProcess(["--fault", "throttle"])
        defer { throttled.stop() }
        let result = try runShopy(["search", "방충망"], environment: throttled.environment)
        assertErrorReport(result, status: 75, contains: ["012"])
        XCTAssertEqual(try throttled.requestCount(), 4, "one attempt and three retries")
    }

    func testThrottleRecoversWithinRetries() throws {
        let throttled = try EmulatorProcess(["--fault", "throttle", "--fault-count", "2"])
        defer { throttled.stop() }
        let result = try runShopy(["search", "방충망", "--size", "2"], environment: throttled.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines.count, 2)
        XCTAssertEqual(try throttled.requestCount(), 3)
    }

    func testServerErrorsAreRetriedThen69() throws {
        let failing = try EmulatorProcess(["--fault", "500"])
        defer { failing.stop() }
        let result = try runShopy(["search", "방충망"], environment: failing.environment)
        assertErrorReport(result, status: 69, contains: ["500", "SE99", "4 attempts"])
        XCTAssertEqual(try failing.requestCount(), 4)
    }

    func testRetryAfterIsHonoured() throws {
        let failing = try EmulatorProcess(["--fault", "500", "--fault-count", "1", "--retry-after", "1"])
        defer { failing.stop() }
        let result = try runShopy(["search", "방충망"], environment: failing.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThanOrEqual(result.seconds, 0.95, "waited for Retry-After")
        XCTAssertEqual(try failing.requestCount(), 2)
    }

    func testMalformedBodyIs65() throws {
        let broken = try EmulatorProcess(["--fault", "malformed"])
        defer { broken.stop() }
        let result = try runShopy(["search", "방충망"], environment: broken.environment)
        assertErrorReport(result, status: 65, contains: ["does not parse"])
    }

    func testTruncatedBodyIs65() throws {
        let broken = try EmulatorProcess(["--fault", "truncated"])
        defer { broken.stop() }
        let result = try runShopy(["search", "방충망"], environment: broken.environment)
        assertErrorReport(result, status: 65, contains: ["cut off"])
    }

    func testDroppedConnectionIs69() throws {
        let broken = try EmulatorProcess(["--fault", "drop"])
        defer { broken.stop() }
        let result = try runShopy(["search", "방충망"], environment: broken.environment)
        assertErrorReport(result, status: 69, contains: ["127.0.0.1"])
    }

    func testSlowBodyTimesOutAt75WithinTheDeadline() throws {
        let slow = try EmulatorProcess(["--fault", "slow"])
        defer { slow.stop() }
        // The body would take minutes at a byte every half second: the overall deadline ends it.
        let result = try runShopy(["search", "방충망", "--timeout", "1.5"], environment: slow.environment)
        assertErrorReport(result, status: 75, contains: ["within 1.5 s"])
    }

    func testLatencyPastTheTimeoutIs75() throws {
        let slow = try EmulatorProcess(["--latency", "3000"])
        defer { slow.stop() }
        // The answer comes after 3 s: a 75 means shopy gave up before it.
        let result = try runShopy(["search", "방충망", "--timeout", "1"], environment: slow.environment)
        assertErrorReport(result, status: 75)
    }

    func testConnectionRefusedIs69InPlainWords() throws {
        // A port that was just free: bind, read the port, close.
        let server = try EmulatorProcess()
        let base = server.baseURL
        server.stop()
        let result = try runShopy(["search", "방충망"], environment: ["SHOPY_API_BASE": base, "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"])
        assertErrorReport(result, status: 69, contains: ["refused", "127.0.0.1"])
    }

    func testDNSFailureIs69InPlainWords() throws {
        let result = try runShopy(["search", "방충망"], environment: ["SHOPY_API_BASE": "http://no-such-host.invalid", "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"])
        assertErrorReport(result, status: 69, contains: ["no-such-host.invalid"])
    }

    func testInvalidBaseURLIsRejectedBeforeSending() throws {
        let result = try runShopy(["search", "방충망"], environment: ["SHOPY_API_BASE": "ftp://example", "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"])
        assertErrorReport(result, status: 1, contains: ["SHOPY_API_BASE"])
    }

    // MARK: Bad input sends nothing

    func testInvalidInputIs64AndSendsNoRequest() throws {
        let cases: [([String], String)] = [
            (["search"], "query"),
            (["search", "  "], "query"),
            (["search", "x", "--sort", "price"], "sim, date, asc, dsc"),
            (["search", "x", "--size", "0"], "--size"),
            (["search", "x", "--size", "101"], "--size"),
            (["search", "x", "--page", "0"], "--page"),
            (["search", "x", "--page", "51"], "page at size 20 is 50"),
            (["search", "x", "--page", "11", "--size", "100"], "is 10"),
            (["search", "x", "--exclude", "new"], "used, rental, cbshop"),
            (["search", "x", "--timeout", "0"], "--timeout"),
            (["search", "x", "--format", "xml"], "table, tsv, csv, json, jsonl"),
            (["search", "x", "--srot", "date"], "did you mean '--sort'?"),
            (["search", "x", "--json", "--format", "tsv"], "--json"),
            (["serach", "x"], "did you mean 'search'?"),
        ]
        for (arguments, fragment) in cases {
            let result = try runShopy(arguments, environment: emulator.environment)
            assertErrorReport(result, status: 64, contains: [fragment])
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertEqual(try emulator.requestCount(), 0, "no request left for invalid input")
    }

    // MARK: Network text is sanitized

    func testControlCharactersFromTheNetworkNeverReachTheTerminalRaw() throws {
        let hostile = """
        [{"title":"evil \\u001b[31mred\\u0007 <b>bell</b> \\u009b2J \\u202etxt.exe\\tTAB\\nLF","link":"https://x/1","image":"","lprice":"100","hprice":"","mallName":"mall\\u001b]0;title\\u0007","productId":"1234567890","productType":"2","brand":"","maker":"","category1":"evil","category2":"","category3":"","category4":""}]
        """
        let file = TestHome.shared.path + "/hostile-items.json"
        try hostile.write(toFile: file, atomically: true, encoding: .utf8)
        let server = try EmulatorProcess(["--items", file])
        defer { server.stop() }
        for format in ["tsv", "csv", "table"] {
            let result = try runShopy(["search", "evil", "--format", format], environment: server.environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            for scalar in result.stdout.unicodeScalars {
                let v = scalar.value
                let allowedControl = v == 0x0A || (format == "tsv" && v == 0x09) || (format == "csv" && v == 0x0D)
                XCTAssertFalse((v < 0x20 && !allowedControl) || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v),
                               "\(format): raw U+\(String(v, radix: 16)) in output")
            }
            if format == "tsv" {
                XCTAssertEqual(result.stdoutLines.count, 1)
                XCTAssertEqual(result.stdoutLines[0].split(separator: "\t", omittingEmptySubsequences: false).count, 6)
            }
        }
        let json = try runShopy(["search", "evil", "--json"], environment: server.environment)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
        let title = try JSONParser.parse(json.stdout)["items"]?.arrayValue?.first?["title"]?.stringValue
        XCTAssertEqual(title, "evil \u{1B}[31mred\u{07} bell \u{9B}2J \u{202E}txt.exe TAB LF", "JSON keeps the exact (cleaned) text, escaped")
    }

    // MARK: Verbose, help, version

    func testVerboseTracesRequestsWithoutKeys() throws {
        let result = try runShopy(["search", "방충망", "--verbose", "--size", "1"], environment: emulator.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("> GET \(emulator.baseURL)/v1/search/shop.json?query=%EB%B0%A9%EC%B6%A9%EB%A7%9D&display=1&start=1&sort=sim"))
        XCTAssertTrue(result.stderr.contains("< 200"))
        XCTAssertFalse(result.stderr.contains(EmulatorProcess.secret))
        XCTAssertFalse(result.stderr.contains(EmulatorProcess.id))
    }

    func testHelpAndVersion() throws {
        let help = try runShopy(["search", "--help"], environment: ["COLUMNS": "60"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: shopy search"))
        XCTAssertTrue(help.stdout.contains("EXAMPLES:"))
        for line in help.stdoutLines { XCTAssertLessThanOrEqual(DisplayWidth.of(line), 60, line) }
        let same = try runShopy(["help", "search"], environment: ["COLUMNS": "60"])
        XCTAssertEqual(same.stdout, help.stdout)
        let version = try runShopy(["--version"])
        XCTAssertEqual(version.stdout, "shopy \(ShopY.version)\n")
        let root = try runShopy(["--help"])
        XCTAssertTrue(root.stdout.contains("search"))
    }

    func testNoResultsIsNotAnError() throws {
        let result = try runShopy(["search", "존재하지않는상품명xyz", "--json"], environment: emulator.environment)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(try JSONParser.parse(result.stdout)["total"]?.intValue, 0)
        let tsv = try runShopy(["search", "존재하지않는상품명xyz"], environment: emulator.environment)
        XCTAssertEqual(tsv.status, 0)
        XCTAssertEqual(tsv.stdout, "")
        XCTAssertTrue(tsv.stderr.contains("no results"))
    }

    func testDidYouMeanForTopLevelOptions() throws {
        let result = try runShopy(["--verison"])
        assertErrorReport(result, status: 64, contains: ["did you mean '--version'?"])
    }
}
