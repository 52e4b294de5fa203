import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// A TLS failure of 11번가 or Coupang names that source's address variable in its hint
/// (SHOPY_11ST_BASE, SHOPY_COUPANG_BASE), not Naver's SHOPY_API_BASE.
final class LiveSourceTLSHintTests: XCTestCase {
    struct Failing: HTTPTransport {
        let failure: TLSFailure
        func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
            throw .tls(failure)
        }
    }

    func error(_ body: () async throws -> Void) async -> Error? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    func testElevenStreetAndCoupangNameTheirOwnVariable() async throws {
        for failure in [TLSFailure.wrongHost, .notTLS] {
            let eleven = ElevenStreetClient(base: URL(string: "https://127.0.0.1:18443")!, key: "eleven-key-0123456789abcdef",
                                            transport: Failing(failure: failure), retry: RetryPolicy(maxRetries: 0))
            let elevenError = await error { _ = try await ElevenStreetSource(client: eleven, timeout: 5).search(SearchRequest(query: "q")) }
            let elevenHint = try XCTUnwrap((elevenError as? ShopyError)?.hint, "\(String(describing: elevenError))")
            XCTAssertTrue(elevenHint.contains("SHOPY_11ST_BASE"), elevenHint)
            XCTAssertFalse(elevenHint.contains("SHOPY_API_BASE"), elevenHint)

            let coupang = CoupangClient(base: URL(string: "https://127.0.0.1:18443")!,
                                        credentials: CoupangCredentials(accessKey: "access-key-abcdefgh", secretKey: "secret-key-abcdefgh"),
                                        transport: Failing(failure: failure), ledger: nil)
            let coupangError = await error { _ = try await CoupangSource(client: coupang, timeout: 5).search(SearchRequest(query: "q", display: 5)) }
            let coupangHint = try XCTUnwrap((coupangError as? ShopyError)?.hint, "\(String(describing: coupangError))")
            XCTAssertTrue(coupangHint.contains("SHOPY_COUPANG_BASE"), coupangHint)
            XCTAssertFalse(coupangHint.contains("SHOPY_API_BASE"), coupangHint)
        }
        // Naver's own failure keeps its variable.
        XCTAssertTrue(SourceError.unreachable(host: "h", reason: .tls(.notTLS)).hint?.contains("SHOPY_API_BASE") ?? false)
    }
}
