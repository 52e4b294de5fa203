// Tests for Sources/ShopYCore/HTTP/TransportFailure.swift and SourceError's words: when libcurl
// cannot be used, the line says why — not installed, or installed but unusable (too old, a
// missing symbol), or SHOPY_LIBCURL's file is not a libcurl.

import XCTest
@testable import ShopYCore

final class LibCurlUnavailableMessageTests: XCTestCase {
    func message(_ library: String, _ reason: String) -> String {
        let failure: SourceError = TransportError.unavailable(library: library, reason: reason).mapped(host: "openapi.naver.com", port: 443, timeout: 10)
        return failure.message
    }

    func testADefaultLibraryThatIsNotInstalledAsksForThePackage() {
        XCTAssertEqual(message("libcurl.so.4", "libcurl.so.4: cannot open shared object file: No such file or directory"),
                       "networking needs libcurl (libcurl.so.4); install the libcurl4 package")
    }

    func testADefaultLibraryThatCannotBeUsedSaysWhy() {
        let line = message("libcurl.so.4", "/lib/x86_64-linux-gnu/libcurl.so.4: undefined symbol: curl_multi_poll")
        XCTAssertEqual(line, "networking needs libcurl, and libcurl.so.4 cannot be used (/lib/x86_64-linux-gnu/libcurl.so.4: undefined symbol: curl_multi_poll); install a current libcurl4 package")
        XCTAssertTrue(message("libcurl.so.4", "it refused options 20011").contains("(it refused options 20011)"))
    }

    func testAnotherLibraryNamedBySHOPY_LIBCURLGivesTheLoadersWords() {
        XCTAssertEqual(message("/opt/x/libz.so", "/opt/x/libz.so: undefined symbol: curl_easy_init"),
                       "networking needs libcurl, and the SHOPY_LIBCURL library cannot be used: /opt/x/libz.so: undefined symbol: curl_easy_init")
    }

    func testTheLoadersWordsAreSanitized() {
        XCTAssertFalse(message("libcurl.so.4", "bad\u{1B}[31m symbol").contains("\u{1B}"))
    }

    func testDataLabSaysTheSame() {
        let failure: DataLabError = TransportError.unavailable(library: "libcurl.so.4", reason: "undefined symbol: x").mapped(host: "openapi.naver.com", port: 443, timeout: 10)
        XCTAssertEqual(failure.message, "networking needs libcurl, and libcurl.so.4 cannot be used (undefined symbol: x); install a current libcurl4 package")
    }

    func testDNSFailureHasAHint() {
        let error = SourceError.unreachable(host: "api.example.invalid", reason: .dns)
        XCTAssertTrue(error.hint?.contains("DNS") ?? false)
        XCTAssertTrue(error.hint?.contains("SHOPY_API_BASE") ?? false)
        XCTAssertNil(SourceError.unreachable(host: "x", reason: .noAnswer).hint)
    }
}
