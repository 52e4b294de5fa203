import Foundation

/// Paces a scan's requests and counts those that leave: every request takes a turn at the rate
/// limiter. A page after the first waits for the first answer (its `total`) before it asks for
/// its turn, and is admitted only when it starts within the total known then: no page past
/// `total` is ever sent, however many were queued.
///
/// A page that waited for the total may take a turn that passed meanwhile (the limiter's catching
/// up): when the total comes, the pages held for it go together, and the scan ends where the rate
/// alone would end it, not one round trip later. No request goes before a turn of its own (by any
/// time t after the first, at most 1 + t × rate have gone), and no window of 1.1 s holds more than
/// the API's 10, retries included. A retry waits for a turn like any request; turns passed while
/// pages waited are not its to wait behind.
package final class ScanPacer: Sendable {
    private let limiter: RateLimiter
    private let counter = RequestCounter()
    private let gate = TotalGate()
    /// Waits when the network path is down (up to the timeout); then the request queues again.
    private let holdForPath: (@Sendable () async -> Bool)?

    /// - Parameters:
    ///   - clock: what the limiter's turns are timed by (the context's).
    ///   - holdForPath: returns true when it held the request (the path was down), so that it
    ///     queues at the limiter again.
    package init(perSecond rate: Double, clock: any TimerClock = SystemClock(), holdForPath: (@Sendable () async -> Bool)? = nil) {
        self.limiter = RateLimiter(perSecond: rate, clock: clock)
        self.holdForPath = holdForPath
    }

    /// Requests that went to the server.
    package var sent: Int { counter.count }

    /// Pages waiting for the first answer's total (for tests, which hold them there).
    var waitingForTotal: Int { gate.waiting }

    /// The total an answer reported: pages starting past it are not sent (totals only shrink).
    package func learn(total: Int) { gate.lower(to: total) }

    /// For the source's client: each attempt the scan did not admit itself waits for the limiter.
    package var beforeRequest: @Sendable () async -> Void {
        { [self] in
            if let admitted = ScanPacer.admitted, admitted.take() { return }
            await pace()
            if !Task.isCancelled { counter.add() }
        }
    }

    /// Waits for the turn of a page starting at `start`, then (after the first page) for the
    /// total, then checks the gate: true (and counted) when the page may go; false when it would
    /// start past the known total.
    package func admit(start: Int) async -> Bool {
        let held = start > 1 ? await gate.waitUntilKnown() : false
        await limiter.acquire(catchingUp: held)
        // After the limiter's wait, so that a page does not go out into a path that dropped
        // meanwhile; after a wait for the path, it queues again.
        if let holdForPath, await holdForPath() { await limiter.acquire() }
        guard !Task.isCancelled, gate.allows(start) else { return false }
        counter.add()
        return true
    }

    /// Runs one admitted request: its first attempt does not queue at the limiter again.
    package func sendAdmitted<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await ScanPacer.$admitted.withValue(Admission()) { try await body() }
    }

    private func pace() async {
        await limiter.acquire()
        // Checked after the limiter's wait, so that requests queued there do not go out into a
        // path that dropped meanwhile; after a wait for the path, queue again.
        if let holdForPath, await holdForPath() { await limiter.acquire() }
    }

    /// The admission a request's first attempt carries (task-local: the client's gate sees it).
    @TaskLocal static var admitted: Admission?

    final class Admission: Sendable {
        private let lock = NSLock()
        private nonisolated(unsafe) var unused = true

        /// True once: the first attempt was admitted by the scan.
        func take() -> Bool {
            lock.withLock {
                defer { unused = false }
                return unused
            }
        }
    }

    /// The smallest total reported so far; pages after the first wait until one is.
    final class TotalGate: Sendable {
        private let lock = NSLock()
        private nonisolated(unsafe) var total: Int?
        private nonisolated(unsafe) var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        private nonisolated(unsafe) var nextWaiter = 0

        func lower(to value: Int) {
            let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
                total = min(total ?? .max, max(0, value))
                defer { waiters = [:] }
                return waiters.sorted { $0.key < $1.key }.map(\.value)  // in the order they came
            }
            for waiter in waiting { waiter.resume() }
        }

        func allows(_ start: Int) -> Bool { lock.withLock { start == 1 || start <= (total ?? .max) } }

        var waiting: Int { lock.withLock { waiters.count } }

        /// Returns once an answer has told the total, or when the task is cancelled: true when
        /// it had to wait (the total was not known yet).
        @discardableResult
        func waitUntilKnown() async -> Bool {
            let id: Int? = lock.withLock {
                guard total == nil else { return nil }
                nextWaiter += 1
                return nextWaiter
            }
            guard let id else { return false }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    let now: Bool = lock.withLock {
                        if total != nil || Task.isCancelled { return true }
                        waiters[id] = waiter
                        return false
                    }
                    if now { waiter.resume() }
                }
            } onCancel: {
                let waiter = lock.withLock { waiters.removeValue(forKey: id) }
                waiter?.resume()
            }
            return true
        }
    }
}
