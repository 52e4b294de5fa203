// `shopy trends`: validation before sending, every error code, every output format, --list.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
import ShopYCoreTestSupport

final class TrendsCommandTests: XCTestCase {
    typealias F = TrendsFixture
    let range = ["--from", "2026-09-01", "--to", "2026-11-29"]
    let keys = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key-value", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9/shopping/v1"]

    // MARK: - Validation: 64, the rule named, nothing sent

    func testValidationErrorsSendNothing() async {
        let cases: [([String], String)] = [
            (["categories", "패션의류", "--from", "2026-02-30"], "real calendar date"),
            (["categories", "패션의류", "--from", "2017-07-31"], "2017-08-01"),
            (["categories", "패션의류", "--from", "2026-11-02", "--to", "2026-10-01"], "after"),
            (["categories", "패션의류", "--to", "2026-12-02"], "future"),
            (["categories", "패션의류", "--last", "12x"], "--last"),
            (["categories", "패션의류", "--last", "8w", "--from", "2026-01-01"], "--last and --from"),
            (["categories", "패션의류", "--last", "200m"], "2017-08-01"),
            (["categories", "패션의류", "--unit", "year"], "--unit"),
            (["categories", "패션의류", "--device", "tv"], "--device"),
            (["categories", "패션의류", "--gender", "x"], "--gender"),
            (["categories", "패션의류", "--ages", "20,25"], "--ages"),
            (["categories", "패션의류", "--ages", "10,10"], "10 is given twice"),
            (["categories", "패션의류", "--ages", "20,30s,30"], "30 is given twice"),
            (["categories", "패션의류", "--by", "color"], "--by"),
            (["categories", "패션의류", "식품", "--by", "age"], "--by breaks down one category"),
            (["categories", "--by", "age"], "--by breaks down one category"),
            (["categories", "식품", "--by", "gender", "--gender", "f"], "splits by gender already"),
            (["categories", "러닝화"], "ambiguous"),
            (["categories", "런닝화"], "unknown category"),
            (["categories", "식품", "50000006"], "given twice"),
            (["keywords", "원피스"], "needs --category"),
            (["keywords", "--category", "패션의류"], "at least one keyword"),
            (["keywords", "a", "a", "--category", "패션의류"], "given twice"),
            (["keywords", "a", "b", "--category", "패션의류", "--by", "gender"], "one keyword"),
            (["keywords", "a", "--category", "러닝화"], "ambiguous"),
            (["keywords"] + (1...41).map(String.init) + ["--category", "패션의류"], "more than one comparison takes"),
            (["categories", "--list", "a", "b"], "at most one word"),
            (["colors"], "unknown subcommand"),
        ]
        for (arguments, rule) in cases {
            let run = await F.run(arguments, environment: keys, transport: NoNetworkTransport())
            XCTAssertEqual(run.code, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(rule), "\(arguments) should name '\(rule)': \(run.stderr)")
            XCTAssertEqual(run.stdout, "")
        }
        // Today (in Korea) is allowed as the last day.
        XCTAssertNoThrow(try TrendsOptions(ArgumentParser.parse(["--to", "2026-12-01"], for: TrendsCategoriesCommand.spec, commandPath: "t"))
            .range(today: CalendarDate("2026-12-01")!))
    }

    func testAmbiguousAndUnknownNamesListCandidates() async {
        let ambiguous = await F.run(["categories", "남성신발/운동화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertEqual(ambiguous.code, 64)
        XCTAssertTrue(ambiguous.stderr.contains("6 categories match") && ambiguous.stderr.contains("50003854 패션잡화 > 남성신발 > 운동화 > 러닝화"), ambiguous.stderr)
        let many = await F.run(["categories", "eBook"], environment: keys, transport: NoNetworkTransport())
        XCTAssertTrue(many.stderr.contains("and 12 more"), "at most 10 listed: \(many.stderr)")
        let two = await F.run(["categories", "러닝화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertTrue(two.stderr.contains("e.g. 남성신발/운동화/러닝화"), two.stderr)
        let unknown = await F.run(["categories", "런닝화"], environment: keys, transport: NoNetworkTransport())
        XCTAssertTrue(unknown.stderr.contains("closest: 50003854"), unknown.stderr)
    }

    func testNoKeysNamesBothPairs() async {
        let run = await F.run(["categories"] + range, environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(run.code, 77)
        for name in ["NAVER_API_HUB_KEY_ID", "NAVER_API_HUB_KEY", "NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET"] {
            XCTAssertTrue(run.stderr.contains(name), run.stderr)
        }
        let half = await F.run(["categories"] + range, environment: ["NAVER_API_HUB_KEY_ID": "x"], transport: NoNetworkTransport())
        XCTAssertEqual(half.code, 77)
        var badBase = keys
        badBase["SHOPY_DATALAB_BASE"] = "ftp://example"
        let invalid = await F.run(["categories"] + range, environment: badBase, transport: NoNetworkTransport())
        XCTAssertEqual(invalid.code, 1)
        XCTAssertTrue(invalid.stderr.contains("SHOPY_DATALAB_BASE"))
    }

    func testListIsOfflineWithoutKeys() async throws {
        let run = await F.run(["categories", "--list", "러닝화"], environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout, "50003854\t패션잡화 > 남성신발 > 운동화 > 러닝화\n50003835\t패션잡화 > 여성신발 > 운동화 > 러닝화\n")
        let json = await F.run(["categories", "--list", "패션의류", "--format", "json"], environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(try JSONParser.parse(json.stdout).arrayValue?.count, 69, "the top level and its 68 leaves")
        let none = await F.run(["categories", "--list", "zzzz"], environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(none.code, 0, "a search that finds nothing is not an error")
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "shopy: no category matches 'zzzz'\n")
    }

    // MARK: - Error codes

    func testServerErrorsMapToExitCodes() async throws {
        func run(_ configure: @escaping (inout EmulatorConfig) -> Void, environment: ((EmulatorServer) -> [String: String])? = nil) async throws -> (CLIRun, EmulatorServer) {
            let server = try startDataLab(configure)
            let result = await F.run(["keywords", "원피스", "--category", "50000000", "--timeout", "20"] + range,
                                     environment: environment?(server) ?? F.apiHub(server), transport: SystemTransport.shared)
            return (result, server)
        }
        let (wrongKeys, _) = try await run({ $0.clientSecret = "other" })
        XCTAssertEqual(wrongKeys.code, 77, wrongKeys.stderr)
        XCTAssertTrue(wrongKeys.stderr.contains("401") && wrongKeys.stderr.contains("NAVER_API_HUB_KEY_ID"), wrongKeys.stderr)
        let (denied, _) = try await run({ $0.dataLabDenied = true })
        XCTAssertEqual(denied.code, 77)
        XCTAssertTrue(denied.stderr.contains("no permission for DataLab (Shopping Insight)") && denied.stderr.contains("hint: enable"), denied.stderr)
        let (deniedDevelopers, _) = try await run({ $0.dataLabDenied = true }, environment: F.developers)
        XCTAssertTrue(deniedDevelopers.stderr.contains("developers.naver.com"), deniedDevelopers.stderr)
        let (quota, _) = try await run({ $0.quota = 0 })
        XCTAssertEqual(quota.code, 75)
        XCTAssertTrue(quota.stderr.contains("010") && quota.stderr.contains("1,000"), quota.stderr)
        let (throttledOnce, server1) = try await run({ $0.fault = .throttle; $0.faultCount = 1 })
        XCTAssertEqual(throttledOnce.code, 0, throttledOnce.stderr)
        let stats1 = try await F.stats(server1)
        XCTAssertEqual(stats1["status"], .object(JSONObject(["200": .int(1), "429": .int(1)])), "retried once")
        let (throttled, server2) = try await run({ $0.fault = .throttle })
        XCTAssertEqual(throttled.code, 75, throttled.stderr)
        let stats2 = try await F.stats(server2)
        XCTAssertEqual(stats2["requests"], .int(4), "1 + 3 retries")
        let (failedOnce, _) = try await run({ $0.fault = .serverError; $0.faultCount = 2 })
        XCTAssertEqual(failedOnce.code, 0, failedOnce.stderr)
        let (failed, _) = try await run({ $0.fault = .serverError })
        XCTAssertEqual(failed.code, 69, failed.stderr)
        let (malformed, _) = try await run({ $0.fault = .malformed })
        XCTAssertEqual(malformed.code, 65, malformed.stderr)
        let (truncated, _) = try await run({ $0.fault = .truncated })
        XCTAssertEqual(truncated.code, 65, truncated.stderr)
    }

    func testBadRequestIsExitOneWithTheServersMessage() async {
        let transport = FixedAnswerTransport(status: 400, body: #"{"errorMessage":"Invalid parameter (category: 99)","errorCode":"400"}"#)
        let run = await F.run(["categories", "99"] + range, environment: keys, transport: transport)
        XCTAssertEqual(run.code, 1)
        XCTAssertTrue(run.stderr.contains("Invalid parameter (category: 99)"), run.stderr)
        // A throttle asking for an absurd wait never waits it (and the arithmetic does not
        // overflow): a wait past the deadline gives up at once; a value RFC 9110 does not allow
        // falls back to the backoff (3 retries, 0.25 s doubling).
        for (retryAfter, backsOff) in [("1e300", true), ("inf", true), ("86400", false)] {
            let clock = TestClock(immediate: true)
            let throttled = await F.run(["categories", "99"] + range, environment: keys, transport: FixedAnswerTransport(
                status: 429, body: #"{"errorMessage":"Rate limit exceeded.","errorCode":"012"}"#, headers: ["retry-after": retryAfter]),
                clock: clock)
            XCTAssertEqual(throttled.code, 75, throttled.stderr)
            if backsOff {
                XCTAssertEqual(clock.sleeps.count, 3, "\(retryAfter): \(clock.sleeps)")
                XCTAssertTrue(clock.sleeps.allSatisfy { $0 <= .seconds(1) }, "\(retryAfter): \(clock.sleeps)")
            } else {
                XCTAssertEqual(clock.sleeps, [], "gave up at once: \(retryAfter)")
            }
        }
        // A 200 that is not DataLab's answer.
        let wrong = await F.run(["categories", "99"] + range, environment: keys, transport: FixedAnswerTransport(status: 200, body: #"{"results":[]}"#))
        XCTAssertEqual(wrong.code, 65)
    }

    // MARK: - Output formats

    func testEveryFormat() async throws {
        let server = try startDataLab()
        let args = ["categories", "패션의류", "식품", "도서", "디지털/가전"] + range
        let tsv = await F.run(args + ["--format", "tsv"], environment: F.apiHub(server), transport: SystemTransport.shared)
        XCTAssertEqual(tsv.code, 0, tsv.stderr)
        let rows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        XCTAssertEqual(rows.count, 4 * 13, "one row per series and period")
        XCTAssertTrue(rows.allSatisfy { $0.count == 6 })
        XCTAssertEqual(Set(rows.map { $0[0] }), ["1", "2", "3", "4"])

        let csv = await F.run(args + ["--format", "csv"], environment: F.apiHub(server), transport: SystemTransport.shared)
        XCTAssertTrue(csv.stdout.hasPrefix("rank,name,code,group,period,ratio\r\n"))
        XCTAssertEqual(csv.stdout.components(separatedBy: "\r\n").count - 2, 4 * 13)

        let jsonl = await F.run(args + ["--format", "jsonl"], environment: F.apiHub(server), transport: SystemTransport.shared)
        let lines = jsonl.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        XCTAssertEqual(try JSONParser.parse(String(lines[0]))["rank"], .int(1))

        let json = await F.run(args + ["--json"], environment: F.apiHub(server), transport: SystemTransport.shared)
        let envelope = try JSONParser.parse(json.stdout)
        XCTAssertEqual(envelope.objectValue?.keys, ["kind", "category", "startDate", "endDate", "timeUnit", "filters", "by", "requests", "series"])
        XCTAssertEqual(envelope["kind"], .string("categories"))
        XCTAssertEqual(envelope["category"], .null)
        XCTAssertEqual(envelope["filters"], .object(JSONObject(["device": .null, "gender": .null, "ages": .array([])])))
        XCTAssertEqual(envelope["requests"], .int(2))
        let series = try XCTUnwrap(envelope["series"]?.arrayValue)
        XCTAssertEqual(series[0].objectValue?.keys, ["rank", "name", "code", "group", "points", "latest", "previous", "change", "peak"])
        let latest = series.map { Double($0["latest"]!.textValue!)! }
        XCTAssertEqual(latest, latest.sorted(by: >), "ranked by the latest value")
        XCTAssertEqual(series.flatMap { $0["points"]!.arrayValue! }.map { Double($0["ratio"]!.textValue!)! }.max(), 100)
        let first = series[0]
        let points = first["points"]!.arrayValue!
        XCTAssertEqual(first["latest"], points.last!["ratio"])
        XCTAssertEqual(first["previous"], points[points.count - 2]["ratio"])
        let change = (Double(first["latest"]!.textValue!)! / Double(first["previous"]!.textValue!)! - 1) * 100
        XCTAssertEqual(Double(first["change"]!.textValue!)!, change, accuracy: 1e-3)

        let table = await F.run(args + ["--format", "table"], environment: F.apiHub(server), transport: SystemTransport.shared, columns: 60)
        let tableLines = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(tableLines.count, 1 + 4 + 1, "header, rows, footer")
        XCTAssertTrue(tableLines[0].contains("CATEGORY") && tableLines[0].contains("LATEST") && tableLines[0].contains("CHANGE"), tableLines[0])
        XCTAssertTrue(tableLines.allSatisfy { DisplayWidth.of($0) <= 60 }, table.stdout)
        XCTAssertTrue(tableLines[1].contains { "▁▂▃▄▅▆▇█".contains($0) } && tableLines[1...4].allSatisfy { $0.contains("▲") || $0.contains("▼") || $0.contains("= 0.0%") }, table.stdout)
        XCTAssertTrue(tableLines.last!.contains("2 requests"), tableLines.last!)
        XCTAssertFalse(table.stdout.contains("\u{1B}"), "colour only on a terminal")
        let narrow = await F.run(["categories", "식품", "--unit", "date", "--from", "2026-01-01", "--to", "2026-11-29", "--format", "table"],
                                 environment: F.apiHub(server), transport: SystemTransport.shared, columns: 50)
        XCTAssertTrue(narrow.stdout.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 50 }, "333 days down-sampled: \(narrow.stdout)")
        let colored = await F.run(args + ["--format", "table"], environment: F.apiHub(server), transport: SystemTransport.shared, terminal: true)
        XCTAssertTrue(colored.stdout.contains("\u{1B}["))
    }
}
