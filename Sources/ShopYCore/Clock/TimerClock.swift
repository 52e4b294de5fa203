/// The time waits and deadlines are measured in: the rate limiter's turns, the retries' backoff,
/// a request's overall deadline, the hold for a network path. Injected (`IO.clock`, from the
/// composition root) so that tests move it by hand instead of sleeping.
///
/// Monotonic, not the calendar: `IO.now` is the date written into files and shown; this clock
/// only orders instants and waits for them. Its instants are `ContinuousClock.Instant`, the
/// type the transports' deadlines already are, so one deadline serves both.
public protocol TimerClock: Sendable {
    var now: ContinuousClock.Instant { get }
    /// Returns at `deadline` (at once if it has passed); throws `CancellationError` when the
    /// task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension TimerClock {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration))
    }

    /// `now` plus `seconds` (a `--timeout`), to the millisecond.
    public func deadline(after seconds: Double) -> ContinuousClock.Instant {
        now.advanced(by: .milliseconds(Int64(seconds * 1000)))
    }
}

/// The machine's monotonic clock: what every command runs on.
public struct SystemClock: TimerClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }
}
