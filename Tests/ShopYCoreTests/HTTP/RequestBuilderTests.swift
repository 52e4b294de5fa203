// Tests for the request side of Sources/ShopYCore/HTTP/NaverClient.swift: the request builder
// (percent-encoding, the URL and its bases, SHOPY_API_BASE) and the retry policy.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

final class RequestBuilderTests: XCTestCase {
    var naver: URL { URL(string: "https://openapi.naver.com")! }

    func query(of url: URL) -> String {
        let text = url.absoluteString
        guard let q = text.range(of: "?query=") else { return "" }
        let rest = text[q.upperBound...]
        return String(rest.prefix { $0 != "&" })
    }

    func testPercentEncoding() {
        let cases: [(String, String)] = [
            ("1+1", "1%2B1"),
            ("a&b", "a%26b"),
            ("a=b", "a%3Db"),
            ("#1", "%231"),
            ("100%", "100%25"),
            ("a b", "a%20b"),
            ("방충망", "%EB%B0%A9%EC%B6%A9%EB%A7%9D"),
            ("고양이 스크래쳐", "%EA%B3%A0%EC%96%91%EC%9D%B4%20%EC%8A%A4%ED%81%AC%EB%9E%98%EC%B3%90"),
            ("AZaz09-._~", "AZaz09-._~"),
            ("a/b?c", "a%2Fb%3Fc"),
            ("😀", "%F0%9F%98%80"),
            ("'\"<>", "%27%22%3C%3E"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(RequestBuilder.percentEncode(text), expected, text)
            let url = RequestBuilder.url(base: naver, request: SearchRequest(query: text))
            XCTAssertEqual(query(of: url), expected, text)
            // What a server decodes is exactly what was typed.
            XCTAssertEqual(expected.removingPercentEncoding, text)
        }
    }

    func testRequestURL() {
        let url = RequestBuilder.url(base: naver, request: SearchRequest(query: "1+1", sort: .dsc, start: 41, display: 20))
        XCTAssertEqual(url.absoluteString, "https://openapi.naver.com/v1/search/shop.json?query=1%2B1&display=20&start=41&sort=dsc")
        XCTAssertEqual(url.host, "openapi.naver.com")
        XCTAssertEqual(url.path, "/v1/search/shop.json")
    }

    func testRequestURLBases() {
        let request = SearchRequest(query: "x")
        let plain = RequestBuilder.url(base: naver, request: request).absoluteString
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "https://openapi.naver.com/")!, request: request).absoluteString, plain)
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "https://openapi.naver.com//")!, request: request).absoluteString, plain)
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "http://127.0.0.1:8080/proxy/naver/")!, request: request).absoluteString,
                       "http://127.0.0.1:8080/proxy/naver/v1/search/shop.json?query=x&display=20&start=1&sort=sim")
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "http://127.0.0.1:8080/proxy")!, request: request).absoluteString,
                       "http://127.0.0.1:8080/proxy/v1/search/shop.json?query=x&display=20&start=1&sort=sim")
    }

    func testRequestURLFilterAndExclude() {
        let pay = RequestBuilder.url(base: naver, request: SearchRequest(query: "x", naverPayOnly: true, exclude: [.cbshop, .used]))
        XCTAssertEqual(pay.absoluteString,
                       "https://openapi.naver.com/v1/search/shop.json?query=x&display=20&start=1&sort=sim&filter=naverpay&exclude=used:cbshop")
        // A stable order however the set was built.
        var seen = Set<String>()
        for kinds in [[ExcludeKind.cbshop, .rental, .used], [.used, .rental, .cbshop], [.rental, .cbshop, .used]] {
            for _ in 0..<5 {
                seen.insert(RequestBuilder.url(base: naver, request: SearchRequest(query: "x", exclude: Set(kinds))).absoluteString)
            }
        }
        XCTAssertEqual(seen, ["https://openapi.naver.com/v1/search/shop.json?query=x&display=20&start=1&sort=sim&exclude=used:rental:cbshop"])
        XCTAssertFalse(RequestBuilder.url(base: naver, request: SearchRequest(query: "x")).absoluteString.contains("exclude"))
        XCTAssertFalse(RequestBuilder.url(base: naver, request: SearchRequest(query: "x")).absoluteString.contains("filter"))
    }

    func testBaseFromEnvironment() throws {
        XCTAssertEqual(try RequestBuilder.base(from: [:]).absoluteString, "https://openapi.naver.com")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": ""]).absoluteString, "https://openapi.naver.com")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": "http://127.0.0.1:8080"]).absoluteString, "http://127.0.0.1:8080")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": " HTTPS://mirror.example/api/ "]).host, "mirror.example")
        for bad in ["ftp://example.com", "openapi.naver.com", "file:///etc/passwd", "javascript:alert(1)", "http://", "https://x.example/?a=b",
                    "127.0.0.1:8080", "mailto:a@b.c"] {
            do throws(SourceError) {
                let url = try RequestBuilder.base(from: ["SHOPY_API_BASE": bad])
                XCTFail("\(bad) accepted as \(url)")
            } catch {
                XCTAssertEqual(error, .invalidBaseURL(bad), bad)
                XCTAssertEqual(ExitCode(for: error), .failure)
            }
        }
    }

    func testRetryDelayBounds() {
        let policy = RetryPolicy()
        for retry in 1...12 {
            let full = min(policy.maxDelay, policy.baseDelay * Double(1 << (retry - 1)))
            for random in [0.0, 0.25, 0.5, 0.999, 1.0] {
                let delay = policy.delay(retry: retry, retryAfter: nil, random: random)
                XCTAssertGreaterThanOrEqual(delay, full / 2, "retry \(retry) random \(random)")
                XCTAssertLessThanOrEqual(delay, full, "retry \(retry) random \(random)")
                XCTAssertLessThanOrEqual(delay, policy.maxDelay)
            }
        }
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: nil, random: 0), 0.125, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: nil, random: 1), 0.25, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 3, retryAfter: nil, random: 1), 1.0, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 30, retryAfter: nil, random: 1), 8, accuracy: 1e-9)
        // Retry-After is honoured as a minimum.
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: 3, random: 0.5), 3, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 5, retryAfter: 0.01, random: 1), 4, accuracy: 1e-9)
        // Later retries never wait less than earlier ones at the same draw.
        for random in [0.0, 0.5, 1.0] {
            let delays = (1...10).map { policy.delay(retry: $0, retryAfter: nil, random: random) }
            XCTAssertEqual(delays, delays.sorted(), "random \(random)")
        }
    }

    func testRetryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_445_412_480 - 30)  // 30 s before Wed, 21 Oct 2015 07:28:00 GMT
        XCTAssertEqual(RetryPolicy.retryAfter("5", now: now), 5)
        XCTAssertEqual(RetryPolicy.retryAfter("0", now: now), 0)
        XCTAssertEqual(RetryPolicy.retryAfter(" 120 ", now: now), 120)
        XCTAssertNil(RetryPolicy.retryAfter(nil, now: now))
        XCTAssertNil(RetryPolicy.retryAfter("", now: now))
        XCTAssertNil(RetryPolicy.retryAfter("soon", now: now))
        XCTAssertNil(RetryPolicy.retryAfter("-3", now: now))
        let date = RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now)
        XCTAssertNotNil(date)
        XCTAssertEqual(date ?? -1, 30, accuracy: 0.001)
        // A date in the past means: now.
        XCTAssertEqual(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now.addingTimeInterval(3600)), 0)
    }

    func testABaseURLWithAnImpossiblePortIsRejected() {
        for base in ["http://127.0.0.1:99999", "http://127.0.0.1:0"] {
            XCTAssertThrowsError(try RequestBuilder.base(from: ["SHOPY_API_BASE": base]), base)
        }
        XCTAssertNoThrow(try RequestBuilder.base(from: ["SHOPY_API_BASE": "http://127.0.0.1:65535"]))
    }
}
