import Foundation

/// Paces request starts across tasks: a turn every 1/rate seconds, and never more than the API's
/// throttle (10) in any window of `apiWindow` (1.1 s).
///
/// - `acquire()` waits for the next free turn and takes it: turns taken this way are at least
///   1/rate apart (a token bucket of one), so a scan never bursts past the API's limit.
/// - `acquire(catchingUp: true)` is for a request that was held back by something other than
///   the limiter (a scan's page waiting for the first answer's total). It may take, at once, a
///   turn that passed while nobody took it; so the pages held for the total go together when it
///   comes, and the scan ends where the rate alone would end it. Every request still takes a
///   turn of its own: by any time t after the first, at most 1 + t × rate have gone.
/// - Whatever the turns allow, no window of `apiWindow` holds more than `burst` starts (10: the
///   API's throttle, with room for the network's jitter; `rate` itself when it is higher). The
///   window is never longer than `burst` turns, so requests at the plain pace are never held by
///   it (at `--rate` 10 it is 1 s): it bounds only the requests catching up.
///
/// The rate is held to `rates` (what `--rate` accepts): a rate outside it, infinite or NaN cannot
/// make the interval overflow or the slot arithmetic trap; it is clamped (NaN: the default 8).
public actor RateLimiter {
    /// Requests a second `--rate` accepts.
    public static let rates: ClosedRange<Double> = 0.1...100
    /// The most starts in any `window`, at a rate up to 10 (the API throttles at about 10 a second).
    public static let apiThrottle = 10
    /// Longer than the API's second, so that arrivals bunched by the network stay under its limit.
    public static let apiWindow: Duration = .milliseconds(1100)

    private let interval: Duration
    private let burst: Int
    private let window: Duration
    private var next: ContinuousClock.Instant
    /// Turns that passed while nobody took them, for requests catching up (at most `burst` − 1).
    private var missed = 0
    /// The latest starts, oldest first (at most `burst`).
    private var recent: [ContinuousClock.Instant] = []
    private let clock: any TimerClock

    public init(perSecond rate: Double, clock: any TimerClock = SystemClock()) {
        let held = rate.isNaN ? 8 : min(max(rate, Self.rates.lowerBound), Self.rates.upperBound)
        let interval = Duration.nanoseconds(Int64((1_000_000_000 / held).rounded()))
        let burst = max(Self.apiThrottle, Int(held.rounded(.up)))
        // Never shorter than the window the turns alone fill, so that the plain pace is never
        // slowed: at 8 a second 10 turns take 1.25 s; at 10 a second the window is 1 s.
        self.init(interval: interval, burst: burst, window: min(Self.apiWindow, interval * burst), clock: clock)
    }

    /// Any spacing, burst and window (for tests: the API's window makes slow ones).
    init(interval: Duration, burst: Int, window: Duration, clock: any TimerClock = SystemClock()) {
        self.interval = interval
        self.burst = max(1, burst)
        self.window = window
        self.clock = clock
        next = clock.now
    }

    /// The spacing in use, for tests.
    public var spacing: Duration { interval }
    /// The window and the most starts it may hold, for tests.
    var windowInUse: Duration { window }
    var burstInUse: Int { burst }

    /// Waits for a turn and takes it; `catchingUp`: a turn that passed unused may be taken at once.
    /// Returns the start it was given.
    @discardableResult
    public func acquire(catchingUp: Bool = false) async -> ContinuousClock.Instant {
        let now = clock.now
        var slot: ContinuousClock.Instant
        if now >= next {
            // The turns from `next` up to now went by: this request takes one now, the others are
            // kept for requests catching up. After one catching up the turns keep their places;
            // after any other the next turn is a whole interval away (a token bucket of one).
            let passed = Int(((now - next) / interval).rounded(.down)) + 1
            missed = min(burst - 1, missed + passed - 1)
            slot = now
            next = catchingUp ? next + interval * passed : now + interval
        } else if catchingUp && missed > 0 {
            missed -= 1
            slot = now
        } else {
            slot = next
            next = slot + interval
        }
        let fitted = fitted(slot, now: now)
        if fitted > slot && next < fitted + interval { next = fitted + interval }
        slot = fitted
        recent.insert(slot, at: recent.firstIndex { $0 > slot } ?? recent.endIndex)
        if slot > now { try? await clock.sleep(until: slot) }
        return slot
    }

    /// The earliest start at or after `slot` that leaves no window holding more than `burst`
    /// starts: `burst` starts already within one window with it push it past the first of them.
    private func fitted(_ slot: ContinuousClock.Instant, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        // Starts a whole window before now share no window with this one (it is not before now).
        recent.removeAll { $0 + window <= now }
        var start = slot
        while recent.count >= burst {
            var past = start
            for i in 0...(recent.count - burst) {
                let first = recent[i], last = recent[i + burst - 1]
                if max(last, start) - min(first, start) < window { past = max(past, first + window) }
            }
            if past == start { break }
            start = past
        }
        return start
    }
}
