import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CShopYShim

/// SIGINT and SIGTERM for commands that run until stopped (`status --watch`), taken
/// synchronously with sigwait on a dedicated thread. Dispatch signal sources proved unreliable
/// here (a SIGTERM from a parent was sometimes lost), as in the emulator.
///
/// `install()` blocks both signals in the calling thread *before* any thread of the command
/// starts, so that every thread it starts (the monitor, the probe, the waiter) inherits the
/// block. Threads that already existed are a special case: Dispatch's workers block them
/// anyway, but the process's main thread may sit in sigsuspend with nothing blocked. A handler
/// installed for both signals forwards such a delivery to the waiter, so the signal is never
/// lost and never ends the process by its default action.
///
/// Both signals are taken even when the process started with them ignored (a background job
/// of a script): a watch is stopped by signals, so ignoring them would make it unstoppable
/// but by SIGKILL. Go's signal.Notify makes the same choice.
public final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var waiters: [@Sendable (Int32) -> Void] = []

    private init() {}

    /// Blocks SIGINT and SIGTERM and starts the waiter, the first time; later calls return the
    /// same object. Call it before starting other threads. Once installed, the signals stay with
    /// this object for the life of the process.
    public static func install() -> StopSignals { shared }

    private static let shared: StopSignals = {
        let signals = StopSignals()
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let mask = set
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Forward to this thread from any thread that does not block the signals; set up
            // from here so that the target is this thread.
            cshopy_forward_signal(SIGINT, pthread_self())
            cshopy_forward_signal(SIGTERM, pthread_self())
            ready.signal()
            var waitSet = mask
            while true {
                var signal: Int32 = 0
                if sigwait(&waitSet, &signal) == 0 { signals.deliver(signal) }
            }
        }
        thread.name = "shopy.signals"
        thread.start()
        ready.wait()
        return signals
    }()

    /// The first signal received, if any.
    public var signal: Int32? { lock.withLock { received } }

    /// Suspends until SIGINT or SIGTERM arrives (at once if one already has) and returns it.
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            onSignal { continuation.resume(returning: $0) }
        }
    }

    /// Calls `action` once, on the waiter thread, when the first signal arrives (at once if one
    /// already has).
    public func onSignal(_ action: @escaping @Sendable (Int32) -> Void) {
        let already: Int32? = lock.withLock {
            if received == nil { waiters.append(action) }
            return received
        }
        if let already { action(already) }
    }

    private func deliver(_ signal: Int32) {
        let toCall: [@Sendable (Int32) -> Void] = lock.withLock {
            if received != nil { return [] }
            received = signal
            defer { waiters.removeAll() }
            return waiters
        }
        for action in toCall { action(signal) }
    }
}
