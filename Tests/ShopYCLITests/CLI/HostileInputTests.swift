// Issue 8: what a user (or a script) can type that used to crash or slip through: --rate and
// --timeout out of range or not decimal, invalid UTF-8 in argv, overlong queries, empty list
// values, raw escapes echoed by popular --save, a Prepend character before padding; and a
// property test driving extreme integers through the mapper, the listing arithmetic, rank and
// the rate limiter.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class HostileInputTests: XCTestCase {
    static let keys = ["NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret", "SHOPY_API_BASE": "http://127.0.0.1:9"]

    // MARK: 3. --rate and the rate limiter

    func testRateOutsideTheRangeIsAUsageErrorBeforeAnythingRuns() async {
        for rate in ["0.0000000001", "0.09", "100.5", "1e-10", "0x10", "inf", "nan", "-1", "0", "", "1e2", "+5", "5 5"] {
            let run = await Shell.run(["rank", "방충망", "--mall", "다샵", "--rate", rate], environment: Self.keys)
            XCTAssertEqual(run.code, 64, "--rate '\(rate)': \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("invalid --rate"), run.stderr)
        }
        for rate in ["0.1", "100", "8", ".5", "10."] {
            XCTAssertNoThrow(try RankCommand(ArgumentParser.parse(["q", "--mall", "m", "--rate", rate], for: RankCommand.spec, commandPath: "rank")), rate)
        }
    }

    // MARK: 10. decimal-only floats, argv, query length, empty values

    func testTimeoutIsDecimalOnly() async {
        for value in ["0x10", "0x1p3", "inf", "nan", "1e1", "-1", "0", "3601", " ", "1,5"] {
            let run = await Shell.run(["search", "방충망", "--timeout", value])
            XCTAssertEqual(run.code, 64, "--timeout '\(value)': \(run.stderr)")
        }
        let zero = await Shell.run(["search", "방충망", "--timeout", "0"])
        XCTAssertTrue(zero.stderr.contains("invalid --timeout 0: expected seconds as a decimal number more than 0 and at most 3600"), zero.stderr)
        let hex = await Shell.run(["search", "방충망", "--timeout", "0x10"])
        XCTAssertTrue(hex.stderr.contains("invalid --timeout '0x10'"), hex.stderr)
        let status = await Shell.run(["status", "--timeout", "0x10"])
        XCTAssertEqual(status.code, 64, status.stderr)
        XCTAssertEqual(try? ArgumentParser.decimal("2.5", option: "timeout", in: 0...10, unit: "seconds"), 2.5)
        XCTAssertNil(try? ArgumentParser.decimal(" 3 ", option: "timeout", in: 0...10, unit: "seconds"), "whitespace is refused (issue 12)")
    }

    func testInvalidUTF8InArgvIsRefused() {
        guard case .failure(let error) = RawArguments.decode([Array("search".utf8), [0x61, 0xFF, 0x62]]) else {
            return XCTFail("invalid UTF-8 accepted")
        }
        XCTAssertEqual(ExitCode(for: error), .usage)
        XCTAssertTrue(error.message.contains("argument 2 is not valid UTF-8 (byte 2 of 3)"), error.message)
        XCTAssertEqual(RawArguments.firstInvalidOffset(Array("가나".utf8) + [0xE0, 0x80]), 6)
        guard case .success(let decoded) = RawArguments.decode([Array("방충망".utf8)]) else { return XCTFail("valid UTF-8 refused") }
        XCTAssertEqual(decoded, ["방충망"])
    }

    func testOverlongQueriesAreRefusedBeforeSending() async {
        let long = String(repeating: "가", count: 334)  // 1,002 bytes
        XCTAssertGreaterThan(long.utf8.count, QueryLimit.maxBytes)
        for arguments in [["search", long], ["rank", long, "--mall", "m"], ["popular", "-s", long]] {
            let run = await Shell.run(arguments, environment: Self.keys)  // NoNetworkTransport fails the test on any request
            XCTAssertEqual(run.code, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains("1,002 bytes long; at most 1,000"), run.stderr)
        }
        let fits = String(repeating: "가", count: 333)
        let run = await Shell.run(["search", fits, "--source", "catalog"])
        XCTAssertNotEqual(run.code, 64, run.stderr)
    }

    func testEmptyExcludeAndEmptyHistoryRemoveAreUsageErrors() async {
        for arguments in [["search", "방충망", "--exclude", ""], ["search", "방충망", "--exclude", " , "], ["history", "--remove", ""],
                          ["history", "--remove", "  "]] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments): \(run.stderr)")
        }
        let run = await Shell.run(["search", "방충망", "--exclude", "used", "--source", "catalog"])
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    /// An empty file name would name the current directory (74 "is a directory"): 64, one line.
    func testAnEmptyFileArgumentIsAUsageError() async {
        for arguments in [["likes", "export", ""], ["likes", "import", ""], ["catalog", "export", ""], ["catalog", "import", "x.json", ""]] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderrLines.first, "shopy: the file argument is empty", "\(arguments)")
        }
    }

    /// A bad option is named even when the query is missing too (it was hidden behind "search
    /// needs a query"); a missing query alone is said as before.
    func testABadOptionIsNamedBeforeAMissingQuery() async {
        let bad = await Shell.run(["search", "--size="])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderrLines.first?.hasPrefix("shopy: invalid --size ''") ?? false, bad.stderr)
        let missing = await Shell.run(["search", "--size", "5"])
        XCTAssertEqual(missing.stderrLines.first, "shopy: search needs a query")
    }

    /// `rank --product` with what no product can have as its id would scan for nothing.
    func testRankRefusesAProductIdNoProductHas() async {
        for bad in ["abc", "12 34", "1.5", "coupang:abc"] {
            let run = await Shell.run(["rank", "방충망", "--product", bad])
            XCTAssertEqual(run.code, 64, "\(bad): \(run.stderr)")
            XCTAssertTrue(run.stderrLines.first?.hasSuffix("is not a productId (a productId is 1 to 32 ASCII digits, alone or after 11st: or coupang:)") ?? false, run.stderr)
        }
    }

    /// An argument's error names the argument, not an option that does not exist.
    func testArgumentErrorsNameTheArgument() async {
        let zero = await Shell.run(["widget", "open", "0"])
        XCTAssertEqual(zero.code, 64)
        XCTAssertEqual(zero.stderrLines.first, "shopy: invalid <n> 0: must be from 1 to 4")
        let bar = await Shell.run(["widget", "install", "bogus"])
        XCTAssertEqual(bar.code, 64)
        XCTAssertTrue(bar.stderrLines.first?.hasPrefix("shopy: invalid <bar> 'bogus'; valid values: waybar") ?? false, bar.stderr)
    }

    func testPopularSaveEchoesItsKeywordsCleaned() async {
        let run = await Shell.run(["popular", "-s", "신발\u{1B}[2J", "-s", "옷\u{9B}31m", "--save", "--source", "catalog"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("saved default sections: 신발"), run.stderr)
        XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }, run.stderr.debugDescription)
    }

    // MARK: property test: extreme integers

    static let extremes: [Int] = [Int.min, Int.min + 1, -1_000_000_007, -1, 0, 1, 2, 39, 40, 41, 99, 100, 101, 999, 1000, 1001,
                                  1099, 1100, Int(Int32.max), Int.max - 1, Int.max]

    func testExtremeIntegersThroughTheMapperTheListingAndRank() {
        var generator = SystemRandomNumberGenerator()
        var values = Self.extremes
        for _ in 0..<200 { values.append(Int.random(in: Int.min...Int.max, using: &generator)) }
        for a in values {
            // The mapper: prices and productType as the wire sends them, even past Int.
            for text in [String(a), String(a) + "0", "-" + String(a), "9" + String(UInt64.max)] {
                let product = ProductMapper.product(from: WireItem(title: text, lprice: text, hprice: text, productId: text, productType: text))
                if let price = product.price { XCTAssertGreaterThan(price, 0) }
                _ = ProductMapper.page(from: WireSearchResponse(total: a, start: a, display: a, items: [WireItem(title: "", productId: text)]),
                                       query: "q", sort: .sim, source: .naver)
            }
            for b in Self.extremes {
                // The answer check: only what the contract allows gets through.
                let answer = WireSearchResponse(total: a, start: b, display: min(max(b, 0), 3), items: Array(repeating: WireItem(title: "", productId: "1"), count: 3))
                if AnswerCheck.problem(in: answer, for: SearchRequest(query: "q", start: 1, display: 20)) == nil {
                    XCTAssertTrue(a >= 0 && b == 1, "accepted total \(a) start \(b)")
                }
                // The listing arithmetic never traps and stays ordered.
                let (first, last) = ListingArithmetic.range(start: a, count: b)
                XCTAssertEqual(first, a)
                if b >= 1 { XCTAssertGreaterThanOrEqual(last, first) }
                _ = ListingArithmetic.lastPage(total: a, size: b)
                XCTAssertGreaterThanOrEqual(ListingArithmetic.reach(depth: a, total: b), 0)
                let page = SearchPage(query: "q", sort: .sim, source: .naver, total: a, start: a, display: b, items: [])
                if b >= 0 { XCTAssertGreaterThanOrEqual(page.rank(of: b), min(a, Int.max - b)) }
            }
            let place = ListingArithmetic.webPlace(rank: a)
            XCTAssertTrue((1...40).contains(place.position), "rank \(a)")
            XCTAssertGreaterThanOrEqual(place.page, 1)
            let match = RankCommand.Match(rank: a, product: Product(productId: "1", title: ""))
            XCTAssertEqual(match.webPage, place.page)
            _ = Checked.add(a, a)
        }
        XCTAssertEqual(ListingArithmetic.range(start: Int.max, count: 5).last, Int.max)
        XCTAssertEqual(ListingArithmetic.webPlace(rank: 41).page, 2)
        XCTAssertEqual(ListingArithmetic.webPlace(rank: 41).position, 1)
        XCTAssertEqual(ListingArithmetic.lastPage(total: 5_000_000, size: 20), 55)
    }

    /// A huge value (100,000 digits in SHOPY_SIZE, a 100,000-letter option) was echoed whole:
    /// a 100 KB "one line". Quoted values are cut to a screen's part, cleaned.
    func testHugeValuesAreQuotedCutInErrors() async {
        let huge = String(repeating: "9", count: 100_000)
        let cases: [([String], [String: String])] = [
            (["search", "x"], ["SHOPY_SIZE": huge]),
            (["search", "x", "--size", huge], [:]),
            (["search", "x", "--sort", huge], [:]),
            (["search", "x", "--timeout", huge], [:]),
            (["search", "x", "--" + String(repeating: "z", count: 100_000)], [:]),
            ([String(repeating: "z", count: 100_000)], [:]),
            (["config", "set", "size", huge], [:]),
            (["config", "get", huge], [:]),
            (["help", huge], [:]),
            (["config", huge], [:]),
        ]
        for (arguments, environment) in cases {
            let run = await Shell.run(arguments, environment: environment)
            let shown = arguments.map { String($0.prefix(12)) }
            XCTAssertEqual(run.code, 64, "\(shown): \(run.stderr.prefix(200))")
            XCTAssertEqual(run.stdout, "", "\(shown)")
            XCTAssertTrue((1...2).contains(run.stderrLines.count), "\(shown)")
            for line in run.stderrLines { XCTAssertLessThan(line.count, 400, "\(shown): \(line.prefix(200))") }
            XCTAssertTrue(run.stderr.contains("…"), "\(shown): the cut is marked")
        }
        // A hostile short value is still cleaned.
        let run = await Shell.run(["search", "x", "--sort", "\u{1B}]0;pwn\u{07}"])
        XCTAssertFalse(run.stderr.contains("\u{1B}") || run.stderr.contains("\u{07}"), run.stderr)
    }
}
