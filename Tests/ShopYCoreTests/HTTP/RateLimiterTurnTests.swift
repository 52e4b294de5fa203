// Tests for Sources/ShopYCore/HTTP/RateLimiter.swift: turns at the rate, turns that passed unused
// taken at once only by requests catching up, and never more than the burst in a window. The
// checks are on the starts the limiter gave (what it decided), so the machine's load cannot make
// them pass or fail; only the scenario is timed.

import Foundation
import XCTest
@testable import ShopYCore

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
            XCTAssertGreaterThanOrEqual(start - sorted[0], interval * k - .microseconds(1), "start \(k) came before its turn", file: file, line: line)
        }
    }

    func testRequestsCatchingUpTakeThePassedTurnsAtOnceAndNoMore() async throws {
        let limiter = RateLimiter(interval: interval, burst: 100, window: .milliseconds(300))
        let first = await limiter.acquire()
        // Four turns pass (50, 100, 150, 200 ms) while three pages wait for something else.
        try await Task.sleep(for: .milliseconds(220))
        var starts = [first]
        for _ in 0..<5 { starts.append(await limiter.acquire(catchingUp: true)) }
        let resumed = starts[1]
        for start in starts[2...4] {
            XCTAssertLessThan(start - resumed, .milliseconds(20), "the four passed turns are taken at once (none waits a turn)")
        }
        XCTAssertGreaterThanOrEqual(starts[5] - first, interval * 5, "the fifth waits for a turn of its own (250 ms)")
        XCTAssertGreaterThan(starts[5], resumed, "it does not go at once")
        assertTurns(starts)
    }

    func testARequestNotCatchingUpNeverTakesAPassedTurnButTheOneNow() async throws {
        let limiter = RateLimiter(interval: interval, burst: 100, window: .milliseconds(300))
        let first = await limiter.acquire()
        try await Task.sleep(for: .milliseconds(220))
        var starts = [first]
        for _ in 0..<2 { starts.append(await limiter.acquire()) }
        XCTAssertGreaterThanOrEqual(starts[2] - starts[1], interval, "a turn apart, as a token bucket of one")
        // The passed turns are still there for a request catching up: it goes while the next
        // one not catching up waits for its turn.
        async let waiting = limiter.acquire()
        try await Task.sleep(for: .milliseconds(5))
        let catching = await limiter.acquire(catchingUp: true)
        let third = await waiting
        XCTAssertGreaterThanOrEqual(third - starts[2], interval)
        XCTAssertLessThan(catching, third, "it goes ahead of the turn the other waits for")
        assertTurns(starts + [third, catching])
    }

    func testNoWindowHoldsMoreThanTheBurstWhateverTheTurnsAllow() async throws {
        let window = Duration.milliseconds(300)
        let limiter = RateLimiter(interval: interval, burst: 4, window: window)
        let first = await limiter.acquire()
        try await Task.sleep(for: .milliseconds(420))  // 8 turns pass; at most 3 are kept
        var starts = [first]
        // Eight pages catching up, and two retries among them, all at once.
        await withTaskGroup(of: ContinuousClock.Instant.self) { group in
            for i in 0..<10 { group.addTask { await limiter.acquire(catchingUp: i % 5 != 4) } }
            for await start in group { starts.append(start) }
        }
        assertWindows(starts, burst: 4, window: window)
        assertTurns(starts)
        let resumed = starts[1...].min()!
        XCTAssertEqual(starts[1...].filter { $0 - resumed < .milliseconds(20) }.count, 4, "a burst of 4 (the window's limit) right away")
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
