// Tests for the change against the previous period (TrendsResult.Row.change) and what reads it:
// the widget's trends item, whose percent is a checked integer (`trends` in every format:
// ShopYCLITests/Trends/TrendsChangeOutputTests).
// A DataLab answer may make the previous value 0, subnormal or just below what a ratio of five
// decimals can say: there is no change to report then, never `inf` or a 305-digit number.

import Foundation
import XCTest
@testable import ShopYCore
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

final class TrendsChangeTests: XCTestCase {
    typealias F = TrendsFixture
    let keys = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key-value", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9/shopping/v1"]
    let args = ["categories", "50000000", "50000001", "--from", "2026-09-01", "--to", "2026-11-30", "--unit", "month"]
    /// Zero, subnormal, tiny, and just under half of the fifth decimal: each is 0 as a ratio.
    let noPrevious = ["0", "5e-324", "1e-310", "1e-300", "1e-7", "0.000004"]

    func row(previous: Double, latest: Double = 100) -> TrendsResult.Row {
        TrendsResult.Row(series: .keyword("a"), group: nil, values: [40, previous, latest])
    }

    func testNoChangeAgainstAPreviousValueThatIsZeroAsARatio() {
        for previous in noPrevious.compactMap(Double.init) {
            XCTAssertNil(row(previous: previous).change, "previous \(previous)")
        }
        XCTAssertEqual(row(previous: 0.00001).change ?? 0, 999_999_900, accuracy: 1, "the smallest ratio DataLab writes still has a change")
        XCTAssertEqual(row(previous: 50).change, 100)
        XCTAssertNil(TrendsResult.Row(series: .keyword("a"), group: nil, values: [100]).change, "no previous period")
    }

    /// The widget's item once crashed converting the change (`Int(inf)` traps): now every
    /// tiny previous value gives an item without a percent, and a real change its percent.
    func testTheWidgetItemNeverTrapsOnTheChange() async throws {
        let now = F.now
        for previous in noPrevious + ["0.00001", "1e-5", "20"] {
            let service = TrendsService(environment: keys, transport: PreviousValueTransport(previous: previous), network: SystemNetworkProvider(),
                                        trace: .off, diagnostics: DiscardedDiagnostics())
            let (item, _) = try await WidgetTrends.fetch(service, today: CalendarDate.todayInKorea(now), timeout: 5)
            XCTAssertTrue(item.short.hasPrefix("↗ 패션의류"), item.short)
            switch previous {
            case "20": XCTAssertTrue(item.line.contains("▲400%"), item.line)
            case "0.00001", "1e-5": XCTAssertTrue(item.line.contains("▲999999900%"), item.line)
            default: XCTAssertFalse(item.line.contains("%"), "previous \(previous): \(item.line)")
            }
        }
    }

    func testCheckedWholeNumbers() {
        XCTAssertEqual(WholeNumber.rounded(2.5), 3)
        XCTAssertEqual(WholeNumber.rounded(-2.5), -3)
        for bad in [Double.infinity, -.infinity, .nan, 1e19, -1e19, 9.3e18] { XCTAssertNil(WholeNumber.rounded(bad), "\(bad)") }
        XCTAssertEqual(WholeNumber.rounded(-9e18), -9_000_000_000_000_000_000)
        XCTAssertEqual(WholeNumber.text(8), "8")
        XCTAssertEqual(WholeNumber.text(2.5), "2.5")
        XCTAssertEqual(WholeNumber.text(1e300), "1e+300")
    }
}
