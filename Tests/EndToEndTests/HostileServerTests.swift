// Issue 8 against the built binary: a loopback server that answers whatever the test says (the
// emulator keeps to the contract, so it cannot send these). Each case used to end in a trap
// (exit 132) or in bad data being stored.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
import ShopYTestSupport

/// A one-thread HTTP/1.1 server on 127.0.0.1 (ephemeral port): reads a request's head, writes
/// `respond(path)` with `Connection: close`, closes. Enough for a handful of requests.
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let listener: LoopbackListener
    private let respond: @Sendable (String) -> (status: String, headers: [String], body: String)
    private let lock = NSLock()
    private var served = 0

    var requests: Int { lock.withLock { served } }
    var base: String { "http://127.0.0.1:\(port)" }

    init(_ respond: @escaping @Sendable (String) -> (status: String, headers: [String], body: String)) throws {
        self.respond = respond
        let listener = try LoopbackListener(backlog: 16)
        self.listener = listener
        port = listener.port
        Thread { [self] in self.loop() }.start()
    }

    private func loop() {
        while true {
            let connection = listener.accept()
            if connection < 0 { return }
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) && head.count < 65_536 {
                let n = read(connection, &buffer, buffer.count)
                if n <= 0 { break }
                head += buffer[0..<n]
            }
            let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
            let path = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            lock.withLock { served += 1 }
            let answer = respond(path)
            let body = Array(answer.body.utf8)
            var text = "HTTP/1.1 \(answer.status)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for header in answer.headers { text += header + "\r\n" }
            let bytes = Array((text + "\r\n").utf8) + body
            _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }

    func stop() { listener.close() }
}

final class HostileServerTests: XCTestCase {
    private var homes: [TestHome] = []

    override func tearDown() {
        homes.forEach { $0.remove() }
        super.tearDown()
    }

    /// A private SHOPY_HOME for one test, removed afterwards.
    func fresh() -> String {
        let home = TestHome()
        homes.append(home)
        return home.path
    }

    func environment(_ server: CannedServer) -> [String: String] {
        ["SHOPY_API_BASE": server.base, "NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret"]
    }

    static func answer(total: Int, start: Int, ids: [String]) -> String {
        let items = ids.map { id in
            "{\"title\":\"<b>후드티</b> \(id.count)\",\"link\":\"https://example.test/\",\"image\":\"\",\"lprice\":\"19800\",\"hprice\":\"\",\"mallName\":\"몰\",\"productId\":\"\(id)\",\"productType\":\"2\"}"
        }
        return "{\"lastBuildDate\":\"\",\"total\":\(total),\"start\":\(start),\"display\":\(ids.count),\"items\":[\(items.joined(separator: ","))]}"
    }

    func testAStartNearIntMaxIsBadDataNotACrash() throws {
        let server = try CannedServer { _ in ("200 OK", [], Self.answer(total: 9, start: Int.max, ids: ["81813683218"])) }
        defer { server.stop() }
        let home = fresh()
        for arguments in [["search", "후드티"], ["search", "후드티", "--format", "table"], ["rank", "후드티", "--product", "1", "--depth", "10"]] {
            let result = try runShopy(arguments, environment: environment(server), home: home)
            XCTAssertEqual(result.status, 65, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the API's answer is impossible: \"start\" is 9223372036854775807"), result.stderr)
        }
    }

    func testHugeRetryAfterGivesUpAtOnce() throws {
        let server = try CannedServer { _ in ("429 Too Many Requests", ["Retry-After: 99999999999999999999"], #"{"errorMessage":"Rate limit exceeded.","errorCode":"012"}"#) }
        defer { server.stop() }
        let result = try runShopy(["search", "후드티", "--timeout", "5"], environment: environment(server), home: fresh())
        XCTAssertEqual(result.status, 75, result.stderr)
        XCTAssertEqual(server.requests, 1)
        // The answer of giving up at once (a wait for the deadline would end in a timeout).
        XCTAssertTrue(result.stderr.contains("asked to wait 86400 s"), result.stderr)
    }

    func testNonNumericRetryAfterFallsBackToTheBackoff() throws {
        let server = try CannedServer { _ in ("429 Too Many Requests", ["Retry-After: 1e300"], #"{"errorMessage":"Rate limit exceeded.","errorCode":"012"}"#) }
        defer { server.stop() }
        let result = try runShopy(["search", "후드티", "--timeout", "8"], environment: environment(server), home: fresh())
        XCTAssertEqual(result.status, 75, result.stderr)
        XCTAssertEqual(server.requests, 4, "three retries on the backoff")
    }

    func testABlankProductIdNeverReachesTheLikes() throws {
        let server = try CannedServer { _ in ("200 OK", [], Self.answer(total: 2, start: 1, ids: [" ", "81813683218"])) }
        defer { server.stop() }
        let home = fresh()
        let search = try runShopy(["search", "후드티", "--verbose"], environment: environment(server), home: home)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stderr.contains("dropped 1 of 2 items without a usable productId"), search.stderr)
        let like = try runShopy(["like", "1"], environment: environment(server), home: home)
        XCTAssertEqual(like.status, 0, like.stderr)
        XCTAssertTrue(like.stderr.hasPrefix("shopy: liked: 81813683218"), like.stderr)
        for arguments in [["likes"], ["likes", "export"], ["unlike", "1"], ["likes", "clear", "--yes"]] {
            let result = try runShopy(arguments, environment: environment(server), home: home)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
    }
}
