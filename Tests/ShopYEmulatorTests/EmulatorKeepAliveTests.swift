import Foundation
import XCTest
@testable import ShopYEmulator
import ShopYCore
import ShopYBase
import ShopYTestSupport

/// The emulator's connection handling: HTTP/1.1 keep-alive, pipelined requests answered in
/// order, request bodies read by Content-Length, and the connection count in the stats.
final class EmulatorKeepAliveTests: XCTestCase {
    private func startServer() throws -> EmulatorServer {
        let server = EmulatorServer(config: EmulatorConfig())
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func head(_ method: String, _ target: String, _ extra: [String] = []) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        text += "X-Naver-Client-Id: emulator-id\r\nX-Naver-Client-Secret: emulator-secret\r\n"
        for line in extra { text += line + "\r\n" }
        return text + "\r\n"
    }

    /// The status codes of every answer in `bytes`, in order.
    private func statuses(_ bytes: [UInt8]) -> [Int] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    /// A TLS ClientHello (a client given https:// for this plain-HTTP port) holds no blank
    /// line: it is answered at once with a 400 and the connection closed, as nginx answers it,
    /// not held until the read timeout (the client then names "not TLS" at once).
    func testATLSHandshakeOrOtherNonHTTPIsRefusedAtOnce() throws {
        let server = try startServer()
        // The first bytes of a ClientHello: a handshake record of TLS 1.0 framing, no CR or LF.
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + [UInt8](repeating: 0x42, count: 64)
        let answer = RawHTTPResponse.exchange(port: server.port, request: hello, timeout: 5)
        XCTAssertTrue(answer.closedByPeer, "the connection must be ended, not held: \(answer.bytes.count) bytes")
        XCTAssertEqual(answer.status, 400)
        XCTAssertEqual(answer.json?["errorMessage"]?.stringValue, "Bad request: a TLS handshake on a plain-HTTP port (use http://)")
        let binary = RawHTTPResponse.exchange(port: server.port, request: [0x00, 0x01, 0x02], timeout: 5)
        XCTAssertEqual(binary.status, 400)
        XCTAssertEqual(binary.json?["errorMessage"]?.stringValue, "Bad request: not an HTTP request line")
    }

    func testPipelinedRequestsShareOneConnectionUntilClose() throws {
        let server = try startServer()
        let search = "/v1/search/shop.json?query=%EB%B0%A9%EC%B6%A9%EB%A7%9D&display=2"
        let request = head("GET", search) + head("GET", search) + head("GET", "/_emulator/stats", ["Connection: close"])
        let response = RawHTTPResponse.exchange(port: server.port, request: Array(request.utf8), timeout: 5)
        XCTAssertTrue(response.closedByPeer, "Connection: close must end the connection")
        XCTAssertEqual(statuses(response.bytes), [200, 200, 200])
        let text = String(decoding: response.bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "Connection: keep-alive\r\n").count - 1, 2)
        XCTAssertTrue(text.contains("Connection: close\r\n"))
        // The last answer is the stats, read on the same connection: one connection, two searches.
        let stats = try XCTUnwrap(JSONParser.parse(Array(text[text.range(of: "\r\n\r\n", options: .backwards)!.upperBound...].utf8)))
        XCTAssertEqual(stats["connections"]?.intValue, 1)
        XCTAssertEqual(stats["requests"]?.intValue, 2)
    }

    func testConnectionsAreCountedOncePerAccept() throws {
        let server = try startServer()
        for _ in 0..<3 {
            _ = RawHTTPResponse.exchange(port: server.port, request: Array(head("GET", "/_emulator/stats", ["Connection: close"]).utf8), timeout: 5)
        }
        let last = RawHTTPResponse.exchange(port: server.port, request: Array(head("GET", "/_emulator/stats", ["Connection: close"]).utf8), timeout: 5)
        XCTAssertEqual(last.json?["connections"]?.intValue, 4)
    }

    func testPostBodyIsReadByContentLengthAndTheNextRequestFollows() throws {
        let server = try startServer()
        let body = #"{"startDate":"2026-01-01","endDate":"2026-11-30","timeUnit":"month"}"#
        let request = head("POST", "/v1/search/shop.json", ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"]) + body
            + head("GET", "/_emulator/stats", ["Connection: close"])
        let response = RawHTTPResponse.exchange(port: server.port, request: Array(request.utf8), timeout: 5)
        // The search API answers GET only; what matters is that the body did not leak into the
        // next request, which parses and is answered.
        XCTAssertEqual(statuses(response.bytes), [405, 200])
        XCTAssertTrue(response.closedByPeer)
    }

    func testOversizedOrChunkedRequestBodiesAreRefusedAndClosed() throws {
        let server = try startServer()
        let big = RawHTTPResponse.exchange(port: server.port, request: Array(head("POST", "/v1/search/shop.json", ["Content-Length: 2000000"]).utf8), timeout: 5)
        XCTAssertEqual(big.status, 413)
        XCTAssertTrue(big.closedByPeer)
        let chunked = RawHTTPResponse.exchange(port: server.port,
                                               request: Array((head("POST", "/v1/search/shop.json", ["Transfer-Encoding: chunked"]) + "3\r\nabc\r\n0\r\n\r\n").utf8), timeout: 5)
        XCTAssertEqual(chunked.status, 411)
        XCTAssertTrue(chunked.closedByPeer)
    }

    func testFaultedAnswersCloseEvenOnKeepAlive() throws {
        let server = EmulatorServer(config: { var c = EmulatorConfig(); c.fault = .truncated; return c }())
        try server.start()
        addTeardownBlock { server.stop() }
        let search = "/v1/search/shop.json?query=%EB%B0%A9%EC%B6%A9%EB%A7%9D"
        let response = RawHTTPResponse.exchange(port: server.port, request: Array((head("GET", search) + head("GET", search)).utf8), timeout: 5)
        XCTAssertTrue(response.closedByPeer)
        XCTAssertEqual(statuses(response.bytes), [200], "a truncated answer must end the connection, not serve the next request")
    }

    func testHTTP10ClosesUnlessAskedToKeepAlive() throws {
        let server = try startServer()
        let request = "GET /_emulator/stats HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
        let response = RawHTTPResponse.exchange(port: server.port, request: Array(request.utf8), timeout: 5)
        XCTAssertTrue(response.closedByPeer)
        XCTAssertEqual(response.headers["connection"], "close")
    }
}
