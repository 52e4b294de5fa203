import Foundation

/// Tells a long-running command (a scan over many pages, such as the coming `shopy rank`) when
/// the network path drops or returns, so that it can say so in one line instead of failing
/// request after request in silence, and pause until the path is back.
///
/// Only transitions are reported (satisfied → unsatisfied and back), never the initial state
/// nor changes that leave the path usable (a second interface appearing).
///
///     let watcher = PathWatcher(monitor: monitor, onChange: { event in diagnostics.notice(TerminalText(sanitizing: PathWatcher.describe(event))) })
///     watcher.start()
///     defer { watcher.stop() }
///     for page in pages {
///         if !watcher.isSatisfied {
///             guard await watcher.waitUntilSatisfied(timeout: 60) else { throw NetworkError.offline(…) }
///         }
///         …fetch the page…
///     }
///
/// `onChange` gets each event; `describe` gives its line (`network lost: no interface with a
/// default route`, `network back: ethernet eth0`), which rank reports as a notice.
public final class PathWatcher: @unchecked Sendable {
    public enum Event: Sendable, Equatable {
        /// The path became unsatisfied; the status says why.
        case lost(PathStatus)
        /// The path is satisfied again, through the interfaces it names.
        case restored(PathStatus)
    }

    private let monitor: PathMonitor
    private let onChange: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "shopy.path-watcher")
    private let lock = NSLock()
    private var path: PathStatus?
    private var stopped = false
    /// A caller of `waitUntilSatisfied`, with the timer that gives up on it.
    private typealias Waiter = (continuation: CheckedContinuation<Bool, Never>, timer: Task<Void, Never>)
    private var waiters: [UUID: Waiter] = [:]
    private let clock: any TimerClock

    /// - Parameters:
    ///   - monitor: the monitor to use (a fresh one by default); the watcher starts and cancels it.
    ///   - clock: what `waitUntilSatisfied`'s timeout is timed by (the context's).
    ///   - onChange: called on a private serial queue, in order, for each transition.
    public init(monitor: PathMonitor, clock: any TimerClock = SystemClock(), onChange: @escaping @Sendable (Event) -> Void) {
        self.monitor = monitor
        self.clock = clock
        self.onChange = onChange
    }

    /// The line an event is reported as, without the `shopy: ` prefix.
    public static func describe(_ event: Event) -> String {
        switch event {
        case .lost(let path): return "network lost: \(path.unsatisfiedReason ?? PathStatus.noDefaultRoute)"
        case .restored(let path): return "network back: \(path.interfaceSummary)"
        }
    }

    public func start() {
        monitor.pathUpdateHandler = { [self] snapshot in handle(snapshot.path) }
        monitor.start(queue: queue)
    }

    /// Stops watching; waiters of `waitUntilSatisfied` return false.
    public func stop() {
        monitor.cancel()
        let pending = lock.withLock {
            stopped = true
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for waiter in pending {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: false)
        }
    }

    /// The path as last seen; nil until the monitor's first reading (which `start` makes at once).
    public var currentPath: PathStatus? { lock.withLock { path } }

    /// Whether the path is usable; true while unknown, so that nothing waits on a guess.
    public var isSatisfied: Bool { currentPath?.isSatisfied ?? true }

    /// Returns true once the path is satisfied (at once if it is), false after `timeout`
    /// seconds or when the watcher stops.
    public func waitUntilSatisfied(timeout: Double) async -> Bool {
        if isSatisfied { return true }
        let id = UUID()
        let deadline = clock.deadline(after: timeout)
        return await withCheckedContinuation { continuation in
            let answer: Bool? = lock.withLock {
                if path?.isSatisfied ?? true { return true }
                if stopped { return false }
                let timer = Task { [self, clock] in
                    // Cancelled when the path returns or the watcher stops first.
                    guard (try? await clock.sleep(until: deadline)) != nil else { return }
                    let waiter = lock.withLock { waiters.removeValue(forKey: id) }
                    waiter?.continuation.resume(returning: false)
                }
                waiters[id] = (continuation, timer)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Takes each path the monitor reads (internal for tests, which feed paths directly).
    func handle(_ new: PathStatus) {
        let (old, released): (PathStatus?, [Waiter]) = lock.withLock {
            let old = path
            path = new
            guard new.isSatisfied else { return (old, []) }
            defer { waiters.removeAll() }
            return (old, Array(waiters.values))
        }
        for waiter in released {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: true)
        }
        guard let old, old.isSatisfied != new.isSatisfied else { return }
        onChange(new.isSatisfied ? .restored(new) : .lost(new))
    }
}

extension PathStatus {
    /// `ethernet eth0, wifi wlan0`, or the reason when unsatisfied.
    public var interfaceSummary: String {
        if interfaces.isEmpty { return unsatisfiedReason ?? PathStatus.noDefaultRoute }
        return interfaces.map { "\($0.type.rawValue) \($0.name)" }.joined(separator: ", ")
    }
}
