import Foundation

/// Counts the requests that actually left (past the rate limiter, not cancelled), for what a
/// scan reports: requests a scan merely scheduled are not the server's load.
package final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    package init() {}

    package func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    package var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

extension RequestCounter {
    /// The counter of the work running in this task, if any: `RetryingRequest` adds one for each
    /// attempt it hands to the transport (retries included), whatever comes back, so that work
    /// which ends in an error still says how many requests it sent (`likes refresh`, per like).
    @TaskLocal package static var current: RequestCounter?
}
