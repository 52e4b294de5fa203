import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens one checked link through the existing Launcher and openers (as `shopy open` does).
enum LinkOpening {
    static func open(_ link: String, context: Context) -> ExitCode {
        let io = context.io
        for handler in Openers.candidates(for: link, environment: io.environment, launcher: io.launcher) {
            context.trace("open: \(handler.argv.joined(separator: " "))")
            switch io.launcher.run(handler.argv, input: nil, attached: handler.attached, wait: 5) {
            case .exited(0), .stillRunning:
                io.notice("shopy: opened with \(handler.name): \(link)")
                return .ok
            case .exited(let status):
                io.stderr.line("shopy: warning: \(handler.name) failed (exit status \(status)); trying the next opener")
            case .failedToStart(let code):
                io.stderr.line("shopy: warning: \(handler.name) could not be started (\(String(cString: strerror(code))))")
            }
        }
        io.stdout.line(link)
        io.notice("shopy: no browser opener found ($BROWSER, xdg-open, open, wslview); the link is printed above")
        return .ok
    }
}
