// Tests for Sources/ShopYCore/Services/ScanPacer.swift: a page held for the first answer's total
// keeps its turn at the rate limiter, so the pages whose turns passed meanwhile go as soon as the
// total is known, and no page ever goes before its turn.

import Foundation
import XCTest
@testable import ShopYCore

final class ScanPacerTurnTests: XCTestCase {
    /// Five pages at 10 a second (turns at 0, 100, 200, 300 ms, then 450 ms); the total comes at 350 ms.
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
        let pages = await [second, third, fourth, fifth]

        XCTAssertTrue(first.0)
        XCTAssertLessThan(first.1, .milliseconds(100), "the first page goes at once")
        XCTAssertTrue(pages.allSatisfy(\.0))
        // Which held page takes which turn is the scheduler's; the turns are what count.
        let times = pages.map(\.1).sorted()
        for (i, time) in times.enumerated() {
            XCTAssertGreaterThanOrEqual(time, learnt, "every page waited for the total")
            if i < 3 {
                // Three turns (100, 200, 300 ms) passed while the pages waited: three go with the
                // total, not a turn after it each (350, 450, 550 ms: the last 200 ms late).
                XCTAssertLessThan(time, learnt + .milliseconds(150), "page \(i + 1) of the held went when the total came")
            }
        }
        XCTAssertGreaterThanOrEqual(times[3], .milliseconds(399), "the fourth held page waits for a turn of its own (450 ms): none goes before its turn")
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
