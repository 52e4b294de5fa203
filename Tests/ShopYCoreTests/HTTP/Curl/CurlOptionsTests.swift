#if os(Linux)
import Foundation
import XCTest
import CShopYShim
@testable import ShopYCore

/// What the libcurl transport asks curl for, read from the option list it applies (no network).
final class CurlOptionsTests: XCTestCase {
    private func options(_ url: String, timeout: Int = 8_000, proxy: ProxySelection? = nil) -> [CurlOption] {
        CurlTransfer.options(for: HTTPRequest(url: URL(string: url)!), timeoutMilliseconds: timeout, proxy: proxy)
    }

    private func long(_ options: [CurlOption], _ option: Int32) -> Int? {
        for case .long(let name, let value) in options where name == option { return value }
        return nil
    }

    private func text(_ options: [CurlOption], _ option: Int32) -> String? {
        for case .text(let name, let value) in options where name == option { return value }
        return nil
    }

    func testTheConstantsAreLibcurlsABI() {
        // curl.h: CURLOPT(CURLOPT_HTTP_VERSION, CURLOPTTYPE_VALUES, 84); CURL_HTTP_VERSION_2TLS = 4.
        XCTAssertEqual(CSHOPY_CURLOPT_HTTP_VERSION, 84)
        XCTAssertEqual(CSHOPY_CURL_HTTP_VERSION_2TLS, 4)
        XCTAssertEqual(CSHOPY_CURLOPT_PIPEWAIT, 237)
        XCTAssertEqual(CSHOPY_CURLOPT_SSL_VERIFYPEER, 64)
        XCTAssertEqual(CSHOPY_CURLOPT_SSL_VERIFYHOST, 81)
        XCTAssertEqual(CSHOPY_CURLOPT_FOLLOWLOCATION, 52)
    }

    func testHTTP2IsAskedForWhereATLSServerOffersIt() {
        for url in ["https://openapi.naver.com/v1/search/shop.json?query=a", "http://127.0.0.1:8080/v1/search/shop.json"] {
            let set = options(url)
            XCTAssertEqual(long(set, CSHOPY_CURLOPT_HTTP_VERSION), Int(CSHOPY_CURL_HTTP_VERSION_2TLS), url)
            XCTAssertEqual(set.filter { $0.option == CSHOPY_CURLOPT_HTTP_VERSION }.count, 1, "set once: \(url)")
        }
        // Concurrent https requests wait for the first handshake to learn whether it multiplexes;
        // plain http never does (it would wait a round trip for nothing).
        XCTAssertEqual(long(options("https://openapi.naver.com/x"), CSHOPY_CURLOPT_PIPEWAIT), 1)
        XCTAssertNil(long(options("http://127.0.0.1:1/x"), CSHOPY_CURLOPT_PIPEWAIT))
    }

    func testTheVersionIsAskedForOnlyWhenWanted() throws {
        // Loading no longer asks for it (curl_version initialises LDAP and friends); it is there on demand.
        guard case .success = LibCurl.loaded else { throw XCTSkip("libcurl.so.4 cannot be loaded here") }
        XCTAssertTrue(LibCurl.version?.hasPrefix("libcurl/") ?? false, LibCurl.version ?? "nil")
    }

    func testVerificationRedirectsProtocolsAndCapsAreAlwaysSet() {
        let set = options("https://openapi.naver.com/x", timeout: 1_500)
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_SSL_VERIFYPEER), 1)
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_SSL_VERIFYHOST), 2)
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_FOLLOWLOCATION), 0)
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_PROTOCOLS), Int(CSHOPY_CURLPROTO_HTTP | CSHOPY_CURLPROTO_HTTPS))
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_TIMEOUT_MS), 1_500)
        XCTAssertEqual(long(set, CSHOPY_CURLOPT_CONNECTTIMEOUT_MS), 1_500)
        XCTAssertEqual(long(options("https://a.test/", timeout: 60_000), CSHOPY_CURLOPT_CONNECTTIMEOUT_MS), CurlTransfer.connectTimeoutMilliseconds)
        XCTAssertEqual(text(set, CSHOPY_CURLOPT_ACCEPT_ENCODING), "gzip, deflate")
        XCTAssertTrue(set.contains(.offset(CSHOPY_CURLOPT_MAXFILESIZE_LARGE, Int64(ResponseLimit.maxBodyBytes))))
        XCTAssertEqual(text(set, CSHOPY_CURLOPT_PROXY), "")
        XCTAssertEqual(text(set, CSHOPY_CURLOPT_NOPROXY), "")
        let proxied = options("https://a.test/", proxy: ProxySelection(url: "http://u:p@127.0.0.1:3128", variable: "HTTPS_PROXY"))
        XCTAssertEqual(text(proxied, CSHOPY_CURLOPT_PROXY), "http://u:p@127.0.0.1:3128")
    }
}
#endif
