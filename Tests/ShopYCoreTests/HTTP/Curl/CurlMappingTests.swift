#if os(Linux)
import Foundation
import XCTest
@testable import ShopYCore
import ShopYTestSupport

/// How the libcurl transport names answers that do not parse: one raw loopback server a case.
final class CurlMappingTests: XCTestCase {
    private func outcome(_ answer: String) async throws -> Result<HTTPResponse, TransportError> {
        let server = try ScriptedHTTPServer { _, connection in
            connection.send(answer)
            return false
        }
        defer { server.stop() }
        do {
            return .success(try await CurlTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + "/x")!), deadline: .now + .seconds(5)))
        } catch {
            return .failure(error)
        }
    }

    private func malformed(_ result: Result<HTTPResponse, TransportError>, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .failure(.malformed(let reason)) = result else { return XCTFail("\(result)", file: file, line: line) }
        XCTAssertTrue(reason.contains(words), reason, file: file, line: line)
    }

    func testOneHugeHeaderLineIsTheHeaderCap() async throws {
        let result = try await outcome("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(result.failure, .tooLarge(.headers))
        XCTAssertEqual(TransportError.tooLarge(.headers).plainWords, "more than 64 KiB of header fields")
    }

    func testAStatusLineThatDoesNotParseIsMalformed() async throws {
        malformed(try await outcome("HTTP/1.1 abc\r\nContent-Length: 2\r\n\r\n{}"), "status line")
        malformed(try await outcome("{\"total\":1}\n"), "status line")  // HTTP/0.9
    }

    func testAContentLengthThatIsNotOneNumberIsMalformed() async throws {
        malformed(try await outcome("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}"), "Content-Length")
        malformed(try await outcome("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x"), "Content-Length")
    }

    func testAnEncodingShopyCannotDecodeIsNamed() async throws {
        malformed(try await outcome("HTTP/1.1 200 OK\r\nContent-Encoding: x-unknown\r\nContent-Length: 2\r\n\r\n{}"), "content encoding")
        malformed(try await outcome("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 2\r\n\r\n{}"), "content encoding 'br'")
    }

    func testTheTraceUsesPlainWords() {
        XCTAssertEqual(TransportError.proxy(proxy: "http://p:1", variable: "HTTPS_PROXY", reason: "cannot connect").plainWords,
                       "the proxy http://p:1 (from HTTPS_PROXY) cannot be used: cannot connect")
        XCTAssertEqual(TransportError.other("no route to the host").plainWords, "no route to the host")
    }
}

private extension Result {
    var failure: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}
#endif
