// How libcurl's TLS failures become causes (Sources/ShopYCore/HTTP/TLSFailure.swift), with
// curl's words as OpenSSL and GnuTLS builds write them, and the trust anchors SSL_CERT_FILE and
// SSL_CERT_DIR name (TrustedCertificates.swift). End to end: EndToEndTests/TLSFailureTests.

import Foundation
import XCTest
#if os(Linux)
import CShopYShim
#endif
@testable import ShopYCore

final class TLSFailureClassificationTests: XCTestCase {
    func testCurlsWordsBecomeCauses() {
        let cases: [(Int32, String?, TLSFailure)] = [
            (60, "SSL certificate problem: self-signed certificate", .untrusted("self-signed certificate")),
            (60, "SSL certificate problem: unable to get local issuer certificate", .untrusted("unable to get local issuer certificate")),
            (60, "SSL certificate problem: certificate has expired", .expired),
            (60, "SSL certificate problem: certificate is not yet valid", .notYetValid),
            (60, "SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .wrongHost),
            (60, "SSL: certificate subject name 'a.example' does not match target host name 'b.example'", .wrongHost),
            (60, "server certificate verification failed. CAfile: /etc/ssl/certs/ca-certificates.crt CRLfile: none", .untrusted("server certificate verification failed. CAfile: /etc/ssl/certs/ca-certificates.crt CRLfile: none")),
            (60, "SSL certificate problem: certificate revoked", .revoked),
            (77, "error setting certificate file: /nonexistent", .trustStoreUnreadable("error setting certificate file: /nonexistent")),
            (35, "error:0A00010B:SSL routines::wrong version number", .notTLS),
            (35, "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to x:443", .handshake("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to x:443")),
            (58, nil, .handshake(nil)),
        ]
        for (code, detail, expected) in cases {
            XCTAssertEqual(TLSFailure.fromCurl(code: code, detail: detail), expected, "\(code) \(detail ?? "nil")")
        }
    }

    func testEveryCauseReadsAsOneLineWithAHintWhereThereIsOne() {
        let all: [TLSFailure] = [.untrusted("x"), .untrusted(nil), .expired, .notYetValid, .revoked, .wrongHost, .trustStoreUnreadable("y"), .notTLS, .handshake("z\u{1B}[2J")]
        for failure in all {
            let message = SourceError.unreachable(host: "h", reason: .tls(failure)).message
            XCTAssertTrue(message.hasPrefix("the secure connection to h failed: "), message)
            XCTAssertFalse(message.contains("\u{1B}") || message.contains("\n"), message)
            if failure != .revoked { XCTAssertNotNil(SourceError.unreachable(host: "h", reason: .tls(failure)).hint) }
        }
        XCTAssertTrue(DataLabError.unreachable(host: "h", reason: .tls(.notTLS)).hint?.contains("SHOPY_DATALAB_BASE") ?? false)
        XCTAssertTrue(SourceError.unreachable(host: "h", reason: .tls(.wrongHost)).hint?.contains("SHOPY_API_BASE") ?? false)
    }

    func testSSLCertFileAndDirAreTheTrustAnchors() {
        XCTAssertEqual(TrustedCertificates.fromEnvironment { ["SSL_CERT_FILE": "/a.pem", "SSL_CERT_DIR": ""][$0] }, TrustedCertificates(file: "/a.pem"))
        XCTAssertEqual(TrustedCertificates.fromEnvironment { ["SSL_CERT_DIR": "/certs"][$0] }, TrustedCertificates(directory: "/certs"))
        XCTAssertEqual(TrustedCertificates.fromEnvironment { _ in nil }, TrustedCertificates())
        #if os(Linux)
        let options = CurlTransfer.options(for: HTTPRequest(url: URL(string: "https://x.example/")!), timeoutMilliseconds: 1000, proxy: nil,
                                           trusted: TrustedCertificates(file: "/a.pem", directory: "/certs"))
        XCTAssertTrue(options.contains(.text(CSHOPY_CURLOPT_CAINFO, "/a.pem")))
        XCTAssertTrue(options.contains(.text(curlOptCAPath, "/certs")))
        XCTAssertTrue(options.contains(.long(CSHOPY_CURLOPT_SSL_VERIFYPEER, 1)), "verification stays on")
        let none = CurlTransfer.options(for: HTTPRequest(url: URL(string: "https://x.example/")!), timeoutMilliseconds: 1000, proxy: nil)
        XCTAssertFalse(none.contains { $0.option == CSHOPY_CURLOPT_CAINFO || $0.option == curlOptCAPath }, "the system's store by default")
        #endif
    }
}
