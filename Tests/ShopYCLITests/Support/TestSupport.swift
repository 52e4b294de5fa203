// Helpers shared by the command line's tests: sockets, fakes and runners used by more than one file.

import Foundation
import XCTest
@testable import ShopYCore
import ShopYTestSupport
import ShopYCoreTestSupport
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

/// A DataLab that answers each keyword with one September point: "huge" at 100 and every other
/// keyword then at 0 (50 when no "huge" is asked for), so "huge" cannot share a scale with them.
struct HugeKeywordDataLab: HTTPTransport {
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        let body = try! JSONParser.parse(request.body ?? [])
        let names = body["keyword"]!.arrayValue!.map { $0["name"]!.stringValue! }
        let results = names.map { name -> String in
            let ratio = name == "huge" ? "100" : (names.contains("huge") ? "0" : "50")
            return "{\"title\":\"\(name)\",\"keyword\":[\"\(name)\"],\"data\":[{\"period\":\"2026-09-01\",\"ratio\":\(ratio)}]}"
        }
        return HTTPResponse(status: 200, body: Array("{\"results\":[\(results.joined(separator: ","))]}".utf8))
    }
}

enum PictureFixtures {
    /// Skips the test, with the reason, when `library` cannot be loaded on this machine.
    static func require(_ library: PictureLibrary) throws {
        if let failure = library.load(environment: ProcessInfo.processInfo.environment) {
            throw XCTSkip("\(failure.reason); \(failure.hint ?? "")")
        }
    }
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
