// Helpers the core's tests share: a socket listening on loopback, a store directory of its own
// per test, a transport that must never be used, a launcher that records, the transport
// fixtures, a scratch directory, a tracer's text and the trends' "today". (ShopYCLITests/Support/TestSupport.swift has the command line's own.)

import Foundation
import XCTest
import ShopYTestSupport
import ShopYCoreTestSupport
@testable import ShopYCore
@testable import ShopYBase

extension XCTestCase {
    /// A TCP socket listening on an ephemeral loopback port (ShopYTestSupport's listener).
    func listeningSocket() throws -> (Int32, Int) {
        do {
            let listener = try LoopbackListener(backlog: 8)
            return (listener.fd, listener.port)
        } catch {
            throw XCTSkip("\(error)")
        }
    }
}

/// A test case with a fresh store directory of its own (removed afterwards) and a way to make
/// a like, for the store's file-level tests.
class StoreDirectoryTestCase: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-store-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func like(_ id: String) -> Like {
        Like(product: Product(productId: id, title: "상품", price: 1000, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000)
    }
}

/// A transport that must never be used: the tests here run offline.
struct NoNetworkTransport: HTTPTransport {
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        XCTFail("unexpected network request to \(request.url)")
        throw .refused
    }
}

/// Fixtures/transport: bodies and servers for the transport's tests.
let transportFixtures = Repository.fixtures().appendingPathComponent("transport")

/// A private scratch directory for this test process.
final class TestHome: @unchecked Sendable {
    static let shared = TestHome()
    let path: String

    init() {
        path = NSTemporaryDirectory() + "shopy-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
}

/// Text a Tracer wrote, from any thread.
final class TraceText: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// The trends tests' fixed "today".
enum TrendsFixture {
    /// 2026-12-01 12:00 in Korea.
    static let now = Date(timeIntervalSince1970: Double(CalendarDate("2026-12-01")!.dayNumber * 86_400 + 3 * 3600))
}

extension TestClock {
    /// Returns once at least `count` sleepers are parked. Fails the test (and returns) if the
    /// code under test never gets there within `patience` seconds of real time, rather than hang.
    func sleeping(_ count: Int = 1, patience: Double = 20, file: StaticString = #filePath, line: UInt = #line) async {
        if await !waitForSleepers(count, patience: patience) {
            XCTFail("\(count) sleeper(s) expected on the test clock; \(sleepers) came", file: file, line: line)
        }
    }
}

/// Lets other tasks run until `condition` holds: for a state the code under test reaches
/// without touching the clock (a page parked at a gate). Fails the test instead of hanging.
func settle(patience: Double = 20, file: StaticString = #filePath, line: UInt = #line, until condition: () -> Bool) async {
    let giveUp = ContinuousClock.now + .milliseconds(Int64(patience * 1000))
    while !condition() {
        if ContinuousClock.now > giveUp { return XCTFail("the condition never held", file: file, line: line) }
        await Task.yield()
    }
}
