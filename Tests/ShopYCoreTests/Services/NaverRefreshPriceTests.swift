import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// `likes refresh` on a Naver like: a like found without a usable price is that like's error
/// (as an 11번가 one is), never `same` at the old price; and each like reports the requests
/// sent for it, an error's too.
final class NaverRefreshPriceTests: XCTestCase {
    /// Answers each page by its `start`: page 1 from `first`, any later page a 500.
    final class Pages: HTTPTransport, @unchecked Sendable {
        let first: String
        private let counter = RequestCounter()
        init(first: String) { self.first = first }
        var sent: Int { counter.count }

        func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
            counter.add()
            let start = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "start" }?.value
            if start == "1" { return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Array(first.utf8)) }
            return HTTPResponse(status: 500, headers: [:], body: Array(#"{"errorMessage":"system error","errorCode":"SE99"}"#.utf8))
        }
    }

    static func answer(total: Int, items: [(id: String, lprice: String)]) -> String {
        let listed = items.map { #"{"title":"방충망 자석","link":"https://example.com/\#($0.id)","lprice":"\#($0.lprice)","productId":"\#($0.id)"}"# }
        return #"{"total":\#(total),"start":1,"display":\#(items.count),"items":[\#(listed.joined(separator: ","))]}"#
    }

    func refresh(_ transport: Pages) async -> PriceRefresh.Result {
        let client = NaverClient(base: URL(string: "https://openapi.naver.com")!, credentials: NaverCredentials(clientID: "id", clientSecret: "secret"),
                                 transport: transport, retry: RetryPolicy(maxRetries: 1, baseDelay: 0.001, maxDelay: 0.001))
        let source = NaverSource(client: client, timeout: 5)
        let like = Like(product: Product(productId: "88159546540", title: "방충망 자석", price: 1000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000)
        return await PriceRefresh.run([like], book: PriceBook(), source: source, depth: 200)[0]
    }

    func testALikeFoundWithoutAUsablePriceIsAnError() async throws {
        for lprice in ["0", "", "-3", "abc"] {
            let transport = Pages(first: Self.answer(total: 2, items: [("11111111111", "500"), ("88159546540", lprice)]))
            let result = await refresh(transport)
            XCTAssertEqual(result.outcome, .error, "lprice \(lprice)")
            XCTAssertNil(result.found, "nothing to record")
            let error = try XCTUnwrap(result.error)
            XCTAssertEqual(ExitCode(for: error), .dataError)
            XCTAssertEqual((error as? ShopyError)?.message,
                           "naver: found at rank 2 without a price (its lprice is not a positive number of won): no price recorded")
            XCTAssertEqual(result.requests, 1)
        }
    }

    func testAUsablePriceIsObserved() async {
        let result = await refresh(Pages(first: Self.answer(total: 2, items: [("88159546540", "900")])))
        XCTAssertEqual(result.outcome, .down)
        XCTAssertEqual(result.price, 900)
        XCTAssertEqual(result.rank, 1)
        XCTAssertEqual(result.requests, 1)
    }

    func testAnErrorReportsTheRequestsItSent() async throws {
        // Page 1 answers without the like; page 2 fails twice (the request and its one retry).
        let transport = Pages(first: Self.answer(total: 150, items: [("11111111111", "500")]))
        let result = await refresh(transport)
        XCTAssertEqual(result.outcome, .error)
        XCTAssertEqual(ExitCode(for: try XCTUnwrap(result.error)), .unavailable)
        XCTAssertEqual(transport.sent, 3)
        XCTAssertEqual(result.requests, 3, "every request sent for the like, the failed ones too")
    }
}
