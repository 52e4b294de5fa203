// Tests for Sources/ShopYCore/Launch and Commands/LinkTargets.swift: `shopy open` and
// `shopy copy` through a recording launcher (the exact argv, nothing launched). The real
// SystemLauncher: ShopYCoreTests/Launch/SystemLauncherTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYCoreTestSupport

final class OpenCopyTests: XCTestCase {
    /// A store whose last listing has rows 1–3 with the given links, and a like.
    func home(links: [String?]) throws -> Home {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        let products = links.enumerated().map { i, link in
            Product(productId: "900000000\(i)", title: "item \(i + 1)", link: link)
        }
        try store.update([.state, .likes]) { settings in
            settings.lastListing = LastListing(command: "search test", savedAt: "2026-12-01T00:00:00Z",
                                               rows: products.enumerated().map { LastListing.Row(row: String($0.offset + 1), product: $0.element) })
            var likes = settings.likes
            _ = likes.add(Like(product: Product(productId: "77777777", title: "liked", link: "https://example.com/liked"), likedAt: "2026-12-01T00:00:00Z", likedPrice: nil))
            settings.likes = likes
        }
        return home
    }

    func testOpenUsesBrowserFirstWithTheLinkAsOneArgument() async throws {
        let link = "https://smartstore.naver.com/main/products/1?a=1&b=$(touch%20x);c"
        let home = try home(links: [link])
        let launcher = RecordingLauncher(installed: ["firefox", "xdg-open", "w3m"])
        let run = await home.run(["open", "1"], environment: ["BROWSER": "firefox --new-tab %s:w3m", "DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(run.code, 0, run.stderr)
        // In place of %s the link is inert to a shell (the entry could be one's script).
        XCTAssertEqual(launcher.calls, [.init(argv: ["/usr/bin/firefox", "--new-tab", SafeLink.shellInert(link)], input: nil, attached: true)])
        XCTAssertEqual(run.stderr, "shopy: opened with $BROWSER (firefox): \(link)\n")
        XCTAssertEqual(run.stdout, "")
    }

    func testOpenFallsBackToThePlatformOpenerAndTheNextOne() async throws {
        let home = try home(links: ["https://a.example/1", "https://a.example/2"])
        let launcher = RecordingLauncher(installed: ["xdg-open", "wslview", "brokenbrowser"], outcome: ["brokenbrowser": .exited(3)])
        let run = await home.run(["open", "1", "2"], environment: ["BROWSER": "nosuchbrowser:brokenbrowser", "DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/brokenbrowser", "https://a.example/1"], ["/usr/bin/xdg-open", "https://a.example/1"],
                                                     ["/usr/bin/brokenbrowser", "https://a.example/2"], ["/usr/bin/xdg-open", "https://a.example/2"]])
        XCTAssertFalse(launcher.calls[1].attached, "platform openers run detached")
        XCTAssertTrue(run.stderr.contains("brokenbrowser) failed (exit status 3)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("opened with xdg-open: https://a.example/2"), run.stderr)
        XCTAssertEqual(run.stderrLines.filter { $0.contains("$BROWSER (nosuchbrowser) is not found on PATH; trying the next opener") }.count, 1,
                       "a program $BROWSER names that is not there is said, once: \(run.stderr)")
    }

    /// An entry of $BROWSER that cannot be split (an unclosed quote) is said, not skipped silently.
    func testABrokenBrowserEntryIsSaid() async throws {
        let home = try home(links: ["https://a.example/1"])
        let launcher = RecordingLauncher(installed: ["xdg-open"])
        let run = await home.run(["open", "1"], environment: ["BROWSER": "'unclosed", "DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("$BROWSER's entry 1 has an unclosed quote or a trailing backslash; trying the next opener"), run.stderr)
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/xdg-open", "https://a.example/1"]])
        // A huge $BROWSER is named cut, on one readable line.
        let huge = await home.run(["open", "1"], environment: ["BROWSER": String(repeating: "b", count: 100_000), "DISPLAY": ":0"], launcher: launcher)
        XCTAssertLessThan(huge.stderrLines.first?.count ?? .max, 200, String(huge.stderr.prefix(300)))
    }

    func testOpenWithoutAnOpenerPrintsTheLinkAndSaysSo() async throws {
        let home = try home(links: ["https://a.example/1"])
        let launcher = RecordingLauncher(installed: ["xdg-open"])
        // No DISPLAY: xdg-open could only start a text browser with no terminal.
        let run = await home.run(["open", "1"], launcher: launcher)
        XCTAssertEqual(run.code, 0)
        XCTAssertEqual(launcher.calls, [])
        XCTAssertEqual(run.stdout, "https://a.example/1\n")
        XCTAssertTrue(run.stderr.contains("no browser opener found"), run.stderr)
    }

    func testOnlyHTTPLinksAreHandedOn() async throws {
        for bad in ["javascript:alert(1)", "file:///etc/passwd", "-https://x", "https://a.example/\u{1B}]52;c;x\u{07}", "https://exa mple.com", "ftp://x.example/", "https://", nil] {
            let home = try home(links: [bad])
            let launcher = RecordingLauncher(installed: ["xdg-open", "xclip"])
            var run = await home.run(["open", "1"], environment: ["DISPLAY": ":0"], launcher: launcher)
            XCTAssertEqual(run.code, 64, "\(String(describing: bad)): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("has no http(s) link"), run.stderr)
            XCTAssertFalse(run.stderr.contains("\u{1B}"), "the link is sanitized in the message")
            run = await home.run(["copy", "1"], environment: ["DISPLAY": ":0"], launcher: launcher)
            XCTAssertEqual(run.code, 64)
            XCTAssertEqual(launcher.calls, [], "nothing ran for \(String(describing: bad))")
        }
        XCTAssertEqual(SafeLink.check("HTTPS://A.example/x"), "HTTPS://A.example/x")
    }

    /// A refused link that reads as valid once cleaned (a space before it, a bidi override in
    /// it) is shown with what made it refused, escaped, not as it would be cleaned.
    func testARefusedLinkShowsWhatMadeItRefused() async throws {
        let home = try home(links: [" https://x.example/\u{202E}gpj.exe", "https://x.example/\u{FEFF}a\tb"])
        let launcher = RecordingLauncher(installed: ["xdg-open"])
        let first = await home.run(["open", "1"], environment: ["DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(first.code, 64)
        XCTAssertEqual(first.stderrLines.first, "shopy: product 9000000000 has no http(s) link to open (its link: '\\u{20}https://x.example/\\u{202E}gpj.exe')")
        let second = await home.run(["open", "2"], environment: ["DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(second.stderrLines.first, "shopy: product 9000000001 has no http(s) link to open (its link: 'https://x.example/\\u{FEFF}a\\u{9}b')")
        XCTAssertEqual(launcher.calls, [])
    }

    func testOpenByIDTakesTheLike() async throws {
        let home = try home(links: ["https://a.example/1"])
        let launcher = RecordingLauncher(installed: ["wslview"])
        var run = await home.run(["open", "--id", "77777777"], environment: ["WSL_DISTRO_NAME": "Ubuntu"], launcher: launcher)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/wslview", "https://example.com/liked"]])
        run = await home.run(["open", "--id", "123"], launcher: launcher)
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("not liked, nor in the last listing"), run.stderr)
        run = await home.run(["open", "9"], launcher: launcher)
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("row 9 is not in the last listing"), run.stderr)
    }

    func testCopyToolsInOrderWithTheLinkOnStdin() async throws {
        let home = try home(links: ["https://a.example/1"])
        var launcher = RecordingLauncher(installed: ["wl-copy", "xclip", "xsel"])
        var run = await home.run(["copy", "1"], environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(launcher.calls, [.init(argv: ["/usr/bin/wl-copy"], input: Array("https://a.example/1".utf8), attached: false)])
        XCTAssertEqual(run.stderr, "shopy: copied with wl-copy: https://a.example/1\n")
        XCTAssertEqual(run.stdout, "")

        launcher = RecordingLauncher(installed: ["xclip", "xsel"], outcome: ["xclip": .exited(1)])
        run = await home.run(["copy", "1"], environment: ["DISPLAY": ":0"], launcher: launcher)
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/xclip", "-selection", "clipboard", "-in"], ["/usr/bin/xsel", "--clipboard", "--input"]])
        XCTAssertTrue(run.stderr.contains("copied with xsel"), run.stderr)

        run = await home.run(["copy", "1", "2"], launcher: launcher)
        XCTAssertEqual(run.code, 64)
    }

    func testCopyFallsBackToOSC52OnATerminalElse69() async throws {
        let home = try home(links: ["https://a.example/1"])
        let launcher = RecordingLauncher(installed: [])
        var run = await home.run(["copy", "1"], stderrTerminal: true, launcher: launcher)
        XCTAssertEqual(run.code, 0)
        let base64 = Data("https://a.example/1".utf8).base64EncodedString()
        XCTAssertTrue(run.stderr.hasPrefix("\u{1B}]52;c;\(base64)\u{07}"), run.stderr.debugDescription)
        XCTAssertTrue(run.stderr.contains("with OSC 52"), run.stderr)
        run = await home.run(["copy", "1"], launcher: launcher)
        XCTAssertEqual(run.code, 69)
        XCTAssertEqual(run.stdout, "https://a.example/1\n")
        XCTAssertTrue(run.stderr.contains("no clipboard tool found"), run.stderr)
    }

}
