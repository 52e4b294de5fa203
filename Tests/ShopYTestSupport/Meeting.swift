// Concurrency the tests can see: arrivals held until all have come.

import Foundation

/// Holds each arrival until `count` have arrived, then lets them all go: searches asked one
/// after another never all arrive. Rather than hang, it lets them go after `patience` seconds
/// of real time, and `met` stays false.
public final class Meeting: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private let patience: Double
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0
    private var together = false

    public init(of count: Int, patience: Double = 20) {
        self.count = count
        self.patience = patience
    }

    /// Whether all `count` were waiting at once.
    public var met: Bool { lock.withLock { together } }

    public func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (released, first): ([CheckedContinuation<Void, Never>], Bool) = lock.withLock {
                arrived += 1
                waiting.append(continuation)
                guard arrived == count else { return ([], arrived == 1) }
                together = true
                defer { waiting = [] }
                return (waiting, false)
            }
            for waiter in released { waiter.resume() }
            if first { giveUpLater() }
        }
    }

    private func giveUpLater() {
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [self] in
            let left: [CheckedContinuation<Void, Never>] = lock.withLock {
                defer { waiting = [] }
                return waiting
            }
            for waiter in left { waiter.resume() }
        }
    }
}
