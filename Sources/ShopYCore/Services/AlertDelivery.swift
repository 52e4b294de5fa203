import Foundation
import ShopYBase

/// Delivers the alerts a refresh fired: `--notify` (a desktop notification through
/// `notify-send`, a warning when there is none) and `--exec` (a command per alert, the like as
/// JSON on its stdin). Network text goes only into argv elements and stdin, never through a
/// shell. The widget's refresh can deliver the same way.
package struct AlertDelivery: Sendable {
    package var environment: [String: String]
    package var launcher: any Launcher
    package var diagnostics: any DiagnosticsSink

    package init(environment: [String: String], launcher: any Launcher, diagnostics: any DiagnosticsSink) {
        self.environment = environment
        self.launcher = launcher
        self.diagnostics = diagnostics
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
                for alert in fired {
                    let body = Sanitizer.clean("\(alert.like.product.title): \(Money.won(alert.price)) (\(alert.alert.description))")
                    _ = launcher.run([program, "--app-name=shopy", "shopy: price alert", body], input: nil, attached: false, wait: 5)
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
