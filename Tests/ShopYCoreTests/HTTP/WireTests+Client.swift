// The wire (continued): decoding failures, NaverClient over a stub transport.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

extension WireTests {
    // MARK: - Decoding failures

    func testNotJSON() {
        for text in ["<html><body>502 Bad Gateway</body></html>", "", "OK", "{\"total\": 1,"] {
            let error = decodingError(text)
            XCTAssertTrue(error?.description.contains("not JSON") ?? false, "\(text.debugDescription): \(String(describing: error))")
        }
    }

    func testTruncatedBody() throws {
        let full = ContractFixture.bytes("search-current.json")
        XCTAssertNoThrow(try WireSearchResponse(body: full))
        for cut in [1, 10, full.count / 3, full.count / 2, full.count - 10, full.count - 2] {
            let error = decodingError(Array(full.prefix(cut)))
            XCTAssertNotNil(error, "cut at \(cut)")
            XCTAssertTrue(error?.description.contains("not JSON") ?? false, "cut at \(cut): \(String(describing: error))")
        }
        // Cut after the last item: names the truncation.
        let error = decodingError(Array(full.prefix(full.count - 3)))
        XCTAssertTrue(error?.description.contains("truncated") ?? false, String(describing: error))
    }

    func testItemsNotAnArray() {
        XCTAssertEqual(decodingError(#"{"total":1,"start":1,"display":1,"items":{}}"#)?.description, #""items" is an object, not an array"#)
        XCTAssertEqual(decodingError(#"{"total":1,"start":1,"display":1,"items":"x"}"#)?.description, #""items" is a string, not an array"#)
        XCTAssertEqual(decodingError(#"{"total":1,"start":1,"display":1}"#)?.description, #""items" is missing"#)
        XCTAssertEqual(decodingError("[]")?.description, "the body is an array, not an object")
        XCTAssertEqual(decodingError("null")?.description, "the body is null, not an object")
    }

    func testItemWithoutProductIdDecodesAsAStandIn() throws {
        // Such an item still counts against display; the mapper leaves it out (UnusableItemTests).
        let body = #"{"total":2,"start":1,"display":2,"items":[{"title":"a","productId":"1"},{"title":"b","lprice":"100"}]}"#
        XCTAssertEqual(try WireSearchResponse(body: Array(body.utf8)).items.map(\.productId), ["1", ""])
        for item in [#"{"title":"a","productId":""}"#, #"{"title":"a","productId":null}"#, "3", "[]"] {
            let one = #"{"total":1,"start":1,"display":1,"items":["# + item + "]}"
            XCTAssertEqual(try WireSearchResponse(body: Array(one.utf8)).items.map(\.productId), [""], item)
        }
    }

    func testOtherMalformedItems() {
        XCTAssertEqual(decodingError(#"{"total":1,"items":[{"productId":"1","title":["x"]}]}"#)?.description,
                       #"item 1 has an array for "title""#)
        XCTAssertEqual(decodingError(#"{"total":1,"items":[{"productId":"1","lprice":true}]}"#)?.description,
                       #"item 1 has a boolean for "lprice""#)
        XCTAssertEqual(decodingError(#"{"items":[]}"#)?.description, #""total" is missing"#)
        XCTAssertEqual(decodingError(#"{"total":"many","items":[]}"#)?.description, #""total" is not an integer"#)
    }

    func testDefaultsForStartAndDisplay() throws {
        let wire = try WireSearchResponse(body: Array(#"{"total":7,"items":[{"productId":"1"},{"productId":"2"}]}"#.utf8))
        XCTAssertEqual(wire.start, 1)
        XCTAssertEqual(wire.display, 2)
        XCTAssertEqual(wire.items.map(\.title), ["", ""])
        XCTAssertNil(wire.lastBuildDate)
    }

    // MARK: - NaverClient over a stub transport

    func client(_ transport: StubTransport, retries: Int = 0) -> NaverClient {
        NaverClient(base: URL(string: "https://openapi.naver.com")!,
                    credentials: NaverCredentials(clientID: "id-123", clientSecret: "secret-456"),
                    transport: transport, retry: RetryPolicy(maxRetries: retries, baseDelay: 0.001, maxDelay: 0.002))
    }

    func searchError(_ transport: StubTransport, retries: Int = 0) async -> SourceError? {
        do throws(SourceError) {
            let response = try await client(transport, retries: retries).search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("should fail, got \(response)")
            return nil
        } catch {
            return error
        }
    }

    func testClientDecodesSuccessAndSendsKeys() async throws {
        let transport = StubTransport(status: 200, body: ContractFixture.bytes("search-current.json"))
        let response = try await client(transport).search(SearchRequest(query: "후드티", sort: .asc, start: 21, display: 10), timeout: 5)
        XCTAssertEqual(response.items.count, 3)
        XCTAssertEqual(transport.requestCount, 1)
        let request = transport.requests[0]
        XCTAssertEqual(request.url.absoluteString,
                       "https://openapi.naver.com/v1/search/shop.json?query=%ED%9B%84%EB%93%9C%ED%8B%B0&display=10&start=21&sort=asc")
        let headers = Dictionary(request.headers, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(headers["X-Naver-Client-Id"], "id-123")
        XCTAssertEqual(headers["X-Naver-Client-Secret"], "secret-456")
    }

    func testClientMapsContractErrors() async {
        let auth = await searchError(StubTransport(status: 401, body: ContractFixture.bytes("error-401-024.json")))
        XCTAssertEqual(auth, .authentication(status: 401, code: "024",
                                             serverMessage: "Not Exist Client ID : Authentication failed. (존재하지 않는 클라이언트 아이디입니다.)"))
        XCTAssertEqual(auth.map { ExitCode(for: $0) }, .authentication)

        let retired = await searchError(StubTransport(status: 404, body: ContractFixture.bytes("error-404-SE05.json")))
        XCTAssertEqual(retired, .retired(host: "openapi.naver.com"))
        XCTAssertEqual(retired.map { ExitCode(for: $0) }, .unavailable)
        XCTAssertTrue(retired?.message.contains("2026-07-31") ?? false)

        let quotaTransport = StubTransport(status: 429, body: ContractFixture.bytes("error-429-010.json"))
        let quota = await searchError(quotaTransport, retries: 3)
        XCTAssertEqual(quota, .quotaExceeded(serverMessage: "{count/quota=10039/10000} : Query limit exceeded."))
        XCTAssertEqual(quota.map { ExitCode(for: $0) }, .temporary)
        XCTAssertEqual(quotaTransport.requestCount, 1, "a used-up daily quota is not retried")

        let throttleTransport = StubTransport(status: 429, body: ContractFixture.bytes("error-429-012.json"))
        let throttled = await searchError(throttleTransport, retries: 2)
        XCTAssertEqual(throttled, .rateLimited(attempts: 3, serverMessage: "Rate limit exceeded."))
        XCTAssertEqual(throttled.map { ExitCode(for: $0) }, .temporary)
        XCTAssertEqual(throttleTransport.requestCount, 3)

        let serverTransport = StubTransport(status: 500, body: ContractFixture.bytes("error-500-SE99.json"))
        let server = await searchError(serverTransport, retries: 1)
        XCTAssertEqual(server, .serverError(status: 500, code: "SE99", serverMessage: "System Error", attempts: 2))
        XCTAssertEqual(server.map { ExitCode(for: $0) }, .unavailable)

        let bad = await searchError(StubTransport(status: 200, body: Array("<html>".utf8)))
        if case .badResponse(let detail)? = bad {
            XCTAssertTrue(detail.contains("not JSON"), detail)
        } else {
            XCTFail("expected badResponse, got \(String(describing: bad))")
        }
        XCTAssertEqual(bad.map { ExitCode(for: $0) }, .dataError)
    }

    func testClientRetriesAThrottleThenSucceeds() async throws {
        let transport = StubTransport([
            .success(HTTPResponse(status: 429, body: ContractFixture.bytes("error-429-012.json"))),
            .success(HTTPResponse(status: 503, body: Array("busy".utf8))),
            .success(HTTPResponse(status: 200, body: ContractFixture.bytes("search-pre2019.json"))),
        ])
        let response = try await client(transport, retries: 3).search(SearchRequest(query: "방충망"), timeout: 5)
        XCTAssertEqual(response.total, 1532)
        XCTAssertEqual(transport.requestCount, 3)
    }

    func testARedirectIsReportedNotFollowed() async {
        let error = await searchError(StubTransport(status: 302, body: [], headers: ["location": "http://elsewhere.test/steal"]), retries: 1)
        XCTAssertEqual(error, .redirected(status: 302, location: "http://elsewhere.test/steal"))
        XCTAssertEqual(ExitCode(for: error!), .failure)
        XCTAssertTrue(error!.message.contains("does not follow redirects"))
    }

    func testAnotherThrottleCodeIsNamedAsSent() async {
        let body = Array(#"{"errorMessage":"slow down","errorCode":"999"}"#.utf8)
        let error = await searchError(StubTransport(status: 429, body: body), retries: 1)
        XCTAssertTrue(error?.message.contains("429 999: slow down") ?? false, error?.message ?? "")
        XCTAssertEqual(ExitCode(for: error!), .temporary)
    }
}
