import ShopYBase
import Foundation

/// Where pictures are decoded: one at a time, on a thread of their own, never on Swift's
/// cooperative pool. A decode in a C library cannot be interrupted, so it must not hold a thread
/// that awaiting code needs to resume on (browse's quit, a key's answer); and pictures no
/// longer wanted must cost nothing:
/// - a job whose task is cancelled before the lane reaches it is never started;
/// - a task cancelled while its job runs is answered at once (nil) and does not wait for it:
///   the decode finishes on the lane and its result is dropped;
/// - nothing waits for the lane to drain: a process may exit with a decode still running.
public final class PictureDecodeLane: Sendable {
    public static let shared = PictureDecodeLane()

    private let queue = DispatchQueue(label: "shopy.pictures.decode")

    public init() {}

    /// `work`'s answer, run on the lane; nil when the calling task is cancelled first (the job
    /// is then skipped, or, when already running, left to finish with nobody waiting).
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        let job = Job<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
                guard job.wait(continuation) else { return }
                queue.async {
                    guard job.start() else { return }
                    job.finish(work())
                }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// One job's state: its waiter is resumed exactly once, by the answer or by cancellation.
    private final class Job<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var waiter: CheckedContinuation<T?, Never>?
        private var cancelled = false

        /// Keeps `continuation`; false (and it is resumed with nil) when already cancelled.
        func wait(_ continuation: CheckedContinuation<T?, Never>) -> Bool {
            let gone = lock.withLock {
                if !cancelled { waiter = continuation }
                return cancelled
            }
            if gone { continuation.resume(returning: nil) }
            return !gone
        }

        /// Whether the work should start (nobody cancelled it while it was queued).
        func start() -> Bool { lock.withLock { !cancelled } }

        func finish(_ value: T) {
            lock.withLock { () -> CheckedContinuation<T?, Never>? in
                defer { waiter = nil }
                return waiter
            }?.resume(returning: value)
        }

        func cancel() {
            lock.withLock { () -> CheckedContinuation<T?, Never>? in
                cancelled = true
                defer { waiter = nil }
                return waiter
            }?.resume(returning: nil)
        }
    }
}
