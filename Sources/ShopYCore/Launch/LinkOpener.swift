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

    package init(environment: [String: String], launcher: any Launcher, trace: Tracer = .off, diagnostics: any DiagnosticsSink) {
        self.environment = environment
        self.launcher = launcher
        self.trace = trace
        self.diagnostics = diagnostics
    }

    /// Which program took the link (`xdg-open`, `$BROWSER (w3m)`, `xclip`), or nil for none.
    package typealias Outcome = String?

    /// Opens `link` (already `SafeLink`-checked) with $BROWSER's entries, then the platform's opener.
    package func open(_ link: String) -> Outcome {
        first(Openers.candidates(for: link, environment: environment, launcher: launcher), verb: "open", next: "opener")
    }

    /// Puts `link` on the clipboard with the first clipboard tool that works.
    package func copy(_ link: String) -> Outcome {
        first(Clipboards.candidates(for: link, environment: environment, launcher: launcher), verb: "copy", next: "way")
    }

    private func first(_ handlers: [LinkHandler], verb: String, next: String) -> Outcome {
        for handler in handlers {
            trace("\(verb): \(handler.argv.joined(separator: " "))\(handler.input == nil ? "" : " < link")")
            switch launcher.run(handler.argv, input: handler.input, attached: handler.attached, wait: 5) {
            case .exited(0), .stillRunning:
                return handler.name
            case .exited(let status):
                diagnostics.warning("\(handler.name) failed (exit status \(status)); trying the next \(next)")
            case .failedToStart(let code):
                diagnostics.warning("\(handler.name) could not be started (\(String(cString: strerror(code))))")
            }
        }
        return nil
    }
}
