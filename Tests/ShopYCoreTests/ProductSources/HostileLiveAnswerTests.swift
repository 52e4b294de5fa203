import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// 11번가 and Coupang answers from a server that lies: bounds, bad data fast, sanitized text,
/// keys never echoed, each mapped to its exit code in the one place.
final class HostileLiveAnswerTests: XCTestCase {
    /// Answers every request with `response`, and counts them.
    final class Canned: HTTPTransport, @unchecked Sendable {
        let response: @Sendable (HTTPRequest) -> HTTPResponse
        private let lock = NSLock()
        private(set) var requests: [HTTPRequest] = []

        init(_ response: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.response = response }

        func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
            lock.withLock { requests.append(request) }
            return response(request)
        }
    }

    let key = "eleven-key-0123456789abcdef"

    func elevenStreet(_ status: Int = 200, headers: [String: String] = [:], body: [UInt8]) -> (ElevenStreetSource, Canned) {
        let canned = Canned { _ in HTTPResponse(status: status, headers: headers, body: body) }
        let client = ElevenStreetClient(base: URL(string: "https://openapi.11st.co.kr")!, key: key, transport: canned,
                                        retry: RetryPolicy(maxRetries: 1, baseDelay: 0.001, maxDelay: 0.001))
        return (ElevenStreetSource(client: client, timeout: 5), canned)
    }

    func coupang(_ status: Int = 200, headers: [String: String] = [:], body: [UInt8]) -> (CoupangSource, Canned) {
        let canned = Canned { _ in HTTPResponse(status: status, headers: headers, body: body) }
        let client = CoupangClient(base: URL(string: "https://api-gateway.coupang.com")!,
                                   credentials: CoupangCredentials(accessKey: "access-key-abcdefgh", secretKey: "secret-key-abcdefgh"),
                                   transport: canned, ledger: nil)
        return (CoupangSource(client: client, timeout: 5), canned)
    }

    func failure(_ body: () async throws -> Void) async -> Error? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    func testALyingContentTypeChangesNothing() async throws {
        // XML sent as JSON, EUC-KR sent as UTF-8: the body is read by what it is.
        let body = try LiveFixtures.bytes("elevenst/search-airpods.xml")
        let (source, _) = elevenStreet(headers: ["content-type": "application/json; charset=utf-8"], body: body)
        let page = try await source.search(SearchRequest(query: "에어팟", display: 3))
        XCTAssertEqual(page.items.first?.title, "애플 에어팟 프로 2세대 USB-C 정품 & 케이스 무료배송")
        // JSON under an XML Content-Type for 11번가: bad data.
        let (json, _) = elevenStreet(headers: ["content-type": "text/xml;charset=EUC-KR"], body: Array(#"{"items":[]}"#.utf8))
        let error = await failure { _ = try await json.search(SearchRequest(query: "에어팟")) }
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .dataError)
        // HTML for Coupang: bad data.
        let (html, _) = coupang(headers: ["content-type": "application/json"], body: Array("<html><body>Bad Gateway</body></html>".utf8))
        let coupangError = await failure { _ = try await html.search(SearchRequest(query: "휴지")) }
        XCTAssertEqual(coupangError.map { ExitCode(for: $0) }, .dataError)
    }

    func testBillionLaughsIsBadDataFast() async throws {
        let bytes = try LiveFixtures.bytes("elevenst/hostile-billion-laughs.xml")
        let (source, _) = elevenStreet(body: bytes)
        let error = await failure { _ = try await source.search(SearchRequest(query: "a")) }
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .dataError)
        XCTAssertTrue((error as? ShopyError)?.message.contains("DTD") ?? false, "\(String(describing: error))")
        // Refused at the declaration's first byte: nothing of it is read, so nothing expanded.
        let doctype = try XCTUnwrap(XMLReaderTests.offset(of: "<!DOCTYPE", in: bytes))
        XCTAssertTrue((error as? ShopyError)?.message.contains("(at byte \(doctype + 1))") ?? false, "\(String(describing: error))")
    }

    func testDeepNestingAndTooManyElements() async {
        let deep = Array(("<ProductSearchResponse>" + String(repeating: "<x>", count: 5000)).utf8)
        let (source, _) = elevenStreet(body: deep)
        let error = await failure { _ = try await source.search(SearchRequest(query: "a")) }
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .dataError)
        let many = Array(("<ProductSearchResponse><Products>" + String(repeating: "<Product/>", count: 200_000) + "</Products></ProductSearchResponse>").utf8)
        let (wide, _) = elevenStreet(body: many)
        let wideError = await failure { _ = try await wide.search(SearchRequest(query: "a")) }
        XCTAssertEqual(wideError.map { ExitCode(for: $0) }, .dataError)
    }

    func testElevenStreetStatusesAndKeyEchoes() async throws {
        // A proxy that echoes the request: the key never reaches an error line.
        let echo = Canned { request in HTTPResponse(status: 400, body: Array("bad request: \(request.url.absoluteString)".utf8)) }
        let client = ElevenStreetClient(base: URL(string: "https://openapi.11st.co.kr")!, key: key, transport: echo)
        let error = await failure { _ = try await ElevenStreetSource(client: client, timeout: 5).search(SearchRequest(query: "a")) }
        let message = (error as? ShopyError)?.message ?? ""
        XCTAssertFalse(message.contains(key), message)
        XCTAssertTrue(message.hasPrefix("11st: "), message)
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .failure)

        for (status, code) in [(401, ExitCode.authentication), (403, .authentication), (503, .unavailable), (429, .temporary), (302, .failure)] {
            let (source, canned) = elevenStreet(status, body: Array("<html>\(status)</html>".utf8))
            let error = await failure { _ = try await source.search(SearchRequest(query: "a")) }
            XCTAssertEqual(error.map { ExitCode(for: $0) }, code, "\(status)")
            XCTAssertEqual(canned.requests.count, status == 503 || status == 429 ? 2 : 1, "429 and 5xx are retried as Naver's")
        }
    }

    func testCoupangStatusesAreNeverRetried() async throws {
        for (status, body, code) in [(401, #"{"code":"ERROR","message":"Invalid signature."}"#, ExitCode.authentication),
                                     (403, #"{"code":"ERROR","message":"Request is not authorized."}"#, .authentication),
                                     (429, #"{"code":"ERROR","message":"Too many requests"}"#, .temporary),
                                     (500, #"{"code":"ERROR","message":"Internal"}"#, .unavailable),
                                     (200, #"{"rCode":"400","rMessage":"url convert failed"}"#, .failure)] {
            let (source, canned) = coupang(status, body: Array(body.utf8))
            let error = await failure { _ = try await source.search(SearchRequest(query: "휴지")) }
            XCTAssertEqual(error.map { ExitCode(for: $0) }, code, "\(status) \(body)")
            XCTAssertEqual(canned.requests.count, 1, "never retried")
        }
        // Every request carries a signature made for it.
        let (source, canned) = coupang(body: Array(#"{"rCode":"0","data":{"productData":[]}}"#.utf8))
        _ = try await source.search(SearchRequest(query: "휴지"))
        _ = try await source.search(SearchRequest(query: "화장지"))
        let signatures = canned.requests.compactMap { request in request.headers.first { $0.0 == "Authorization" }.flatMap { CoupangSigner.parse($0.1)?.signature } }
        XCTAssertEqual(Set(signatures).count, 2)
        XCTAssertFalse(canned.requests.contains { "\($0.headers)".contains("secret-key-abcdefgh") }, "the secret is never sent")
    }

    func testKeysQuotedInsideA200AreRedacted() async {
        let body = Array("<ProductSearchResponse><Error><Code>003</Code><Message>KEY \(key) 는 등록되지 않았습니다</Message></Error></ProductSearchResponse>".utf8)
        let (source, _) = elevenStreet(body: body)
        let error = await failure { _ = try await source.search(SearchRequest(query: "a")) }
        let message = (error as? ShopyError)?.message ?? ""
        XCTAssertFalse(message.contains(key), message)
        XCTAssertTrue(message.contains("[redacted]"), message)
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .authentication)

        let (coupangSource, _) = coupang(body: Array(#"{"rCode":"400","rMessage":"bad key access-key-abcdefgh"}"#.utf8))
        let coupangError = await failure { _ = try await coupangSource.search(SearchRequest(query: "a")) }
        XCTAssertFalse(((coupangError as? ShopyError)?.message ?? "").contains("access-key-abcdefgh"))
    }

    func testNamedErrorsReadAsTheirSources() {
        let named = NamedSourceError(source: .elevenst, underlying: SourceError.badResponse("the XML declares a DTD"))
        XCTAssertEqual(named.message, "11st: the answer does not parse: the XML declares a DTD")
        let server = NamedSourceError(source: .coupang, underlying: SourceError.serverError(status: 503, code: nil, serverMessage: nil, attempts: 1))
        XCTAssertEqual(server.message, "coupang: the service failed after 1 attempt (503)")
        XCTAssertEqual(ExitCode(for: server), .unavailable)
        let dns = NamedSourceError(source: .elevenst, underlying: SourceError.unreachable(host: "openapi.11st.co.kr", reason: .dns))
        XCTAssertTrue(dns.hint?.contains("SHOPY_11ST_BASE") ?? false)
    }

    func testAFloodOfTinyObjectsIsRefusedBeforeParsing() async {
        let flood = Array((#"{"rCode":"0","data":["# + String(repeating: "{},", count: 1_000_000) + "{}]}").utf8)
        let (source, _) = coupang(body: flood)
        let error = await failure { _ = try await source.search(SearchRequest(query: "a")) }
        XCTAssertEqual(error.map { ExitCode(for: $0) }, .dataError)
        XCTAssertTrue((error as? ShopyError)?.message.contains("more than a Coupang answer ever is") ?? false)
    }

    func testAnIDOrPriceOfTheWrongKind() async throws {
        let body = try LiveFixtures.bytes("coupang/hostile-fields.json")
        let (source, _) = coupang(body: body)
        let page = try await source.search(SearchRequest(query: "x", display: 10))
        XCTAssertEqual(page.items.map(\.productId), ["coupang:123", "coupang:124", "coupang:125"])
        XCTAssertEqual(page.dropped, 3)
        XCTAssertTrue(page.items.allSatisfy { $0.price == nil })
    }
}
