import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// Which proxy a request uses (curl's variables and precedence), how it is named in messages,
/// and how the transport's new failures read and exit.
final class ProxyEnvironmentTests: XCTestCase {
    private func proxy(_ url: String, _ environment: [String: String]) -> ProxySelection? {
        ProxyEnvironment.proxy(for: URL(string: url)!, lookup: { environment[$0] })
    }

    func testTheSchemePicksTheVariableAndLowercaseWins() {
        let env = ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2", "HTTP_PROXY": "http://plain:3"]
        XCTAssertEqual(proxy("https://openapi.naver.com/v1", env), ProxySelection(url: "http://lower:1", variable: "https_proxy"))
        XCTAssertEqual(proxy("http://openapi.naver.com/v1", env), ProxySelection(url: "http://plain:3", variable: "HTTP_PROXY"))
        XCTAssertEqual(proxy("https://a.test/", ["HTTPS_PROXY": "http://upper:2"])?.variable, "HTTPS_PROXY")
        XCTAssertEqual(proxy("https://a.test/", ["ALL_PROXY": "socks5://s:1080"])?.variable, "ALL_PROXY")
        XCTAssertNil(proxy("https://a.test/", ["HTTPS_PROXY": "  "]), "an empty value is unset")
        XCTAssertNil(proxy("https://a.test/", [:]))
    }

    func testNoProxyExemptsHostsAndDomainSuffixes() {
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "openapi.naver.com", noProxy: "example.test, .naver.com"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "naver.com", noProxy: ".naver.com"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "anything", noProxy: "*"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "::1", noProxy: "[::1]"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "evilnaver.com", noProxy: "naver.com"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "127.0.0.1", noProxy: "localhost,,"))
        XCTAssertNil(proxy("http://127.0.0.1:8080/", ["http_proxy": "http://p:1", "NO_PROXY": "127.0.0.1"]))
        XCTAssertNil(proxy("https://OpenAPI.Naver.com./v1", ["https_proxy": "http://p:1", "no_proxy": "naver.com"]))
    }

    /// curl (7.86 on) reads address ranges in no_proxy; so must shopy, which chooses the proxy
    /// itself (seen: `NO_PROXY=127.0.0.0/8` still sent the emulator's search to the proxy).
    func testNoProxyAddressRangesCoverIPLiteralHosts() {
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "127.0.0.1", noProxy: "127.0.0.0/8"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "10.1.2.3", noProxy: "example.test, 10.0.0.0/8"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "192.168.5.77", noProxy: "192.168.4.0/23"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "192.168.6.1", noProxy: "192.168.4.0/23"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "8.8.8.8", noProxy: "0.0.0.0/0"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "10.0.0.5", noProxy: "10.0.0.5/32"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "10.0.0.6", noProxy: "10.0.0.5/32"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "::1", noProxy: "::1/128"))
        XCTAssertTrue(ProxyEnvironment.bypasses(host: "fd12:3456::1", noProxy: "fd00::/8"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "fe80::1", noProxy: "fd00::/8"))
        // A host name, another family, a bad prefix length or address: not covered.
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "openapi.naver.com", noProxy: "0.0.0.0/0"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "::1", noProxy: "0.0.0.0/0"))
        XCTAssertFalse(ProxyEnvironment.bypasses(host: "10.0.0.1", noProxy: "10.0.0.0/33, 10.0.0.0/, 10.0.0.0/x, 10.0.0/8, 10.0.0.0/-1"))
        XCTAssertNil(proxy("http://127.0.0.1:8080/", ["HTTP_PROXY": "http://p:1", "NO_PROXY": "127.0.0.0/8"]))
        XCTAssertNil(proxy("http://[::1]:8080/", ["HTTP_PROXY": "http://p:1", "NO_PROXY": "::1/128"]))
        XCTAssertNotNil(proxy("http://127.0.0.1:8080/", ["HTTP_PROXY": "http://p:1", "NO_PROXY": "10.0.0.0/8"]))
    }

    func testTheProxyIsNamedWithoutCredentials() {
        XCTAssertEqual(ProxySelection(url: "http://user:pa@ss@proxy.test:3128/path", variable: "x").displayName, "http://proxy.test:3128")
        XCTAssertEqual(ProxySelection(url: "proxy.test:3128", variable: "x").displayName, "proxy.test:3128")
        XCTAssertEqual(ProxySelection(url: "socks5h://u@[::1]:1080", variable: "x").displayName, "socks5h://[::1]:1080")
    }

    func testNewFailuresReadPlainlyAndMapToTheirExitCodes() {
        let client = NaverClient(base: URL(string: "https://openapi.naver.com")!, credentials: NaverCredentials(clientID: "a", clientSecret: "b"),
                                 transport: NoNetworkTransport())
        let body = client.mapTransport(.tooLarge(.body), timeout: 10)
        XCTAssertEqual(body.message, "the API's answer is larger than 16 MiB; shopy stopped reading it")
        XCTAssertEqual(ExitCode(for: body), .dataError)
        let headers = client.mapTransport(.tooLarge(.headers), timeout: 10)
        XCTAssertEqual(headers.message, "the API's answer has more than 64 KiB of header fields; shopy stopped reading it")
        XCTAssertEqual(ExitCode(for: headers), .dataError)
        let proxy = client.mapTransport(.proxy(proxy: "http://127.0.0.1:9", variable: "HTTPS_PROXY", reason: "connection refused"), timeout: 10)
        XCTAssertEqual(proxy.message, "cannot reach openapi.naver.com through the proxy http://127.0.0.1:9 (from HTTPS_PROXY): connection refused")
        XCTAssertEqual(proxy.hint, "check HTTPS_PROXY, or exempt the host in NO_PROXY")
        XCTAssertEqual(ExitCode(for: proxy), .unavailable)
        let missing = client.mapTransport(.unavailable(library: "libcurl.so.4", reason: "cannot open shared object file"), timeout: 10)
        XCTAssertEqual(missing.message, "networking needs libcurl (libcurl.so.4); install the libcurl4 package")
        XCTAssertNil(missing.hint)
        XCTAssertEqual(ExitCode(for: missing), .unavailable)
        let corrupt = client.mapTransport(.malformed("its content encoding is corrupt"), timeout: 10)
        XCTAssertEqual(ExitCode(for: corrupt), .dataError)
        XCTAssertEqual(ResponseLimit.maxBodyBytes, 16 * 1024 * 1024)
        XCTAssertEqual(ResponseLimit.maxHeaderBytes, 64 * 1024)
    }
}
