// The built shopy's widget refresh against a DataLab whose previous value for the top
// category is tiny (1e-300, 5e-324): the refresh once trapped converting the change (SIGILL,
// exit 132) and wrote no timeline, so every bar poll started another round of DataLab
// requests. Now the refresh writes its timeline and polls start nothing more.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport

final class WidgetTrendsRefreshTests: XCTestCase {
    var home = TestHome()

    override func tearDown() { home.remove() }

    /// A DataLab on loopback: every series 40 in every period of the request's grid, except
    /// 패션의류 (50000000): `previous` in the next-to-last period and 100 in the last.
    func dataLab(previous: String) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request, connection in
            let body = (try? JSONParser.parse(request.body)) ?? .null
            guard let start = body["startDate"]?.stringValue.flatMap(CalendarDate.init), let end = body["endDate"]?.stringValue.flatMap(CalendarDate.init),
                  let unit = body["timeUnit"]?.stringValue.flatMap(TimeUnit.init(rawValue:)) else {
                connection.send("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                return true
            }
            let periods = TrendsRange(start: start, end: end, unit: unit).periods
            let results = (body["category"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }.map { name -> String in
                let points = periods.enumerated().map { i, period -> String in
                    let ratio = name != "50000000" ? "40" : (i == periods.count - 1 ? "100" : (i == periods.count - 2 ? previous : "40"))
                    return #"{"period":"\#(period)","ratio":\#(ratio)}"#
                }
                return #"{"title":"\#(name)","data":[\#(points.joined(separator: ","))]}"#
            }
            let json = #"{"results":[\#(results.joined(separator: ","))]}"#
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n" + json)
            return true
        }
    }

    func environment(_ server: ScriptedHTTPServer) -> [String: String] {
        ["SHOPY_DATALAB_BASE": server.baseURL + "/shopping/v1", "NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key"]
    }

    func testARefreshWithATinyPreviousValueWritesItsTimeline() throws {
        for previous in ["1e-300", "5e-324"] {
            let server = try dataLab(previous: previous)
            defer { server.stop() }
            var env = environment(server)
            env["SHOPY_WIDGET_BACKGROUND"] = "off"
            XCTAssertEqual(try runShopy(["widget", "configure", "--show", "trends"], environment: env, home: home.path).status, 0)
            let refresh = try runShopy(["widget", "refresh"], environment: env, home: home.path)
            XCTAssertEqual(refresh.status, 0, "\(previous): \(refresh.stderr)")
            let shown = try runShopy(["widget", "--format", "json"], environment: env, home: home.path)
            let item = try XCTUnwrap(JSONParser.parse(Array(shown.stdout.utf8))["items"]?.arrayValue?.first)
            XCTAssertEqual(item["line"]?.stringValue, "↗ trending: 패션의류 (clicks, last 4 weeks)", "no change against a ratio that is 0: \(shown.stdout)")
        }
    }

    func testBarPollsStartOneRefresh() throws {
        let server = try dataLab(previous: "5e-324")
        defer { server.stop() }
        let env = environment(server)
        XCTAssertEqual(try runShopy(["widget", "configure", "--show", "trends"], environment: env, home: home.path).status, 0)
        func log() -> String { (try? String(contentsOfFile: home.path + "/widget.log", encoding: .utf8)) ?? "" }
        XCTAssertEqual(try runShopy(["widget"], environment: env, home: home.path).status, 0)
        XCTAssertTrue(waitForWidgetRefreshes(home: home.path), log())
        XCTAssertTrue(log().contains("refresh default: done"), log())
        let oneRound = server.requests.count
        XCTAssertGreaterThan(oneRound, 0)
        for _ in 0..<3 { XCTAssertEqual(try runShopy(["widget"], environment: env, home: home.path).status, 0) }
        XCTAssertTrue(waitForWidgetRefreshes(home: home.path), log())
        XCTAssertEqual(log().components(separatedBy: "refresh default: started").count - 1, 1, log())
        XCTAssertEqual(server.requests.count, oneRound, "four polls, one round of DataLab requests")
    }
}
