import Foundation
import ShopYBase

/// Something the work says on the side of its result: a notice ("searching the offline
/// catalog"), a warning ("could not record the listing"), or a hint after either. Services
/// report them to a `DiagnosticsSink`; the CLI prints them, in one place (`StderrDiagnostics`):
/// notices are left out with `--quiet`, warnings and hints never are. The message is the text
/// alone, without the `shopy: ` or `shopy: warning: ` prefix the sink adds; every foreign part in
/// it is already cleaned (it is a `TerminalText`).
package struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable, Equatable {
        case notice, warning, hint
    }

    package var kind: Kind
    package var message: TerminalText
    /// On a terminal, wrapped to its width under the prefix (a long explanation); else one line.
    package var wraps: Bool

    package init(_ kind: Kind, _ message: TerminalText, wraps: Bool = false) {
        self.kind = kind
        self.message = message
        self.wraps = wraps
    }

    package var description: String { "\(kind.rawValue): \(message.rendered)" }
}

/// Where diagnostics go. The composition root makes the CLI's; tests collect or discard.
package protocol DiagnosticsSink: Sendable {
    func report(_ diagnostic: Diagnostic)
}

extension DiagnosticsSink {
    package func notice(_ message: TerminalText, wraps: Bool = false) { report(Diagnostic(.notice, message, wraps: wraps)) }
    package func warning(_ message: TerminalText) { report(Diagnostic(.warning, message)) }
    package func hint(_ message: TerminalText) { report(Diagnostic(.hint, message)) }
}

/// Drops everything (a screen that owns the terminal, a background refresh).
package struct DiscardedDiagnostics: DiagnosticsSink {
    package init() {}
    package func report(_ diagnostic: Diagnostic) {}
}

/// Keeps what was reported, in order (tests; a front end that shows them its own way).
/// (`Mutex` would need macOS 15; the lock guards the one array, read and written under it.)
package final class CollectedDiagnostics: DiagnosticsSink, @unchecked Sendable {
    private let lock = NSLock()
    private var reported: [Diagnostic] = []

    package init() {}

    package func report(_ diagnostic: Diagnostic) {
        lock.withLock { reported.append(diagnostic) }
    }

    package var all: [Diagnostic] { lock.withLock { reported } }

    package func messages(_ kind: Diagnostic.Kind) -> [String] { all.filter { $0.kind == kind }.map(\.message.rendered) }
}
