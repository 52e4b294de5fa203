import Foundation

/// Spaces request starts at least 1/rate seconds apart, across tasks: a token bucket of one,
/// so that a scan never bursts past the API's per-second limit (about 10 a second).
///
/// The rate is held to `rates` (what `--rate` accepts): a rate outside it, infinite or NaN cannot
/// make the interval overflow or the slot arithmetic trap; it is clamped (NaN: the default 8).
public actor RateLimiter {
    /// Requests a second `--rate` accepts.
    public static let rates: ClosedRange<Double> = 0.1...100

    private let interval: Duration
    private var next: ContinuousClock.Instant
    private let clock = ContinuousClock()

    public init(perSecond rate: Double) {
        let held = rate.isNaN ? 8 : min(max(rate, Self.rates.lowerBound), Self.rates.upperBound)
        interval = .nanoseconds(Int64((1_000_000_000 / held).rounded()))
        next = ContinuousClock.now
    }

    /// The spacing in use, for tests.
    public var spacing: Duration { interval }

    /// Waits for the next free slot and takes it.
    public func acquire() async {
        let now = clock.now
        let slot = max(now, next)
        next = slot + interval
        if slot > now { try? await Task.sleep(until: slot, clock: clock) }
    }
}
