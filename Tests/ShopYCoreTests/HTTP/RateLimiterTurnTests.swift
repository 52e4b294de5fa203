// Tests for Sources/ShopYCore/HTTP/RateLimiter.swift: turns at the rate, turns that passed unused
// taken at once only by requests catching up, and never more than the burst in a window. The
// limiter runs on a test clock: time passes when the test advances it, and the starts it gives
// are checked to the millisecond.

import Foundation
import XCTest
@testable import ShopYCore
import ShopYCoreTestSupport

final class RateLimiterTurnTests: XCTestCase {
    let interval = Duration.milliseconds(50)

    /// Every window of `window` holds at most `burst` of the starts.
    func assertWindows(_ starts: [ContinuousClock.Instant], burst: Int, window: Duration, file: StaticString = #filePath, line: UInt = #line) {
        let sorted = starts.sorted()
        for i in sorted.indices where i + burst < sorted.count {
            XCTAssertGreaterThanOrEqual(sorted[i + burst] - sorted[i], window, "start \(i + burst) shares a window with \(burst) others", file: file, line: line)
        }
    }

    /// The k-th start (in time) is at least k turns after the first: none goes before a turn of its own.
    func assertTurns(_ starts: [ContinuousClock.Instant], file: StaticString = #filePath, line: UInt = #line) {
        let sorted = starts.sorted()
        for (k, start) in sorted.enumerated() {
            XCTAssertGreaterThanOrEqual(start - sorted[0], interval * k, "start \(k) came before its turn", file: file, line: line)
        }
    }

    /// Milliseconds of each start after `origin`.
    func offsets(_ starts: [ContinuousClock.Instant], from origin: ContinuousClock.Instant) -> [Int64] {
        starts.map { start in
            let offset = start - origin
            return offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000
        }
    }

    func testRequestsCatchingUpTakeThePassedTurnsAtOnceAndNoMore() async {
        let clock = TestClock()
        let limiter = RateLimiter(interval: interval, burst: 100, window: .milliseconds(300), clock: clock)
        let first = await limiter.acquire()
        XCTAssertEqual(first, clock.start, "the first turn is now")
        // Four turns pass (50, 100, 150, 200 ms) while the pages wait for something else.
        clock.advance(by: .milliseconds(220))
        var starts = [first]
        for _ in 0..<4 { starts.append(await limiter.acquire(catchingUp: true)) }
        XCTAssertEqual(clock.sleeps, [], "the four passed turns are taken at once (none waits)")
        async let fifth = limiter.acquire(catchingUp: true)
        await clock.sleeping()
        clock.advance(to: clock.nextDeadline ?? clock.now)
        starts.append(await fifth)
        XCTAssertEqual(offsets(starts, from: first), [0, 220, 220, 220, 220, 250], "the fifth waits for a turn of its own (250 ms)")
        XCTAssertEqual(clock.sleeps, [.milliseconds(30)])
        assertTurns(starts)
    }

    func testARequestNotCatchingUpNeverTakesAPassedTurnButTheOneNow() async {
        let clock = TestClock()
        let limiter = RateLimiter(interval: interval, burst: 100, window: .milliseconds(300), clock: clock)
        let first = await limiter.acquire()
        clock.advance(by: .milliseconds(220))
        let current = await limiter.acquire()
        async let following = limiter.acquire()
        await clock.sleeping()
        clock.advance(to: clock.nextDeadline ?? clock.now)
        let second = await following
        XCTAssertEqual(second - current, interval, "a turn apart, as a token bucket of one")
        // The passed turns are still there for a request catching up: it goes while the next
        // one not catching up waits for its turn.
        async let waiting = limiter.acquire()
        await clock.sleeping()
        let catching = await limiter.acquire(catchingUp: true)
        XCTAssertEqual(catching, clock.now, "it goes at once")
        clock.advance(to: clock.nextDeadline ?? clock.now)
        let third = await waiting
        XCTAssertEqual(offsets([first, current, second, third, catching], from: first), [0, 220, 270, 320, 270])
        XCTAssertLessThan(catching, third, "it goes ahead of the turn the other waits for")
        assertTurns([first, current, second, third, catching])
    }

    func testNoWindowHoldsMoreThanTheBurstWhateverTheTurnsAllow() async {
        let window = Duration.milliseconds(300)
        let clock = TestClock()
        let limiter = RateLimiter(interval: interval, burst: 4, window: window, clock: clock)
        let first = await limiter.acquire()
        clock.advance(by: .milliseconds(420))  // 8 turns pass; at most 3 are kept
        // Eight pages catching up, and two retries among them (the 5th and the 10th), all at
        // 420 ms: each arrives once the one before has its start (taken, or parked on the clock).
        let given = Starts()
        var waiting: [Task<ContinuousClock.Instant, Never>] = []
        for i in 0..<10 {
            waiting.append(Task {
                let start = await limiter.acquire(catchingUp: i % 5 != 4)
                given.add()
                return start
            })
            await settle { given.count + clock.sleepers == i + 1 }
        }
        XCTAssertEqual(clock.elapsed, .milliseconds(420), "every start was given at 420 ms")
        clock.advance(by: .seconds(10))
        var starts = [first]
        for task in waiting { starts.append(await task.value) }
        assertWindows(starts, burst: 4, window: window)
        assertTurns(starts)
        // A burst of 4 (the window's limit) right away; the retry next in line goes when the
        // window lets it (720 ms), and each later start a turn after the one before or when
        // the window has room (1020 ms).
        XCTAssertEqual(offsets(starts, from: first), [0, 420, 420, 420, 420, 720, 770, 820, 870, 1020, 1070])
    }

    /// The window is never shorter than the turns fill by themselves, so the plain pace is never
    /// held by it: 10 turns at 8 a second take 1.25 s (the window stays 1.1 s); at 10 or 50 a
    /// second the window is what 10 or 50 turns take (1 s).
    func testTheWindowNeverSlowsThePlainPace() async {
        for (rate, window) in [(8.0, Duration.milliseconds(1100)), (10, .seconds(1)), (50, .seconds(1)), (0.5, .milliseconds(1100))] {
            let limiter = RateLimiter(perSecond: rate)
            let (spacing, used, burst) = await (limiter.spacing, limiter.windowInUse, limiter.burstInUse)
            XCTAssertEqual(used, window, "at \(rate) a second")
            XCTAssertLessThanOrEqual(used, spacing * burst, "\(burst) turns at \(rate) a second fill the window by themselves")
        }
    }

    func testTheAPIThrottleBoundsTheDefaultLimiter() async {
        let limiter = RateLimiter(perSecond: 8)
        let spacing = await limiter.spacing
        XCTAssertEqual(spacing, .milliseconds(125))
        XCTAssertEqual(RateLimiter.apiThrottle, 10)
        XCTAssertGreaterThan(RateLimiter.apiWindow, .seconds(1), "longer than the API's second")
    }

    func testRateLimiterNeverTraps() async {
        for rate in [1e-10, 0, -5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e300] {
            let limiter = RateLimiter(perSecond: rate)
            let spacing = await limiter.spacing
            XCTAssertGreaterThanOrEqual(spacing, .milliseconds(10), "\(rate)")
            XCTAssertLessThanOrEqual(spacing, .seconds(10), "\(rate)")
            await limiter.acquire()  // the first slot is free: no wait
        }
        let nan = await RateLimiter(perSecond: .nan).spacing
        XCTAssertEqual(nan, .milliseconds(125), "NaN falls back to the default 8 a second")
    }
}

/// How many acquisitions have returned.
private final class Starts: @unchecked Sendable {
    private let lock = NSLock()
    private var returned = 0
    func add() { lock.withLock { returned += 1 } }
    var count: Int { lock.withLock { returned } }
}
