import Foundation

/// A value made at its first use and kept: the catalog a command's lookups share, so that
/// `like --id A B C` maps the local catalog once, not once per id.
final class OpenedOnce<Value>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private let make: @Sendable () -> Value
    private var made: Value?

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    var value: Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
