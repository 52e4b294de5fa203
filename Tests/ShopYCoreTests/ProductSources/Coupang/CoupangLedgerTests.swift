import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// coupang.json: the budget over a rolling hour, the 429 hold, and the 60-minute cache.
final class CoupangLedgerTests: StoreDirectoryTestCase {
    let t0 = Date(timeIntervalSince1970: 1_796_117_405)

    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    func testTheBudgetIsARollingHour() throws {
        let ledger = CoupangLedger(directory: directory)
        for i in 0..<3 { XCTAssertEqual(try ledger.admit(key: "k", request: "GET /a?\(i)", now: at(Double(i) * 60), budget: 3), .send) }
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /a?x", now: at(600), budget: 3), .spent(next: at(3600)))
        XCTAssertEqual(try ledger.admit(key: "other", request: "GET /a?x", now: at(600), budget: 3), .send, "per key")
        XCTAssertEqual(try ledger.usage(key: "k", now: at(600), budget: 3).sent, 3)
        // The first request leaves the window after an hour.
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /a?x", now: at(3601), budget: 3), .send)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /a?y", now: at(3602), budget: 3), .spent(next: at(3660)))
    }

    /// Two requests with one key in one second (two shopy processes asking the same at once)
    /// would carry one signature, which the gateway refuses as a replay: the second is given the
    /// next second to be signed with, and a third the one after; another key is not held back.
    func testOneRequestOfAKeyASecond() throws {
        let ledger = CoupangLedger(directory: directory)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(10.2), budget: 10), .send)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(10.7), budget: 10), .sendLater(signedAt: at(11)))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?r", now: at(10.9), budget: 10), .sendLater(signedAt: at(12)))
        XCTAssertEqual(try ledger.admit(key: "other", request: "GET /s?q", now: at(10.9), budget: 10), .send)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(11.5), budget: 10), .sendLater(signedAt: at(13)), "the reserved seconds are kept")
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(20), budget: 10), .send)
        XCTAssertEqual(try ledger.usage(key: "k", now: at(20), budget: 10).sent, 5, "each is counted")
    }

    func testTheCacheAnswersForAnHourAndNoLonger() throws {
        let ledger = CoupangLedger(directory: directory)
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(0), budget: 1), .send)
        try ledger.remember(key: "k", request: "GET /s?q", body: Array(#"{"rCode":"0"}"#.utf8), at: at(1))
        // Answered from the cache although the budget is spent; another key's request is not.
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(3000), budget: 1), .cached(Array(#"{"rCode":"0"}"#.utf8)))
        XCTAssertEqual(try ledger.admit(key: "k2", request: "GET /s?q", now: at(3000), budget: 1), .send)
        // Past 60 minutes it is gone (and the budget is free again).
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(3601), budget: 1), .send)
        // An answer dated in the future (a clock set back) is not used.
        try ledger.remember(key: "k", request: "GET /f", body: Array("{}".utf8), at: at(10_000))
        XCTAssertNotEqual(try ledger.admit(key: "k", request: "GET /f", now: at(3700), budget: 100), .cached(Array("{}".utf8)))
    }

    func testAHoldKeepsEveryRequestBack() throws {
        let ledger = CoupangLedger(directory: directory)
        try ledger.hold(key: "k", until: at(3600), now: at(0))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /x", now: at(10), budget: 10), .held(until: at(3600)))
        XCTAssertEqual(try ledger.usage(key: "k", now: at(10), budget: 10).heldUntil, at(3600))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /x", now: at(3600), budget: 10), .send)
    }

    func testTheFileNeverHoldsAKeyAndDamageIsRefused() throws {
        let ledger = CoupangLedger(directory: directory)
        let credentials = CoupangCredentials(accessKey: "access-key-1234", secretKey: "secret-key-5678")
        let key = try CoupangLedger.keyHash(credentials)
        XCTAssertEqual(key.count, 64)
        _ = try ledger.admit(key: key, request: "GET /x", now: at(0), budget: 10)
        let text = try String(contentsOfFile: ledger.path, encoding: .utf8)
        XCTAssertFalse(text.contains("access-key-1234") || text.contains("secret-key-5678"), text)
        XCTAssertEqual(FileIO.mode(of: ledger.path), 0o600)

        try Data("{\"schema\":1,\"keys\":[{\"key\":\"k\",\"sent\":[\"x\"]}],\"cache\":[]}".utf8).write(to: URL(fileURLWithPath: ledger.path))
        XCTAssertThrowsError(try ledger.admit(key: "k", request: "GET /x", now: at(0), budget: 10)) { error in
            guard case .damaged? = error as? CoupangLedgerError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try String(contentsOfFile: ledger.path, encoding: .utf8), "{\"schema\":1,\"keys\":[{\"key\":\"k\",\"sent\":[\"x\"]}],\"cache\":[]}",
                       "a damaged file is left as it was")
        try Data("{\"schema\":2,\"keys\":[],\"cache\":[]}".utf8).write(to: URL(fileURLWithPath: ledger.path))
        XCTAssertThrowsError(try ledger.usage(key: "k", now: at(0), budget: 10))
    }

    func testTheCacheIsBounded() throws {
        let ledger = CoupangLedger(directory: directory)
        for i in 0..<70 { try ledger.remember(key: "k", request: "GET /\(i)", body: Array("{}".utf8), at: at(Double(i))) }
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /0", now: at(200), budget: 1000), .send, "the oldest left")
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /69", now: at(200), budget: 1000), .cached(Array("{}".utf8)))
        try ledger.remember(key: "k", request: "GET /big", body: [UInt8](repeating: 0x20, count: 2 << 20), at: at(201))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /big", now: at(202), budget: 1000), .send, "an answer over 1 MiB is not kept")
    }
}
