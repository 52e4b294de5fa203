import Foundation

/// Counts the requests that actually left (past the rate limiter, not cancelled), for what a
/// scan reports: requests a scan merely scheduled are not the server's load.
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
