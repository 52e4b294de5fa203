// `likes refresh --notify` (Sources/ShopYCore/Services/AlertDelivery.swift): network text goes
// to notify-send after `--` (never read as an option), with its markup escaped (the body is
// markup for most notification servers), and a notifier that fails is reported.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

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
