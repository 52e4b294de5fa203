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
