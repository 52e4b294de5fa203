// Tests for Sources/ShopYCore/Services/ScanPacer.swift: a page held for the first answer's total
// keeps its turn at the rate limiter, so the pages whose turns passed meanwhile go as soon as the
// total is known, and no page ever goes before its turn. On a test clock: the instants are exact.

import Foundation
import XCTest
@testable import ShopYCore
import ShopYCoreTestSupport

final class ScanPacerTurnTests: XCTestCase {
    /// Five pages at 10 a second (turns at 0, 100, 200, 300, 400 ms); the total comes at 350 ms.
    func testPagesHeldForTheTotalGoWhenItComesAndNoneBeforeItsTurn() async {
        let clock = TestClock()
        let pacer = ScanPacer(perSecond: 10, clock: clock)
        let first = await pacer.admit(start: 1)
        XCTAssertTrue(first)
        XCTAssertEqual(clock.sleeps, [], "the first page goes at once")
        // The next four, queued as the scan queues them, wait for the first answer's total.
        let admitted = Admitted()
        var pages: [Task<Void, Never>] = []
        for start in [101, 201, 301, 401] {
            pages.append(Task { admitted.add(await pacer.admit(start: start), at: clock.elapsed) })
        }
        await settle { pacer.waitingForTotal == 4 }
        XCTAssertEqual(admitted.count, 0, "no page goes before the total is known")
        clock.advance(to: clock.start + .milliseconds(350))
        pacer.learn(total: 1000)
        // Three turns (100, 200, 300 ms) passed while the pages waited: three go with the total,
        // not a turn after it each (350, 450, 550 ms: the last 200 ms late).
        await settle { admitted.count == 3 && clock.sleepers == 1 }
        XCTAssertEqual(admitted.times, [.milliseconds(350), .milliseconds(350), .milliseconds(350)])
        // The fourth waits for a turn of its own: none goes before its turn.
        XCTAssertEqual(clock.nextDeadline, clock.start + .milliseconds(400))
        clock.advance(to: clock.start + .milliseconds(400))
        for page in pages { await page.value }
        XCTAssertEqual(admitted.answers, [true, true, true, true])
        XCTAssertEqual(admitted.times, [.milliseconds(350), .milliseconds(350), .milliseconds(350), .milliseconds(400)])
        XCTAssertEqual(pacer.sent, 5)
    }

    /// A page past the total is refused after its turn, and is not counted.
    func testAPagePastTheTotalIsRefusedAndNotCounted() async {
        let clock = TestClock()
        let pacer = ScanPacer(perSecond: 100, clock: clock)
        let first = await pacer.admit(start: 1)
        async let past = pacer.admit(start: 101)
        await settle { pacer.waitingForTotal == 1 }
        clock.advance(by: .milliseconds(30))
        pacer.learn(total: 40)
        let sent = await past
        XCTAssertTrue(first)
        XCTAssertFalse(sent, "101 starts past a total of 40")
        XCTAssertEqual(pacer.sent, 1)
    }
}

/// What each held page was told, and when (virtual time), in the order they returned.
private final class Admitted: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(ok: Bool, at: Duration)] = []
    func add(_ ok: Bool, at time: Duration) { lock.withLock { entries.append((ok, time)) } }
    var count: Int { lock.withLock { entries.count } }
    var answers: [Bool] { lock.withLock { entries.map(\.ok) } }
    var times: [Duration] { lock.withLock { entries.map(\.at).sorted() } }
}
