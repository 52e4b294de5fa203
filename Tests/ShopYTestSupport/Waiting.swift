// Waiting on what another thread or process does, without sleeping a fixed time: a condition
// polled until it holds, a semaphore waited for off the cooperative pool, the events of some
// work in the order they happened, a value shared with a server's thread.

import Foundation

/// Polls `condition` every 20 ms until it holds (true) or `seconds` pass (false): for what
/// another process does that no pipe or lock tells.
public func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(20_000)
    }
    return true
}

/// Whether `semaphore` is signalled within `seconds`, waited for off the test's task (a
/// blocked thread of the cooperative pool could hold up the very task that signals it).
public func signalled(_ semaphore: DispatchSemaphore, within seconds: Double) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success) }
    }
}

/// Events in the order they happened, and how many pieces of work ran at once at most.
public final class WorkLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    private var running = 0
    public private(set) var mostAtOnce = 0

    public init() {}

    public func add(_ event: String) { lock.withLock { list.append(event) } }
    public var all: [String] { lock.withLock { list } }
    public func enter() { lock.withLock { running += 1; mostAtOnce = max(mostAtOnce, running) } }
    public func leave() { lock.withLock { running -= 1 } }

    public func wait(for event: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if all.contains(event) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}

/// A value shared between threads (a server's, concurrent runs').
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    public init(_ value: Value) { self.value = value }
    public func get() -> Value { lock.withLock { value } }
    public func set(_ newValue: Value) { lock.withLock { value = newValue } }
    /// Changes the value in place under the lock (an append from several threads).
    public func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
