// `likes refresh --notify` (Sources/ShopYCore/Services/AlertDelivery.swift): network text goes
// to notify-send after `--` (never read as an option), with its markup escaped (the body is
// markup for most notification servers), and a notifier that fails is reported.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCoreTestSupport

final class NotifyDeliveryTests: XCTestCase {
    func fired(_ title: String) -> PriceRefresh.Fired {
        let like = Like(product: Product(productId: "8800112233", title: title, price: 9_900), likedAt: "2026-12-01T00:00:00Z", likedPrice: 12_000)
        return PriceRefresh.Fired(like: like, alert: PriceAlert(rule: .below(10_000)), price: 9_900, at: "2026-12-02T00:00:00Z")
    }

    func deliver(_ titles: [String], outcome: LaunchOutcome = .exited(0)) -> (RecordingLauncher, CollectedDiagnostics) {
        let launcher = RecordingLauncher(installed: ["notify-send"], outcome: ["notify-send": outcome])
        let diagnostics = CollectedDiagnostics()
        AlertDelivery(environment: ["PATH": "/usr/bin"], launcher: launcher, diagnostics: diagnostics)
            .deliver(titles.map(fired), notify: true, exec: nil)
        return (launcher, diagnostics)
    }

    func testTextsComeAfterDoubleDashWithMarkupEscaped() throws {
        let (launcher, diagnostics) = deliver(["--urgency=critical --icon=/etc/passwd", "<span foreground=\"red\">&big</span> 'sale'"])
        XCTAssertEqual(launcher.calls.count, 2)
        for call in launcher.calls {
            let dashes = try XCTUnwrap(call.argv.firstIndex(of: "--"), "\(call.argv)")
            XCTAssertTrue(call.argv[1..<dashes].allSatisfy { $0.hasPrefix("--") }, "only shopy's own options before --: \(call.argv)")
            XCTAssertEqual(call.argv.count, dashes + 3, "summary and body after --: \(call.argv)")
        }
        XCTAssertEqual(launcher.calls[0].argv.last, "--urgency=critical --icon=/etc/passwd: 9,900원 (below 10,000원)")
        XCTAssertEqual(launcher.calls[1].argv.last, "&lt;span foreground=&quot;red&quot;&gt;&amp;big&lt;/span&gt; &#39;sale&#39;: 9,900원 (below 10,000원)")
        XCTAssertEqual(diagnostics.all.count, 0)
    }

    func testAFailingNotifierIsReportedOnce() {
        let (launcher, diagnostics) = deliver(["a", "b", "c"], outcome: .exited(1))
        XCTAssertEqual(launcher.calls.count, 3, "each alert is tried")
        XCTAssertEqual(diagnostics.messages(.warning), ["--notify: notify-send failed for 3 of 3 alerts (exit status 1); they are listed above"])
        let (_, unstartable) = deliver(["a"], outcome: .failedToStart(EACCES))
        XCTAssertEqual(unstartable.messages(.warning).count, 1)
        XCTAssertTrue((unstartable.messages(.warning).first ?? "").contains("could not be started"), "\(unstartable.messages(.warning))")
    }
}

/// The real notify-send (libnotify's) and a real notification server: dunst, on its own
/// D-Bus session bus and an Xvfb display, records each notification's application, summary,
/// body and icon with a script rule. A title that looks like an option stays the body's text.
final class NotifySendHostTests: XCTestCase {
    var processes: [Process] = []
    var directory = ""

    override func tearDown() {
        for process in processes.reversed() where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if !directory.isEmpty { try? FileManager.default.removeItem(atPath: directory) }
    }

    func tool(_ name: String, package: String) throws -> String {
        for directory in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/" + name) { return directory + "/" + name }
        throw XCTSkip("\(name) is not installed (apt-get install \(package)); notify-send is not tried with a real notification server")
    }

    /// Starts `path` with `arguments`; its stdout's first line when `firstLine`.
    @discardableResult
    func start(_ path: String, _ arguments: [String], environment: [String: String], firstLine: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = firstLine ? out : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
        guard firstLine else { return "" }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testATitleThatLooksLikeAnOptionReachesTheServerAsTheBody() throws {
        let notifySend = try tool("notify-send", package: "libnotify-bin")
        let dunst = try tool("dunst", package: "dunst")
        let dbus = try tool("dbus-daemon", package: "dbus-daemon")
        let xvfb = try tool("Xvfb", package: "xvfb")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-notify-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let got = directory + "/got", script = directory + "/record.sh"
        try "#!/bin/sh\nprintf 'app=%s|summary=%s|body=%s|icon=%s\\n' \"$1\" \"$2\" \"$3\" \"$4\" >> '\(got)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        try "[record]\n    appname = \"*\"\n    script = \(script)\n".write(toFile: directory + "/dunstrc", atomically: true, encoding: .utf8)
        let base = ["PATH": "/usr/bin:/bin", "HOME": directory]
        let bus = try start(dbus, ["--session", "--print-address", "--nofork"], environment: base, firstLine: true)
        let display = try start(xvfb, ["-displayfd", "1", "-screen", "0", "640x200x24", "-nolisten", "tcp"], environment: base, firstLine: true)
        guard !bus.isEmpty, !display.isEmpty else { throw XCTSkip("no D-Bus session bus or X display could be started here") }
        try start(dunst, ["-config", directory + "/dunstrc"], environment: base.merging(["DISPLAY": ":" + display, "DBUS_SESSION_BUS_ADDRESS": bus]) { $1 })
        // notify-send inherits shopy's environment (the launcher passes it on): this process's, for the test.
        let previous = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1)
        defer { if let previous { setenv("DBUS_SESSION_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") } }

        let diagnostics = CollectedDiagnostics()
        let like = Like(product: Product(productId: "8800112233", title: "--icon=/etc/passwd <b>x</b>", price: 9_900), likedAt: "2026-12-01T00:00:00Z", likedPrice: 12_000)
        let fired = PriceRefresh.Fired(like: like, alert: PriceAlert(rule: .below(10_000)), price: 9_900, at: "2026-12-02T00:00:00Z")
        // dunst may take a moment to own the bus name: the first try may fail and be reported.
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(15)
        while lines.isEmpty && Date() < deadline {
            AlertDelivery(environment: ["PATH": (notifySend as NSString).deletingLastPathComponent], launcher: SystemLauncher(), diagnostics: diagnostics)
                .deliver([fired], notify: true, exec: nil)
            for _ in 0..<50 where lines.isEmpty {
                lines = ((try? String(contentsOfFile: got, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if lines.isEmpty { usleep(20_000) }
            }
        }
        let first = try XCTUnwrap(lines.first, "nothing reached dunst; diagnostics: \(diagnostics.all.map(\.message.rendered))")
        XCTAssertTrue(first.hasPrefix("app=shopy|summary=shopy: price alert|body=--icon=/etc/passwd &lt;b&gt;x&lt;/b&gt;: 9,900원 (below 10,000원)|icon="), first)
        XCTAssertFalse(first.hasSuffix("icon=/etc/passwd"), "the title became an option: \(first)")
    }
}
