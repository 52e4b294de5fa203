import Foundation
import ShopYCore

/// A `TimerClock` for tests: virtual time that moves only when the test moves it, so a test of a
/// timer asserts the exact instants the code chose instead of sleeping and bounding wall-clock
/// time.
///
/// - `advance(by:)` / `advance(to:)` move it and resume, in deadline order, every sleeper whose
///   deadline has come. `waitForSleepers(n)` (`sleeping(n)` in a test) returns once n sleepers
///   are parked: the test advances only when the code under test has reached its wait.
/// - `TestClock(immediate: true)`: a sleep moves the clock to its deadline at once and returns
///   (for code driven from deep inside a command, where nobody advances by hand).
///
/// Every wait is recorded in `sleeps` (its length from the instant it began); a cancelled one
/// is counted in `cancelled`.
public final class TestClock: TimerClock, @unchecked Sendable {
    public typealias Instant = ContinuousClock.Instant

    /// Where virtual time began.
    public let start: Instant
    private let immediate: Bool
    private let lock = NSLock()
    private var current: Instant
    private var parked: [Sleeper] = []
    private var nextID = 0
    private var recorded: [Duration] = []
    private var cancellations = 0
    private var watchers: [Watcher] = []

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private final class Watcher: @unchecked Sendable {  // its continuation is touched under the clock's lock
        let count: Int
        var continuation: CheckedContinuation<Bool, Never>?
        init(count: Int, continuation: CheckedContinuation<Bool, Never>) {
            self.count = count
            self.continuation = continuation
        }
    }

    public init(immediate: Bool = false) {
        start = .now
        current = start
        self.immediate = immediate
    }

    public var now: Instant { lock.withLock { current } }
    /// Virtual time since `start`.
    public var elapsed: Duration { now - start }
    /// The length of each wait, in the order they began.
    public var sleeps: [Duration] { lock.withLock { recorded } }
    /// Waits that ended by cancellation.
    public var cancelled: Int { lock.withLock { cancellations } }
    /// Sleepers parked now.
    public var sleepers: Int { lock.withLock { parked.count } }
    /// The earliest deadline of the parked sleepers.
    public var nextDeadline: Instant? { lock.withLock { parked.map(\.deadline).min() } }

    public func sleep(until deadline: Instant) async throws {
        try Task.checkCancellation()
        let id: Int? = lock.withLock {
            guard deadline > current else { return nil }
            recorded.append(deadline - current)
            if immediate {
                current = deadline
                return nil
            }
            nextID += 1
            return nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (refused, ready): (Bool, [CheckedContinuation<Bool, Never>]) = lock.withLock {
                    if Task.isCancelled {
                        cancellations += 1
                        return (true, [])
                    }
                    parked.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, readyWatchers())
                }
                if refused { continuation.resume(throwing: CancellationError()) }
                for watcher in ready { watcher.resume(returning: true) }
            }
        } onCancel: {
            let removed: Sleeper? = lock.withLock {
                guard let index = parked.firstIndex(where: { $0.id == id }) else { return nil }
                cancellations += 1
                return parked.remove(at: index)
            }
            removed?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `duration` on (see `advance(to:)`).
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves the clock to `instant` (never back) and resumes the sleepers whose deadline has
    /// come, earliest first.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = lock.withLock {
            current = max(current, instant)
            let due = parked.filter { $0.deadline <= current }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            parked.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleepers are parked: true; false if the code under test
    /// never gets there within `patience` seconds of real time, rather than hang. (The test
    /// targets' `sleeping(_:)` fails the test then.)
    public func waitForSleepers(_ count: Int = 1, patience: Double = 20) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let watcher: Watcher? = lock.withLock {
                guard parked.count < count else { return nil }
                let watcher = Watcher(count: count, continuation: continuation)
                watchers.append(watcher)
                return watcher
            }
            guard let watcher else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [self] in
                let late: CheckedContinuation<Bool, Never>? = lock.withLock {
                    defer { watcher.continuation = nil }
                    return watcher.continuation
                }
                late?.resume(returning: false)
            }
        }
    }

    /// The watchers whose count is reached (called with the lock held), taken out.
    private func readyWatchers() -> [CheckedContinuation<Bool, Never>] {
        var ready: [CheckedContinuation<Bool, Never>] = []
        watchers.removeAll { watcher in
            guard let continuation = watcher.continuation else { return true }
            guard parked.count >= watcher.count else { return false }
            watcher.continuation = nil
            ready.append(continuation)
            return true
        }
        return ready
    }
}
