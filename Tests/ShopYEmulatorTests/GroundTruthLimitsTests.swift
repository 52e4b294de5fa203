// The emulator's ground-truth endpoints (POST /_emulator/datalab/<endpoint>) are bounded and
// POST-only (issue 12): GroundTruthLimits, DataLabAPI.control.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYEmulator
@testable import ShopYBase

final class GroundTruthLimitsTests: XCTestCase {
    let head = #""startDate":"2026-09-01","endDate":"2026-11-29","timeUnit":"date""#

    func request(_ method: String, _ path: String, _ body: [UInt8] = []) -> ParsedRequest {
        ParsedRequest(method: method, target: Array(path.utf8), path: path, rawQuery: [], version: "HTTP/1.1",
                      headers: [(name: "Content-Type", value: "application/json")], body: body)
    }

    func keywords(_ count: Int) -> [UInt8] {
        let groups = (0..<count).map { #"{"name":"k\#($0)","param":["w\#($0)"]}"# }.joined(separator: ",")
        return Array(#"{\#(head),"category":"50000000","keyword":[\#(groups)]}"#.utf8)
    }

    /// The reply's status, its one-line JSON error message, and its headers.
    func answer(_ api: DataLabAPI, _ request: ParsedRequest) throws -> (Int, String?, [(name: String, value: String)]) {
        let reply = try XCTUnwrap(api.reply(to: request))
        let body = reply.response.body
        let message = (try? JSONParser.parse(body))?["errorMessage"]?.stringValue
        if reply.response.status != 200 { XCTAssertFalse(body.dropLast().contains(0x0A), "a one-line error") }
        return (reply.response.status, message, reply.response.headers)
    }

    func testWithinTheBoundsTheGroundTruthAnswers() throws {
        let api = DataLabAPI(config: EmulatorConfig())
        let (status, _, _) = try answer(api, request("POST", "/_emulator/datalab/category/keywords", keywords(20)))
        XCTAssertEqual(status, 200, "20 series: more than the contract's 5, within the ground truth's bound")
    }

    func testTooManySeriesAreRefusedWith400() throws {
        let api = DataLabAPI(config: EmulatorConfig())
        let (status, message, _) = try answer(api, request("POST", "/_emulator/datalab/category/keywords", keywords(21)))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(message, "Bad request: the ground truth answers at most 20 series (21 asked)")
    }

    func testTooManyPeriodsAreRefusedWith400() throws {
        // Real dates (2017-08-01 to today) give at most ~3,400 daily periods: a smaller bound shows the check.
        let api = DataLabAPI(config: EmulatorConfig(), groundTruthLimits: GroundTruthLimits(periodsPerSeries: 60))
        let (status, message, _) = try answer(api, request("POST", "/_emulator/datalab/category/keywords", keywords(1)))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(message, "Bad request: the ground truth answers at most 60 periods per series (90 asked)")
        XCTAssertEqual(GroundTruthLimits.standard.periodsPerSeries, 5_000)
    }

    func testABodyPastTheCapIsRefusedWith400BeforeParsing() throws {
        let api = DataLabAPI(config: EmulatorConfig())
        let body = keywords(1) + Array(repeating: 0x20, count: (1 << 20) + 1 - keywords(1).count)
        let (status, message, _) = try answer(api, request("POST", "/_emulator/datalab/category/keywords", body))
        XCTAssertEqual(status, 400)
        XCTAssertEqual(message, "Bad request: a ground-truth body may take at most 1048576 bytes")
        let (exact, _, _) = try answer(api, request("POST", "/_emulator/datalab/category/keywords", Array(body.dropLast())))
        XCTAssertEqual(exact, 200, "1 MiB itself is allowed")
    }

    func testOtherMethodsGet405WithAllowPost() throws {
        let api = DataLabAPI(config: EmulatorConfig())
        for method in ["GET", "PUT", "DELETE", "HEAD"] {
            let (status, message, headers) = try answer(api, request(method, "/_emulator/datalab/categories"))
            XCTAssertEqual(status, 405, method)
            XCTAssertEqual(message, "Method not allowed: the ground truth answers POST only")
            XCTAssertEqual(headers.first { $0.name == "Allow" }?.value, "POST", method)
        }
        let (stats, _, _) = try answer(api, request("GET", "/_emulator/datalab/stats"))
        XCTAssertEqual(stats, 200, "the counters stay GET")
        let (unknown, _, _) = try answer(api, request("GET", "/_emulator/datalab/nothing"))
        XCTAssertEqual(unknown, 404)
    }

    func testOverTheSocketTheCapsHoldToo() async throws {
        let server = EmulatorServer(config: EmulatorConfig())
        try server.start()
        defer { server.stop() }
        let url = URL(string: server.baseURL + "/_emulator/datalab/categories")!
        let get = try await SystemTransport.shared.send(HTTPRequest(url: url), deadline: .now + .seconds(10))
        XCTAssertEqual(get.status, 405)
        XCTAssertEqual(get.headers["allow"], "POST")
        let post = try await SystemTransport.shared.send(
            HTTPRequest(method: .post, url: URL(string: server.baseURL + "/_emulator/datalab/category/keywords")!,
                        headers: [("Content-Type", "application/json")], body: keywords(21)), deadline: .now + .seconds(10))
        XCTAssertEqual(post.status, 400)
        XCTAssertEqual(String(decoding: post.body, as: UTF8.self).split(separator: "\n").count, 1)
    }
}
