import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Behaviour settled after review: redirects, other 429 codes, base URL ports, page limits.
final class ReviewFixTests: XCTestCase {
    private func client(_ transport: StubTransport) -> NaverClient {
        NaverClient(base: URL(string: "https://openapi.naver.com")!,
                    credentials: NaverCredentials(clientID: "id-123", clientSecret: "secret-456"),
                    transport: transport, retry: RetryPolicy(maxRetries: 1, baseDelay: 0.001, maxDelay: 0.002))
    }

    private func failure(_ transport: StubTransport) async -> SourceError? {
        do throws(SourceError) {
            _ = try await client(transport).search(SearchRequest(query: "x"), timeout: 5)
            return nil
        } catch {
            return error
        }
    }

    func testARedirectIsReportedNotFollowed() async {
        let error = await failure(StubTransport(status: 302, body: [], headers: ["location": "http://elsewhere.test/steal"]))
        XCTAssertEqual(error, .redirected(status: 302, location: "http://elsewhere.test/steal"))
        XCTAssertEqual(ExitCode(for: error!), .failure)
        XCTAssertTrue(error!.message.contains("does not follow redirects"))
    }

    func testAnotherThrottleCodeIsNamedAsSent() async {
        let body = Array(#"{"errorMessage":"slow down","errorCode":"999"}"#.utf8)
        let error = await failure(StubTransport(status: 429, body: body))
        XCTAssertTrue(error?.message.contains("429 999: slow down") ?? false, error?.message ?? "")
        XCTAssertEqual(ExitCode(for: error!), .temporary)
    }

    func testABaseURLWithAnImpossiblePortIsRejected() {
        for base in ["http://127.0.0.1:99999", "http://127.0.0.1:0"] {
            XCTAssertThrowsError(try RequestBuilder.base(from: ["SHOPY_API_BASE": base]), base)
        }
        XCTAssertNoThrow(try RequestBuilder.base(from: ["SHOPY_API_BASE": "http://127.0.0.1:65535"]))
    }

    func testHugePagesAreUsageErrorsWithoutOverflow() async {
        for page in ["1001", "9223372036854775807", "0", "-3"] {
            let io = IO.capture(environment: ["SHOPY_HOME": NSTemporaryDirectory() + "shopy-review-\(UUID().uuidString)"])
            let code = await ShopY.main(["search", "x", "--page", page], io: io)
            XCTAssertEqual(code, 64, page)
            XCTAssertTrue(io.stderr.text.hasPrefix("shopy: "), io.stderr.text)
        }
    }

    func testRankMatchingIgnoresEverySpace() {
        XCTAssertEqual(RankQuery.normalize(" 다 샵 "), RankQuery.normalize("다샵"))
        XCTAssertEqual(RankQuery.normalize("자석 방충망\tDIY"), "자석방충망diy")
    }
}
