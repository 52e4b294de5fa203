// `trends` in every format when the previous period's value is 0 as a ratio: JSON has null for
// the change, the table and JSON Lines no infinity and no 305-digit number. (The change itself,
// and the widget's item: ShopYCoreTests/Trends/TrendsChangeTests.)

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Answers every DataLab request on the request's own period grid: the series `code` has
/// `previous` in the next-to-last period and 100 in the last, every other series 40 throughout.
struct PreviousValueTransport: HTTPTransport {
    var previous: String
    var code = "50000000"

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        let body = (try? JSONParser.parse(request.body ?? [])) ?? .null
        guard let start = body["startDate"]?.stringValue.flatMap(CalendarDate.init), let end = body["endDate"]?.stringValue.flatMap(CalendarDate.init),
              let unit = body["timeUnit"]?.stringValue.flatMap(TimeUnit.init(rawValue:)) else { throw .other("not a DataLab request") }
        let periods = TrendsRange(start: start, end: end, unit: unit).periods
        let names = (body["category"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let results = names.map { name -> String in
            let points = periods.enumerated().map { i, period -> String in
                let ratio = name != code ? "40" : (i == periods.count - 1 ? "100" : (i == periods.count - 2 ? previous : "40"))
                return #"{"period":"\#(period)","ratio":\#(ratio)}"#
            }
            return #"{"title":"\#(name)","data":[\#(points.joined(separator: ","))]}"#
        }
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                            body: Array(#"{"results":[\#(results.joined(separator: ","))]}"#.utf8))
    }
}

final class TrendsChangeOutputTests: XCTestCase {
    typealias F = TrendsFixture
    let keys = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key-value", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9/shopping/v1"]
    let args = ["categories", "50000000", "50000001", "--from", "2026-09-01", "--to", "2026-11-30", "--unit", "month"]
    /// Zero, subnormal, tiny, and just under half of the fifth decimal: each is 0 as a ratio.
    let noPrevious = ["0", "5e-324", "1e-310", "1e-300", "1e-7", "0.000004"]

    func testJSONHasNullAndTheTableNoInfinity() async throws {
        for previous in noPrevious {
            let json = await F.run(args + ["--format", "json"], environment: keys, transport: PreviousValueTransport(previous: previous))
            XCTAssertEqual(json.code, 0, json.stderr)
            let parsed = try JSONParser.parse(json.stdout)
            let series = try XCTUnwrap(parsed["series"]?.arrayValue?.first { $0["code"]?.stringValue == "50000000" })
            XCTAssertEqual(series["change"], .null, "previous \(previous): \(json.stdout)")
            XCTAssertEqual(series["previous"]?.textValue, "0", "the previous value as written")
            XCTAssertFalse(json.stdout.contains("inf"), json.stdout)
            for format in ["table", "jsonl"] {
                let run = await F.run(args + ["--format", format], environment: keys, transport: PreviousValueTransport(previous: previous))
                XCTAssertEqual(run.code, 0, run.stderr)
                XCTAssertFalse(run.stdout.contains("inf"), "\(previous) \(format): \(run.stdout)")
                XCTAssertFalse(run.stdout.contains(String(repeating: "0", count: 12)), "\(previous) \(format): \(run.stdout)")
            }
            let table = await F.run(args + ["--format", "table"], environment: keys, transport: PreviousValueTransport(previous: previous))
            XCTAssertTrue(table.stdout.contains("▲ new"), "a series that rose from nothing: \(table.stdout)")
        }
    }
}
