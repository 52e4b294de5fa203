#if os(Linux)
import Foundation
import XCTest
@testable import ShopYCore

/// The libcurl transport in process, against scripted servers that misbehave on purpose: the
/// deadline, the caps, gzip, cancellation, POST and redirects. (Reuse of connections, against the
/// built emulator: EndToEndTests/CurlConnectionTests.)
final class CurlTransportTests: XCTestCase {
    let transport = CurlTransport.shared

    static let fixtures = transportFixtures

    private func send(_ url: String, method: HTTPRequest.Method = .get, headers: [(String, String)] = [], body: [UInt8]? = nil,
                      within seconds: Double = 5) async -> (Result<HTTPResponse, TransportError>, Double) {
        await Self.send(url, method: method, headers: headers, body: body, within: seconds)
    }

    private static func send(_ url: String, method: HTTPRequest.Method = .get, headers: [(String, String)] = [], body: [UInt8]? = nil,
                             within seconds: Double = 5) async -> (Result<HTTPResponse, TransportError>, Double) {
        let clock = ContinuousClock(), transport = CurlTransport.shared
        let start = clock.now
        let request = HTTPRequest(method: method, url: URL(string: url)!, headers: headers, body: body)
        let result: Result<HTTPResponse, TransportError>
        do {
            result = .success(try await transport.send(request, deadline: start.advanced(by: .milliseconds(Int64(seconds * 1000)))))
        } catch {
            result = .failure(error)
        }
        let elapsed = start.duration(to: clock.now)
        return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func failure(_ result: Result<HTTPResponse, TransportError>, file: StaticString = #filePath, line: UInt = #line) -> TransportError? {
        if case .failure(let error) = result { return error }
        XCTFail("expected a failure, got \(result)", file: file, line: line)
        return nil
    }

    // MARK: - The deadline

    // How close to the deadline a transfer stops is measured by `shopy-bench deadlines`; here,
    // that it stops at the deadline and not at the server's pace: the client hangs up while the
    // server is still sending or waiting (for 8 or 10 s), never before the deadline.

    func testABodyTricklingPastTheDeadlineStopsOnTime() async throws {
        let hungUp = Locked(false)
        let server = try ScriptedHTTPServer { _, connection in
            guard connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n") else { return false }
            // A byte every 20 ms for 8 s, unless the client hangs up first.
            for _ in 0..<400 {
                guard connection.send("x"), !connection.waitForPeerClose(within: 0.02) else {
                    hungUp.set(true)
                    return false
                }
            }
            return false
        }
        defer { server.stop() }
        let (result, seconds) = await send(server.baseURL + "/slow", within: 0.8)
        XCTAssertEqual(failure(result), .timeout)
        XCTAssertGreaterThanOrEqual(seconds, 0.8)
        XCTAssertTrue(eventually { hungUp.get() }, "the client hung up while the body still trickled in")
    }

    func testHeadersThenAStallStopsOnTime() async throws {
        let hungUp = Locked(false)
        let server = try ScriptedHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n")
            hungUp.set(connection.waitForPeerClose(within: 10))
            return false
        }
        defer { server.stop() }
        let (result, seconds) = await send(server.baseURL + "/stall", within: 0.6)
        XCTAssertEqual(failure(result), .timeout)
        XCTAssertGreaterThanOrEqual(seconds, 0.6)
        XCTAssertTrue(eventually { hungUp.get() }, "the client hung up before the server's 10 s wait ended")
    }

    func testMillisecondDeadlinesAreNotRoundedToSeconds() async throws {
        // The milliseconds reach libcurl (CURLOPT_TIMEOUT_MS: CurlOptionsTests); here, a silent
        // server is given up on at a 0.25 s deadline, not before it.
        let hungUp = Locked(false)
        let server = try ScriptedHTTPServer { _, connection in
            hungUp.set(connection.waitForPeerClose(within: 10))
            return false
        }
        defer { server.stop() }
        let (result, seconds) = await send(server.baseURL + "/silent", within: 0.25)
        XCTAssertEqual(failure(result), .timeout)
        XCTAssertGreaterThanOrEqual(seconds, 0.25)
        XCTAssertTrue(eventually { hungUp.get() }, "the client hung up before the server's 10 s wait ended")
    }

    // MARK: - Caps

    func testAnAnnouncedBodyOver16MiBStopsWithoutReadingIt() async throws {
        let sent = Locked(-1)
        let server = try ScriptedHTTPServer { _, connection in
            guard connection.send("HTTP/1.1 200 OK\r\nContent-Length: \(20 << 20)\r\n\r\n") else { return false }
            let block = [UInt8](repeating: 0x41, count: 64 * 1024)
            var blocks = 0
            while blocks < 320 && connection.send(block) { blocks += 1 }
            sent.set(blocks)
            return false
        }
        defer { server.stop() }
        let (result, _) = await send(server.baseURL + "/big")
        XCTAssertEqual(failure(result), .tooLarge(.body))
        XCTAssertTrue(eventually { sent.get() >= 0 })
        XCTAssertLessThan(sent.get(), 256, "the client hung up before 16 MiB of the body were even sent: it read none of it")
    }

    func testAnEndlessChunkedBodyStopsAt16MiB() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            guard connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") else { return false }
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x42, count: 0x10000) + Array("\r\n".utf8)
            while connection.send(chunk) {}
            return false
        }
        defer { server.stop() }
        // Not stopped, it would run into the deadline (a timeout, not tooLarge).
        let (result, _) = await send(server.baseURL + "/endless", within: 30)
        XCTAssertEqual(failure(result), .tooLarge(.body))
    }

    func testAGzipBombStopsAt16MiBDecoded() async throws {
        let bomb = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("zeros-20MiB.gz")))
        XCTAssertLessThan(bomb.count, 64 * 1024, "20 MiB of zeros, compressed")
        let server = try ScriptedHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n")
            connection.send(bomb)
            return false
        }
        defer { server.stop() }
        let (result, _) = await send(server.baseURL + "/bomb", within: 30)
        XCTAssertEqual(failure(result), .tooLarge(.body))
    }

    func testAFloodOfHeadersStopsAt64KiB() async throws {
        let server = try ScriptedHTTPServer { _, connection in
            guard connection.send("HTTP/1.1 200 OK\r\n") else { return false }
            let line = Array("X-Filler: 0123456789abcdef\r\n".utf8)
            var block: [UInt8] = []
            for _ in 0..<1000 { block += line }
            for _ in 0..<100 where connection.send(block) {}  // 100,000 header fields
            connection.send("Content-Length: 0\r\n\r\n")
            return false
        }
        defer { server.stop() }
        // Not capped, the 100,000 fields would be read and the answer succeed.
        let (result, _) = await send(server.baseURL + "/headers", within: 30)
        XCTAssertEqual(failure(result), .tooLarge(.headers))
    }

    // MARK: - Encoding, methods, redirects

    func testAGzipBodyIsAskedForAndDecoded() async throws {
        let gzipped = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("search-one-item.json.gz")))
        let server = try ScriptedHTTPServer { request, connection in
            guard request.header("Accept-Encoding")?.contains("gzip") == true else {
                connection.send("HTTP/1.1 406 Not Acceptable\r\nContent-Length: 0\r\n\r\n")
                return false
            }
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n")
            connection.send(gzipped)
            return true
        }
        defer { server.stop() }
        let (result, _) = await send(server.baseURL + "/v1/search/shop.json?query=x")
        let response = try result.get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-encoding"], "gzip")
        let parsed = try WireSearchResponse(body: response.body)
        XCTAssertEqual(parsed.items.first?.productId, "84255824823")
    }

    func testPostSendsItsBodyAndHeadersWithoutExpect() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            let answer = "{\"got\":\(request.body.count)}"
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: \(answer.utf8.count)\r\n\r\n" + answer)
            return true
        }
        defer { server.stop() }
        var body = Array(#"{"startDate":"2026-01-01","keyword":"방충망"}"#.utf8)
        body += [UInt8](repeating: 0x20, count: 3000)  // over curl's Expect: 100-continue threshold
        let (result, _) = await send(server.baseURL + "/v1/datalab/shopping/categories", method: .post,
                                     headers: [("Content-Type", "application/json"), ("X-Naver-Client-Id", "id")], body: body)
        XCTAssertEqual(try result.get().status, 200)
        let request = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.body, body)
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(request.header("X-Naver-Client-Id"), "id")
        XCTAssertNil(request.header("Expect"), "no Expect: 100-continue, so no one-second wait for a 100 Continue")
    }

    func testRedirectsAreAnsweredNotFollowed() async throws {
        let server = try ScriptedHTTPServer { request, connection in
            if request.head.hasPrefix("GET /elsewhere") { XCTFail("the redirect was followed") }
            connection.send("HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
            return true
        }
        defer { server.stop() }
        let (result, _) = await send(server.baseURL + "/start")
        let response = try result.get()
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "/elsewhere")
        XCTAssertEqual(server.requests.count, 1)
    }

    // MARK: - Failures in plain categories

    func testAClosedPortIsRefused() async throws {
        let (result, _) = await send("http://127.0.0.1:\(try closedPort())/")
        XCTAssertEqual(failure(result), .refused)
    }

    func testACutBodyIsTruncatedAndAClosedConnectionIsNoAnswer() async throws {
        let cut = try ScriptedHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + String(repeating: "y", count: 40))
            return false
        }
        defer { cut.stop() }
        let (truncated, _) = await send(cut.baseURL + "/")
        XCTAssertEqual(failure(truncated), .truncated(received: 40, expected: 100))

        let silent = try ScriptedHTTPServer { _, _ in false }
        defer { silent.stop() }
        let (nothing, _) = await send(silent.baseURL + "/")
        XCTAssertEqual(failure(nothing), .noAnswer)
    }

    func testAnUntrustedCertificateIsRefused() async throws {
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else { throw XCTSkip("needs \(openssl) to serve TLS on loopback") }
        let directory = TestHome.shared.path + "/tls-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = try ChildProcess.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem",
                                            "-out", directory + "/cert.pem", "-subj", "/CN=127.0.0.1", "-days", "1",
                                            "-addext", "subjectAltName=IP:127.0.0.1"], timeout: 30)
        guard made.status == 0 else { throw XCTSkip("openssl cannot make a certificate here: \(made.stderr)") }
        let port = try closedPort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: openssl)
        server.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory + "/cert.pem", "-key", directory + "/key.pem", "-www"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // s_server may outlive a SIGTERM; it must not outlive the test.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // It says ACCEPT once it listens.
        guard ChildProcess.firstLine(of: output, where: { $0.hasPrefix("ACCEPT") }) != nil else { throw XCTSkip("openssl s_server did not start here") }
        let (result, _) = await send("https://127.0.0.1:\(port)/")
        guard case .tls(.untrusted)? = failure(result) else {
            return XCTFail("a self-signed certificate must be refused as not trusted: verification is always on; \(result)")
        }
    }

    // MARK: - Cancellation

    /// How soon after the cancel the transfer ends is measured by `shopy-bench deadlines`.
    func testCancellingTheTaskAbortsTheTransfer() async throws {
        let arrived = DispatchSemaphore(value: 0), closed = DispatchSemaphore(value: 0)
        let server = try ScriptedHTTPServer { _, connection in
            arrived.signal()
            if connection.waitForPeerClose(within: 10) { closed.signal() }
            return false
        }
        defer { server.stop() }
        let url = server.baseURL + "/never"
        let task = Task { () -> Result<HTTPResponse, TransportError> in await CurlTransportTests.send(url, within: 30).0 }
        let inFlight = await signalled(arrived, within: 10)
        XCTAssertTrue(inFlight, "the request is in flight")
        XCTAssertEqual(server.requests.count, 1)
        task.cancel()
        let result = await task.value
        XCTAssertEqual(failure(result), .cancelled)
        // Aborted, not abandoned: the server sees the connection closed long before its 10 s.
        let sawClose = await signalled(closed, within: 10)
        XCTAssertTrue(sawClose, "the server should see the connection closed")
    }

    private func closedPort() throws -> Int {
        let server = try ScriptedHTTPServer { _, _ in false }
        let port = server.port
        server.stop()  // the listening socket is closed when it returns
        return port
    }
}

#endif
@testable import ShopYBase
import ShopYTestSupport
