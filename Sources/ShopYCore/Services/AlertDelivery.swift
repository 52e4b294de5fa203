import Foundation
import ShopYBase

/// Delivers the alerts a refresh fired: `--notify` (a desktop notification through
/// `notify-send`, a warning when there is none or it fails) and `--exec` (a command per alert,
/// the like as JSON on its stdin). Network text goes only into argv elements and stdin, never
/// through a shell; to notify-send after `--` (a title `--icon=…` is not an option) and with
/// its markup escaped (notification servers read the body as markup).
package struct AlertDelivery: Sendable {
    package var environment: [String: String]
    package var launcher: any Launcher
    package var diagnostics: any DiagnosticsSink

    package init(environment: [String: String], launcher: any Launcher, diagnostics: any DiagnosticsSink) {
        self.environment = environment
        self.launcher = launcher
        self.diagnostics = diagnostics
    }

    /// notify-send's argv for one alert: shopy's own options, `--`, then the summary and the
    /// body (one clean line, markup escaped).
    package static func notifyArguments(_ program: String, _ alert: PriceRefresh.Fired) -> [String] {
        let body = Sanitizer.clean("\(alert.like.product.title): \(Money.won(alert.price)) (\(alert.alert.description))")
        return [program, "--app-name=shopy", "--", "shopy: price alert", Markup.escaped(body)]
    }

    /// What `--exec` gets on stdin: the like (its stored shape) with the alert and the price.
    package static func execInput(_ fired: PriceRefresh.Fired) -> [UInt8] {
        guard case .object(var o) = fired.like.json else { return [] }
        o.appendUnchecked("currentPrice", .int(fired.price))
        o.appendUnchecked("alert", .string(fired.alert.description))
        o.appendUnchecked("firedAt", .string(fired.at))
        return JSONWriter.serialize(.object(o), pretty: false) + [0x0A]
    }

    /// `--notify` and `--exec`, per fired alert. Network text goes only into argv elements and
    /// stdin, never through a shell.
    package func deliver(_ fired: [PriceRefresh.Fired], notify: Bool, exec: [String]?) {
        guard !fired.isEmpty else { return }
        let path = environment["PATH"]
        if notify {
            if let program = launcher.find("notify-send", searchPath: path) {
                var failed: [LaunchOutcome] = []
                for alert in fired {
                    let outcome = launcher.run(Self.notifyArguments(program, alert), input: nil, attached: false, wait: 5)
                    switch outcome {
                    case .exited(0), .stillRunning: break
                    case .exited, .failedToStart: failed.append(outcome)
                    }
                }
                if let first = failed.first {
                    let how: String
                    switch first {
                    case .failedToStart(let code): how = "could not be started (\(String(cString: strerror(code))))"
                    case .exited(let status): how = "exit status \(status)"
                    case .stillRunning: how = ""
                    }
                    let alerts = "\(failed.count) of \(fired.count) alert\(fired.count == 1 ? "" : "s")"
                    diagnostics.warning("--notify: notify-send failed for \(alerts) (\(how)); they are listed above")
                }
            } else {
                diagnostics.warning("--notify: notify-send was not found on PATH; no desktop notification was sent (the alerts are listed above)")
            }
        }
        if let exec {
            guard let program = launcher.find(exec[0], searchPath: path) else {
                diagnostics.warning("--exec: '\(exec[0])' was not found or is not executable")
                return
            }
            for alert in fired {
                let outcome = launcher.run([program] + exec.dropFirst(), input: Self.execInput(alert), attached: false, wait: 30)
                switch outcome {
                case .exited(0), .stillRunning: break
                case .exited(let status): diagnostics.warning("--exec: '\(exec[0])' exited with \(status) for \(alert.like.product.productId)")
                case .failedToStart(let code): diagnostics.warning("--exec: '\(exec[0])' could not start: \(String(cString: strerror(code)))")
                }
            }
        }
    }
}
