import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens one checked link through the existing Launcher and openers (as `shopy open` does).
/// The opener loop is kept here alone, to be replaced by the shared one (`Commands/LinkTargets`).
public enum LinkOpening {
    /// Which opener took the link, or none did (the presenter prints the link then).
    public enum Outcome: Equatable, Sendable {
        case opened(link: String, by: String)
        case noOpener(link: String)
    }

    /// Tries each opener in turn; an opener that fails is a warning, the next one is tried.
    static func open(_ link: String, context: Context) -> Outcome {
        let io = context.io
        for handler in Openers.candidates(for: link, environment: io.environment, launcher: io.launcher) {
            context.trace("open: \(handler.argv.joined(separator: " "))")
            switch io.launcher.run(handler.argv, input: nil, attached: handler.attached, wait: 5) {
            case .exited(0), .stillRunning:
                return .opened(link: link, by: handler.name)
            case .exited(let status):
                context.diagnostics.warning("\(handler.name) failed (exit status \(status)); trying the next opener")
            case .failedToStart(let code):
                context.diagnostics.warning("\(handler.name) could not be started (\(String(cString: strerror(code))))")
            }
        }
        return .noOpener(link: link)
    }
}
