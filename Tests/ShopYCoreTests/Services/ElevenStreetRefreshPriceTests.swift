import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// `likes refresh` on an 11번가 like: a ProductInfo answer without a usable price is that like's
/// error (bad data), never `same` at the old price, and records no point.
final class ElevenStreetRefreshPriceTests: XCTestCase {
    struct Canned: HTTPTransport {
        let body: [UInt8]
        func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["content-type": "text/xml;charset=EUC-KR"], body: body)
        }
    }

    func refresh(price: String, lowest: String) async -> PriceRefresh.Result {
        let xml = #"<?xml version="1.0" encoding="EUC-KR" standalone="yes"?><ProductInfoResponse><Product><ProductCode>77</ProductCode>"#
            + #"<ProductName>case</ProductName><ProductPrice><Price>\#(price)</Price><LowestPrice>\#(lowest)</LowestPrice></ProductPrice></Product></ProductInfoResponse>"#
        let client = ElevenStreetClient(base: URL(string: "https://openapi.11st.co.kr")!, key: "eleven-key-0123456789abcdef",
                                        transport: Canned(body: Array(xml.utf8)), retry: RetryPolicy(maxRetries: 0))
        let source = ElevenStreetSource(client: client, timeout: 5)
        let like = Like(product: Product(productId: "11st:77", title: "case", price: 1000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000)
        let results = await PriceRefresh.run([like], book: PriceBook(), source: source, depth: 100, elevenStreet: .success(source))
        return results[0]
    }

    func testAnAnswerWithoutAUsablePriceIsAnError() async throws {
        for (price, lowest) in [("-1", ""), ("", ""), ("1e400", ""), ("abc", ""), ("0", "-5"), ("-1", "abc")] {
            let result = await refresh(price: price, lowest: lowest)
            XCTAssertEqual(result.outcome, .error, "Price \(price), LowestPrice \(lowest)")
            XCTAssertNil(result.found, "nothing to record")
            let error = try XCTUnwrap(result.error)
            XCTAssertEqual(ExitCode(for: error), .dataError)
            XCTAssertTrue((error as? ShopyError)?.message.hasPrefix("11st: ") == true, "\(error)")
            XCTAssertTrue((error as? ShopyError)?.message.contains("no price") == true, "\(error)")
        }
    }

    func testAUsablePriceIsObserved() async throws {
        let same = await refresh(price: "1000", lowest: "")
        XCTAssertEqual(same.outcome, .same)
        XCTAssertEqual(same.price, 1000)
        let down = await refresh(price: "1200", lowest: "900")
        XCTAssertEqual(down.outcome, .down)
        XCTAssertEqual(down.price, 900)
    }
}
