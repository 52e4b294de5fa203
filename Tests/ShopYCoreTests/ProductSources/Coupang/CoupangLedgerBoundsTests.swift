import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// coupang.json stays readable whatever goes into it: the cache has a total bound, a cached
/// answer that does not parse is dropped, and times no shopy wrote cannot lock a key out.
final class CoupangLedgerBoundsTests: StoreDirectoryTestCase {
    let t0 = Date(timeIntervalSince1970: 1_796_117_405)

    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    func answer(_ name: String) -> [UInt8] {
        Array(#"{"rCode":"0","data":{"productData":[{"productId":1,"productName":"\#(name)"}]}}"#.utf8)
    }

    func parses(_ body: [UInt8]) -> Bool { (try? CoupangAnswer.items(body)) != nil }

    func testManyLargeAnswersKeepTheFileReadable() throws {
        let ledger = CoupangLedger(directory: directory)
        // Answers of about 900 KB (the review's case: 20 of them made a file of 18 MB), then
        // answers whose every byte is written as a six-byte escape.
        for i in 0..<8 {
            try ledger.remember(key: "k", request: "GET /s?\(i)", body: answer(String(repeating: "가", count: 300_000) + "\(i)"), at: at(Double(i)))
        }
        for i in 0..<2 {
            try ledger.remember(key: "k", request: "GET /e?\(i)", body: answer(String(repeating: "\u{7F}", count: 900_000)), at: at(Double(8 + i)))
        }
        for i in 8..<12 {
            try ledger.remember(key: "k", request: "GET /s?\(i)", body: answer(String(repeating: "가", count: 300_000) + "\(i)"), at: at(Double(i + 10)))
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: ledger.path)[.size] as? Int)
        XCTAssertLessThanOrEqual(size, CoupangLedger.maxCacheBytes + (64 << 10))
        XCTAssertLessThan(size, CoupangLedger.maxFileBytes / 2)
        let summary = try ledger.summary(now: at(100))
        XCTAssertGreaterThan(summary.cached, 1)
        // The newest answer is kept, the oldest went first.
        guard case .cached(let body) = try ledger.admit(key: "k", request: "GET /s?11", now: at(100), budget: 1000) else { return XCTFail("the newest answer is kept") }
        XCTAssertTrue(parses(body))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?0", now: at(100), budget: 1000), .send)
        // A file written by a shopy without the bound is brought under it at the next write.
        var state = CoupangLedger.State()
        for i in 0..<8 { state.cache.append(.init(key: "k", request: "GET /o?\(i)", at: at(Double(i)).timeIntervalSince1970, body: answer(String(repeating: "가", count: 300_000)))) }
        try Data(CoupangLedger.encode(state)).write(to: URL(fileURLWithPath: ledger.path))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /x", now: at(100), budget: 1000), .send)
        let after = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: ledger.path)[.size] as? Int)
        XCTAssertLessThanOrEqual(after, CoupangLedger.maxCacheBytes + (64 << 10))
    }

    func testACachedAnswerThatDoesNotParseIsDroppedAndCoupangAsked() throws {
        let ledger = CoupangLedger(directory: directory)
        let text = #"{"schema":1,"keys":[],"cache":[{"key":"k","request":"GET /s?q","at":\#(Int(t0.timeIntervalSince1970)),"body":"not json"}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: ledger.path))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(10), budget: 10, usable: parses), .send)
        XCTAssertFalse(try String(contentsOfFile: ledger.path, encoding: .utf8).contains("not json"), "dropped at that write")
        XCTAssertEqual(try ledger.usage(key: "k", now: at(10), budget: 10).sent, 1)
        // The client asks with the same test: a good answer kept afterwards is used.
        try ledger.remember(key: "k", request: "GET /s?q", body: answer("휴지"), at: at(11))
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /s?q", now: at(12), budget: 10, usable: parses), .cached(answer("휴지")))
    }

    func testFutureTimesAreBroughtBackToWhatShopyCouldHaveWritten() throws {
        let ledger = CoupangLedger(directory: directory)
        let text = #"{"schema":1,"keys":[{"key":"k","sent":[9999999999],"heldUntil":99999999999}],"cache":[]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: ledger.path))
        // The hold lasts at most 25 hours from now, the future request counts as sent now.
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /x", now: at(0), budget: 10), .held(until: at(CoupangLedger.maxHold)))
        XCTAssertEqual(try ledger.usage(key: "k", now: at(60), budget: 10).heldUntil, at(CoupangLedger.maxHold), "written clamped, not re-clamped later")
        XCTAssertEqual(try ledger.admit(key: "k", request: "GET /x", now: at(CoupangLedger.maxHold), budget: 1), .send)
        XCTAssertEqual(try ledger.usage(key: "k", now: at(CoupangLedger.maxHold), budget: 10).sent, 1, "the future request left the window")
        // A sent time in the future spends budget for an hour, not for centuries.
        try Data(#"{"schema":1,"keys":[{"key":"j","sent":[9999999999],"heldUntil":null}],"cache":[]}"#.utf8).write(to: URL(fileURLWithPath: ledger.path))
        XCTAssertEqual(try ledger.admit(key: "j", request: "GET /x", now: at(0), budget: 1), .spent(next: at(3600)))
        XCTAssertEqual(try ledger.admit(key: "j", request: "GET /x", now: at(3600), budget: 1), .send)
        // A Retry-After of years holds no longer than 25 hours either.
        try ledger.hold(key: "h", until: at(86_400_000), now: at(0))
        XCTAssertEqual(try ledger.usage(key: "h", now: at(1), budget: 10).heldUntil, at(CoupangLedger.maxHold))
    }
}
