// Tests for Sources/ShopYCore/Services/ScanPacer.swift: a page held for the first answer's total
// keeps its turn at the rate limiter, so the pages whose turns passed meanwhile go as soon as the
// total is known, and no page ever goes before its turn.

import Foundation
import XCTest
@testable import ShopYCore

final class ScanPacerTurnTests: XCTestCase {
    /// Five pages at 10 a second (turns at 0, 100, 200, 300, 400 ms); the total comes at 350 ms.
    func testPagesHeldForTheTotalGoWhenItComesAndNoneBeforeItsTurn() async throws {
        let pacer = ScanPacer(perSecond: 10)
        let clock = ContinuousClock()
        let started = clock.now
        func admitted(_ start: Int) async -> (Bool, Duration) {
            let ok = await pacer.admit(start: start)
            return (ok, started.duration(to: clock.now))
        }
        // Queued in start order, as the scan queues them.
        let first = await admitted(1)
        async let second = admitted(101)
        try await Task.sleep(for: .milliseconds(5))
        async let third = admitted(201)
        try await Task.sleep(for: .milliseconds(5))
        async let fourth = admitted(301)
        try await Task.sleep(for: .milliseconds(5))
        async let fifth = admitted(401)
        try await Task.sleep(until: started + .milliseconds(350), clock: clock)
        let learnt = started.duration(to: clock.now)
        pacer.learn(total: 1000)
        let held = await [second, third, fourth]
        let last = await fifth

        XCTAssertTrue(first.0)
        XCTAssertLessThan(first.1, .milliseconds(100), "the first page goes at once")
        for (i, page) in held.enumerated() {
            XCTAssertTrue(page.0)
            XCTAssertGreaterThanOrEqual(page.1, learnt, "page \(i + 2) waited for the total")
            // Its turn (100, 200, 300 ms) passed while it waited: it goes with the total, not a
            // turn after it each (350, 450, 550 ms: the last would be 200 ms late).
            XCTAssertLessThan(page.1, learnt + .milliseconds(150), "page \(i + 2) went when the total came")
        }
        XCTAssertTrue(last.0)
        XCTAssertGreaterThanOrEqual(last.1, .milliseconds(399), "no page goes before its turn (400 ms)")
        XCTAssertEqual(pacer.sent, 5)
    }

    /// A page past the total is refused after its turn, and is not counted.
    func testAPagePastTheTotalIsRefusedAndNotCounted() async throws {
        let pacer = ScanPacer(perSecond: 100)
        let first = await pacer.admit(start: 1)
        async let past = pacer.admit(start: 101)
        try await Task.sleep(for: .milliseconds(30))
        pacer.learn(total: 40)
        let sent = await past
        XCTAssertTrue(first)
        XCTAssertFalse(sent, "101 starts past a total of 40")
        XCTAssertEqual(pacer.sent, 1)
    }
}
