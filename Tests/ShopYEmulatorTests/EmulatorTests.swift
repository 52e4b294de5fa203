import Foundation
import XCTest
@testable import ShopYEmulator
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog
import ShopYTestSupport
import ShopYCoreTestSupport

/// The emulator over real loopback sockets. Each test starts its own in-process server on an
/// ephemeral port and talks to it with the raw-socket client below, so what is checked is
/// exactly the bytes on the wire (URLSession would hide truncation, drops and bad framing).
final class EmulatorTests: XCTestCase {
    static let auth = [("X-Naver-Client-Id", "emulator-id"), ("X-Naver-Client-Secret", "emulator-secret")]

    // MARK: - Searching

    func testSearchAnswersWithBoldedItemsAndEchoesPaging() throws {
        let server = try startServer()
        let response = search(server, "query=\(encode("방충망"))&display=3&start=2")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertEqual(response.headers["content-length"], String(response.body.count))
        let body = try XCTUnwrap(response.json)
        XCTAssertGreaterThan(try XCTUnwrap(body["total"]?.intValue), 3)
        XCTAssertEqual(body["start"]?.intValue, 2)
        XCTAssertEqual(body["display"]?.intValue, 3)
        let items = try XCTUnwrap(body["items"]?.arrayValue)
        XCTAssertEqual(items.count, 3)
        for item in items {
            XCTAssertTrue(try XCTUnwrap(item["title"]?.stringValue).contains("<b>방충망</b>"))
            XCTAssertNotNil(item["productId"]?.stringValue)
        }
        let date = try XCTUnwrap(body["lastBuildDate"]?.stringValue)
        XCTAssertTrue(date.hasSuffix(" +0900"), date)
        XCTAssertEqual(date.count, "Sun, 29 Nov 2026 20:33:43 +0900".count, date)
    }

    func testDefaultsFilterAndExclude() throws {
        let server = try startServer()
        let plain = try XCTUnwrap(search(server, "query=\(encode("방충망"))").json)
        XCTAssertEqual(plain["start"]?.intValue, 1)
        XCTAssertEqual(plain["display"]?.intValue, min(10, plain["total"]?.intValue ?? 0))
        let filtered = search(server, "query=\(encode("방충망"))&filter=naverpay&exclude=used:rental:bogus&sort=asc")
        XCTAssertEqual(filtered.status, 200)
        XCTAssertLessThanOrEqual(try XCTUnwrap(filtered.json?["total"]?.intValue), try XCTUnwrap(plain["total"]?.intValue))
    }

    func testLastBuildDateIsKST() {
        XCTAssertEqual(SearchAPI.lastBuildDate(0), "Thu, 01 Jan 1970 09:00:00 +0900")
        XCTAssertEqual(SearchAPI.lastBuildDate(1_619_476_299), "Tue, 27 Apr 2021 07:31:39 +0900")
    }

    // MARK: - Errors in the contract's order

    func testParameterErrors() throws {
        let server = try startServer()
        let cases: [(String, String)] = [
            ("", "SE01"), ("query=", "SE01"), ("query=+", "SE01"), ("display=5", "SE01"),
            ("query=a&display=0", "SE02"), ("query=a&display=101", "SE02"), ("query=a&display=ten", "SE02"),
            ("query=a&display=", "SE02"), ("query=a&display=-1", "SE02"),
            ("query=a&start=0", "SE03"), ("query=a&start=1001", "SE03"),
            ("query=a&sort=price", "SE04"), ("query=a&sort=SIM", "SE04"),
            ("query=%ZZ", "SE06"), ("query=%FF", "SE06"), ("query=a%", "SE06"), ("query=a&sort=%E0%80", "SE06"),
            // The first failing check in the API's order wins.
            ("query=a&display=0&sort=bad", "SE02"), ("query=&sort=%ZZ", "SE06"),
        ]
        for (query, code) in cases {
            let response = search(server, query)
            XCTAssertEqual(response.status, 400, query)
            XCTAssertEqual(errorCode(response), code, query)
        }
        let edges = search(server, "query=a&display=100&start=1000&sort=dsc")
        XCTAssertEqual(edges.status, 200)
        XCTAssertEqual(errorBody(search(server, "query=%ZZ"))?.errorMessage, "Malformed encoding (잘못된 형식의 인코딩입니다.)")
    }

    func testAuthenticationFailures() throws {
        let server = try startServer()
        let expected = WireErrorBody(errorMessage: "Not Exist Client ID : Authentication failed. (인증에 실패했습니다.)", errorCode: "024")
        let none = request(server, "/v1/search/shop.json?query=a", headers: [])
        XCTAssertEqual(none.status, 401)
        XCTAssertEqual(errorBody(none), expected)
        let wrong = request(server, "/v1/search/shop.json?query=a",
                            headers: [("X-Naver-Client-Id", "emulator-id"), ("X-Naver-Client-Secret", "nope")])
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(errorBody(wrong), expected)
        // Header names are case-insensitive.
        let lower = request(server, "/v1/search/shop.json?query=a",
                            headers: [("x-naver-client-id", "emulator-id"), ("X-NAVER-CLIENT-SECRET", "emulator-secret")])
        XCTAssertEqual(lower.status, 200)
    }

    func testUnknownPathsAndRetiredModeAnswerSE05() throws {
        let server = try startServer()
        let other = request(server, "/v1/search/blog.json?query=a")
        XCTAssertEqual(other.status, 404)
        XCTAssertEqual(errorBody(other), WireErrorBody(errorMessage: "Invalid search api (존재하지 않는 검색 api 입니다.)", errorCode: "SE05"))

        let retired = try startServer { $0.retired = true }
        let shop = search(retired, "query=a")
        XCTAssertEqual(shop.status, 404)
        XCTAssertEqual(errorCode(shop), "SE05")
    }

    func testNonGetIs405() throws {
        let server = try startServer()
        let response = request(server, "/v1/search/shop.json?query=a", method: "POST", body: "x=1")
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["allow"], "GET")
    }

    // MARK: - Limits

    func testQuotaAnswers010AfterNUntilReset() throws {
        let server = try startServer { $0.quota = 2 }
        XCTAssertEqual(search(server, "query=a").status, 200)
        XCTAssertEqual(search(server, "query=a").status, 200)
        let over = search(server, "query=a")
        XCTAssertEqual(over.status, 429)
        XCTAssertEqual(errorBody(over), WireErrorBody(errorMessage: "{count/quota=3/2} : Query limit exceeded. (쿼리 한도를 초과했습니다.)", errorCode: "010"))
        XCTAssertNil(over.headers["retry-after"], "no Retry-After unless configured")
        // Unauthenticated requests do not use up the quota.
        XCTAssertEqual(request(server, "/v1/search/shop.json?query=a", headers: []).status, 401)
        XCTAssertEqual(request(server, "/_emulator/reset").status, 200)
        XCTAssertEqual(search(server, "query=a").status, 200)
    }

    func testThrottleAnswers012WhenMoreThanNArriveWithinASecond() throws {
        let clock = TestClock()
        let server = try startServer(clock: clock) { $0.rateLimit = 2; $0.retryAfterSeconds = 1 }
        XCTAssertEqual(search(server, "query=a").status, 200)
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(search(server, "query=a").status, 200)
        let third = search(server, "query=a")
        XCTAssertEqual(third.status, 429)
        XCTAssertEqual(errorBody(third), WireErrorBody(errorMessage: "Rate limit exceeded. (속도 제한을 초과했습니다.)", errorCode: "012"))
        XCTAssertEqual(third.headers["retry-after"], "1")
        XCTAssertEqual(stats(server)["throttled"]?.intValue, 1)
        // The window slides: a second after the first arrival, it no longer counts; the second
        // and the throttled third still do.
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(search(server, "query=a").status, 429)
        XCTAssertEqual(stats(server)["throttled"]?.intValue, 2)
        // A second after all of them, none does.
        clock.advance(by: .seconds(1))
        XCTAssertEqual(search(server, "query=a").status, 200)
    }

    // MARK: - Helpers

    /// Starts a server on an ephemeral port, stopped when the test ends.
    func startServer(catalog: Catalog = .embedded, clock: any TimerClock = SystemClock(),
                     _ configure: (inout EmulatorConfig) -> Void = { _ in }) throws -> EmulatorServer {
        var config = EmulatorConfig()
        configure(&config)
        let server = EmulatorServer(config: config, catalog: catalog, clock: clock)
        let port = try server.start()
        XCTAssertGreaterThan(port, 0)
        XCTAssertEqual(server.baseURL, "http://127.0.0.1:\(port)")
        addTeardownBlock { server.stop() }
        return server
    }

    func search(_ server: EmulatorServer, _ query: String, readFor timeout: Double = 5) -> RawHTTPResponse {
        EmulatorTests.search(server, query, readFor: timeout)
    }

    /// Static so that other threads can use it without capturing the test case.
    static func search(_ server: EmulatorServer, _ query: String, readFor timeout: Double = 5) -> RawHTTPResponse {
        request(server, "/v1/search/shop.json?" + query, headers: EmulatorTests.auth, readFor: timeout)
    }

    func request(_ server: EmulatorServer, _ target: String, method: String = "GET",
                 headers: [(String, String)] = [], body: String = "", readFor timeout: Double = 5) -> RawHTTPResponse {
        EmulatorTests.request(server, target, method: method, headers: headers, body: body, readFor: timeout)
    }

    static func request(_ server: EmulatorServer, _ target: String, method: String = "GET",
                        headers: [(String, String)] = [], body: String = "", readFor timeout: Double = 5) -> RawHTTPResponse {
        RawHTTPResponse.request(port: server.port, target, method: method, headers: headers, body: body, readFor: timeout)
    }

    func stats(_ server: EmulatorServer) -> JSONValue {
        request(server, "/_emulator/stats").json ?? .null
    }

    func errorBody(_ response: RawHTTPResponse) -> WireErrorBody? {
        WireErrorBody(body: response.body)
    }

    func errorCode(_ response: RawHTTPResponse) -> String? {
        errorBody(response)?.errorCode
    }

    /// Percent-encodes everything but unreserved ASCII, as a client would.
    func encode(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }
}

/// Statuses collected from several threads.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int?] = []
    func append(_ value: Int?) { lock.lock(); list.append(value); lock.unlock() }
    var values: [Int?] { lock.lock(); defer { lock.unlock() }; return list }
}
