import XCTest
@testable import ShopYCore
@testable import ShopYEmulator
@testable import ShopYBase

/// The emulator's 11번가 and Coupang Partners contracts, spoken to by shopy's own clients over
/// loopback (libcurl), and on the wire.
final class EmulatorLiveSourcesTests: XCTestCase {
    func elevenStreet(_ server: EmulatorServer, key: String? = nil) -> ElevenStreetClient {
        ElevenStreetClient(base: URL(string: server.baseURL)!, key: key ?? server.config.elevenStreetKey, retry: RetryPolicy(maxRetries: 1, baseDelay: 0.01))
    }

    func coupang(_ server: EmulatorServer, secret: String? = nil, home: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) -> CoupangClient {
        CoupangClient(base: URL(string: server.baseURL)!,
                      credentials: CoupangCredentials(accessKey: server.config.coupangAccessKey, secretKey: secret ?? server.config.coupangSecretKey),
                      ledger: home.map(CoupangLedger.init), now: now)
    }

    func raw(_ server: EmulatorServer, _ target: String, headers: [(String, String)] = []) async throws -> HTTPResponse {
        try await SystemTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + target)!, headers: headers),
                                              deadline: .now.advanced(by: .seconds(5)))
    }

    // MARK: - 11번가

    func testElevenStreetAnswersEUCKRXMLWithCDATA() async throws {
        let server = try liveEmulator()
        let response = try await raw(server, "/openapi/OpenApiService.tmall?key=\(server.config.elevenStreetKey)&apiCode=ProductSearch&keyword=%EB%B0%A9%EC%B6%A9%EB%A7%9D&pageSize=5&sortCd=L")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "text/xml;charset=EUC-KR")
        XCTAssertTrue(response.body.starts(with: Array(#"<?xml version="1.0" encoding="EUC-KR""#.utf8)))
        XCTAssertNil(String(validating: response.body, as: UTF8.self), "Hangul in EUC-KR is not UTF-8")
        let text = String(decoding: try EUCKR.decode(response.body), as: UTF8.self)
        XCTAssertTrue(text.contains("<ProductName><![CDATA["), text)
        XCTAssertTrue(text.contains("방충망"))
        let answer = try ElevenStreetAnswer.search(response.body)
        XCTAssertEqual(answer.products.count, 5)
        let prices = answer.products.compactMap { ElevenStreetAnswer.price($0.salePrice) ?? ElevenStreetAnswer.price($0.price) }
        XCTAssertEqual(prices, prices.sorted(), "sortCd=L: price low to high")
    }

    func testElevenStreetClientSearchesPagesAndLooksUp() async throws {
        let server = try liveEmulator()
        let source = ElevenStreetSource(client: elevenStreet(server), timeout: 5)
        let first = try await source.search(SearchRequest(query: "방충망", sort: .sim, start: 1, display: 4))
        XCTAssertEqual(first.items.count, 4)
        XCTAssertTrue(first.items.allSatisfy { $0.productId.hasPrefix("11st:") && $0.source == .elevenst && $0.link?.hasPrefix("http://www.11st.co.kr/") == true })
        XCTAssertFalse(first.items.contains { $0.title.contains("<b>") })
        // A start off the page boundary (rank's last page starts at 1,000): the pages around it.
        let shifted = try await source.search(SearchRequest(query: "방충망", sort: .sim, start: 3, display: 4))
        XCTAssertEqual(Array(shifted.items.prefix(2)), Array(first.items.suffix(2)))
        XCTAssertEqual(shifted.items.count, 4)

        let id = try XCTUnwrap(first.items.first?.productId)
        let found = try await source.lookup(id)
        XCTAssertEqual(found?.productId, id)
        XCTAssertNotNil(found?.price)
        let missing = try await source.lookup("11st:1")
        XCTAssertNil(missing, "no product by that code: nil, not an error")
    }

    func testElevenStreetErrorsComeInside200() async throws {
        let server = try liveEmulator()
        do {
            _ = try await ElevenStreetSource(client: elevenStreet(server, key: "wrong-key-000"), timeout: 5).search(SearchRequest(query: "방충망"))
            XCTFail("a refused key")
        } catch let error as NamedSourceError {
            XCTAssertEqual(error.underlying as? SourceError, .elevenStreetKeyRefused(code: "003", message: "등록되지 않은 KEY 입니다."))
        }
        let stats = try await server.stats()
        XCTAssertEqual(stats["elevenst"]?["lastParams"]?["key"], .string("***"), "the key never reaches the stats")
    }

    func testFaultsAndLatencyApply() async throws {
        let server = try liveEmulator { $0.fault = .serverError; $0.faultCount = 1 }
        // Retried as Naver's are: the first 500, then the answer.
        let page = try await ElevenStreetSource(client: elevenStreet(server), timeout: 10).search(SearchRequest(query: "방충망", display: 2))
        XCTAssertEqual(page.items.count, 2)
        let malformed = try liveEmulator { $0.fault = .malformed }
        do {
            _ = try await ElevenStreetSource(client: elevenStreet(malformed), timeout: 5).search(SearchRequest(query: "방충망", display: 2))
            XCTFail("malformed")
        } catch let error as NamedSourceError {
            guard case .badResponse? = error.underlying as? SourceError else { return XCTFail("\(error)") }
        }
    }

    // MARK: - Coupang

    func testCoupangSignedSearchRankingsAndGoldbox() async throws {
        let server = try liveEmulator()
        let source = CoupangSource(client: coupang(server), timeout: 5)
        let page = try await source.search(SearchRequest(query: "방충망", sort: .asc, start: 1, display: 20))
        XCTAssertEqual(page.items.count, 10, "at most 10, whatever the size")
        XCTAssertEqual(page.items.compactMap(\.price), page.items.compactMap(\.price).sorted(), "asc sorted here")
        for item in page.items {
            XCTAssertTrue(item.productId.hasPrefix("coupang:"))
            XCTAssertEqual(item.link, CoupangSource.productPage(ProductID.bare(item.productId)))
            XCTAssertNotNil(item.rocket)
        }
        let best = try await source.bestSellers(category: 1016, name: "가전디지털", limit: 5)
        XCTAssertEqual(best.items.count, 5)
        XCTAssertTrue(best.items.allSatisfy { $0.categories == ["가전디지털"] })
        let deals = try await source.goldbox(limit: 100)
        XCTAssertEqual(deals.items.count, 20)
        let empty = try await source.search(SearchRequest(query: "방충망", start: 11, display: 10))
        XCTAssertEqual(empty.items, [], "page 2: Coupang contributes nothing, and is not asked")
    }

    func testCoupangChecksSignatures() async throws {
        let server = try liveEmulator()
        let path = CoupangClient.root + "/products/search"
        let query = "keyword=abc&limit=3"
        func status(_ authorization: String?) async throws -> (Int, String?) {
            let response = try await raw(server, path + "?" + query, headers: authorization.map { [("Authorization", $0)] } ?? [])
            return (response.status, CoupangAnswer.gatewayMessage(response.body))
        }
        let credentials = CoupangCredentials(accessKey: server.config.coupangAccessKey, secretKey: server.config.coupangSecretKey)
        let now = Date()
        let good = try CoupangSigner.authorization(method: "GET", path: path, query: query, credentials: credentials, at: now)
        let (okStatus, _) = try await status(good)
        XCTAssertEqual(okStatus, 200)
        let reused = try await status(good)
        XCTAssertEqual(reused.0, 401)
        XCTAssertEqual(reused.1, "Specified signature is expired.", "a signature is good once")
        let stale = try CoupangSigner.authorization(method: "GET", path: path, query: query, credentials: credentials, at: now.addingTimeInterval(-3600))
        let staleAnswer = try await status(stale)
        XCTAssertEqual(staleAnswer.1, "Specified signature is expired.")
        let wrong = try CoupangSigner.authorization(method: "GET", path: path, query: "keyword=abd&limit=3", credentials: credentials, at: now.addingTimeInterval(1))
        let wrongAnswer = try await status(wrong)
        XCTAssertEqual(wrongAnswer.0, 401)
        XCTAssertEqual(wrongAnswer.1, "Invalid signature.", "signed for another query")
        let missing = try await status(nil)
        XCTAssertEqual(missing.1, "HMAC format is invalid.")
        let other = try CoupangSigner.authorization(method: "GET", path: path, query: query, credentials: CoupangCredentials(accessKey: "someone-else", secretKey: "x"), at: now)
        let otherAnswer = try await status(other)
        XCTAssertEqual(otherAnswer.1, "Request is not authorized.")
    }

    func testCoupangLimitRule() async throws {
        let server = try liveEmulator()
        let path = CoupangClient.root + "/products/search"
        let credentials = CoupangCredentials(accessKey: server.config.coupangAccessKey, secretKey: server.config.coupangSecretKey)
        let now = Date()
        for (second, (limit, count)) in [("10", 10), ("11", 0)].enumerated() {
            let query = "keyword=%EB%B0%A9%EC%B6%A9%EB%A7%9D&limit=" + limit
            // Each signed at a second of its own: a signature is good once.
            let authorization = try CoupangSigner.authorization(method: "GET", path: path, query: query, credentials: credentials,
                                                                at: now.addingTimeInterval(Double(second)))
            let response = try await raw(server, path + "?" + query, headers: [("Authorization", authorization)])
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(try CoupangAnswer.items(response.body).count, count, "limit \(limit)")
        }
    }

    func testCoupang401MapsToAuthenticationWithAClockHint() async throws {
        let server = try liveEmulator()
        let skewed = CoupangSource(client: coupang(server, now: { Date().addingTimeInterval(-7200) }), timeout: 5)
        do {
            _ = try await skewed.search(SearchRequest(query: "방충망"))
            XCTFail("a clock two hours behind")
        } catch {
            XCTAssertEqual((error as? ShopyError)?.message, "Coupang refused the request's signature or keys (401: Specified signature is expired.)")
            XCTAssertTrue((error as? ShopyError)?.hint?.contains("clock") ?? false)
        }
        let wrongSecret = CoupangSource(client: coupang(server, secret: "not-the-secret"), timeout: 5)
        do {
            _ = try await wrongSecret.search(SearchRequest(query: "방충망"))
            XCTFail("a wrong secret")
        } catch {
            XCTAssertEqual((error as? ShopyError)?.message, "Coupang refused the request's signature or keys (401: Invalid signature.)")
        }
    }

    func testCoupang429IsNotRetriedAndHoldsTheKey() async throws {
        let server = try liveEmulator { $0.coupangLimit = 1; $0.retryAfterSeconds = 7200 }
        let home = scratchHome()
        let source = CoupangSource(client: coupang(server, home: home), timeout: 5)
        _ = try await source.search(SearchRequest(query: "방충망"))
        do {
            _ = try await source.search(SearchRequest(query: "고양이"))
            XCTFail("past the emulator's limit")
        } catch {
            guard case .coupangThrottled? = (error as? NamedSourceError)?.underlying as? SourceError else { return XCTFail("\(error)") }
        }
        let requests = try await server.requests("coupang")
        XCTAssertEqual(requests, 2, "the 429 was not retried")
        // Held for Retry-After (two hours, later than the rolling hour): nothing sent.
        do {
            _ = try await source.search(SearchRequest(query: "세제"))
            XCTFail("held")
        } catch {
            guard case .coupangHeld(let until)? = (error as? NamedSourceError)?.underlying as? SourceError else { return XCTFail("\(error)") }
            XCTAssertTrue(until.hasSuffix("(in 2 h)"), until)
        }
        let afterHold = try await server.requests("coupang")
        XCTAssertEqual(afterHold, 2)
        // The cache still answers what it has.
        let cached = try await source.search(SearchRequest(query: "방충망"))
        XCTAssertFalse(cached.items.isEmpty)
        let afterCache = try await server.requests("coupang")
        XCTAssertEqual(afterCache, 2)
    }
}

extension EmulatorServer {
    /// `/_emulator/stats` as JSON.
    func stats() async throws -> JSONValue {
        let response = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: baseURL + "/_emulator/stats")!),
                                                             deadline: .now.advanced(by: .seconds(5)))
        return try JSONParser.parse(response.body)
    }

    /// Requests the emulator's `api` (`elevenst`, `coupang`) received.
    func requests(_ api: String) async throws -> Int {
        try await stats()[api]?["requests"]?.intValue ?? -1
    }
}
