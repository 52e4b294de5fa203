import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one loop that hands a checked link to the user's opener or clipboard tool: each
/// candidate in turn until one takes it; a candidate that fails is a warning and the next is
/// tried. Used by `shopy open`/`copy`, the browse screen and the widget. It says nothing on
/// success: the caller presents the outcome.
package struct LinkOpener: Sendable {
    package var environment: [String: String]
    package var launcher: any Launcher
    package var trace: Tracer
    package var diagnostics: any DiagnosticsSink
    /// Runs a program that shares the terminal (a text browser in $BROWSER) with the terminal
    /// handed to it: a full-screen front end (browse) gives its terminal back for the time.
    package var withTerminalReleased: @Sendable (() -> LaunchOutcome) -> LaunchOutcome
    /// $BROWSER's problems are told at the first link this opener opens, not at every one.
    private let browserChecked = FirstTime()

    package init(environment: [String: String], launcher: any Launcher, trace: Tracer = .off, diagnostics: any DiagnosticsSink,
                 withTerminalReleased: @escaping @Sendable (() -> LaunchOutcome) -> LaunchOutcome = { $0() }) {
        self.environment = environment
        self.launcher = launcher
        self.trace = trace
        self.diagnostics = diagnostics
        self.withTerminalReleased = withTerminalReleased
    }

    /// Why one candidate did not take the link: `xdg-open failed (exit status 1)`.
    package typealias Problem = String

    /// Which program took the link (`xdg-open`, `$BROWSER (w3m)`, `xclip`), or nil for none.
    package typealias Outcome = String?

    /// Opens `link` (already `SafeLink`-checked) with $BROWSER's entries, then the platform's opener.
    /// Each candidate that fails is a warning to `diagnostics`.
    package func open(_ link: String) -> Outcome {
        open(link) { problem, exited in
            if exited { diagnostics.warning("\(problem); trying the next opener") } else { diagnostics.warning("\(problem)") }
        }
    }

    /// The same, each failing candidate told to `failed` instead (a front end that shows them its own way).
    package func open(_ link: String, failed: (Problem, _ exited: Bool) -> Void) -> Outcome {
        if browserChecked.first() {
            for problem in Openers.browserProblems(environment: environment, launcher: launcher) { failed(problem, true) }
        }
        return first(Openers.candidates(for: link, environment: environment, launcher: launcher), verb: "open", failed: failed)
    }

    /// Puts `link` on the clipboard with the first clipboard tool that works.
    package func copy(_ link: String) -> Outcome {
        copy(link) { problem, exited in
            if exited { diagnostics.warning("\(problem); trying the next way") } else { diagnostics.warning("\(problem)") }
        }
    }

    /// The same, each failing tool told to `failed` instead.
    package func copy(_ link: String, failed: (Problem, _ exited: Bool) -> Void) -> Outcome {
        first(Clipboards.candidates(for: link, environment: environment, launcher: launcher), verb: "copy", failed: failed)
    }

    private func first(_ handlers: [LinkHandler], verb: String, failed: (Problem, Bool) -> Void) -> Outcome {
        for handler in handlers {
            trace("\(verb): \(handler.argv.joined(separator: " "))\(handler.input == nil ? "" : " < link")")
            let run = { [launcher] in launcher.run(handler.argv, input: handler.input, attached: handler.attached, wait: 5) }
            switch handler.attached ? withTerminalReleased(run) : run() {
            case .exited(0), .stillRunning:
                return handler.name
            case .exited(let status):
                failed("\(handler.name) failed (exit status \(status))", true)
            case .failedToStart(let code):
                failed("\(handler.name) could not be started (\(String(cString: strerror(code))))", false)
            }
        }
        return nil
    }
}

/// True the first time it is asked, then false (shared by the copies of a value that holds it).
final class FirstTime: @unchecked Sendable {
    private let lock = NSLock()
    private var asked = false

    func first() -> Bool {
        lock.withLock {
            defer { asked = true }
            return !asked
        }
    }
}
