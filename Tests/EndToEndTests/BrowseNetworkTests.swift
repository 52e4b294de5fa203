import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// `shopy browse` on Naver's contract (the emulator) inside a network namespace whose link the
/// test brings up: the banner while the path is down, no request sent then, and the held search
/// going out when the path returns. Needs Linux, root and iproute2; skipped otherwise.
final class BrowseNetworkTests: XCTestCase {
    func testOfflineBannerHoldsRequestsUntilThePathReturns() throws {
        #if os(Linux)
        guard geteuid() == 0 else { throw XCTSkip("needs root (it creates a network namespace and a veth pair with 'ip')") }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("needs iproute2 ('ip' was not found in /usr/sbin, /sbin, /usr/bin or /bin)")
        }
        let namespace = try NetworkNamespace(ip: ip)
        defer { namespace.destroy() }
        // The emulator on the namespace's loopback, which needs no route: only browse's own check holds requests back.
        let emulator = try WatchProcess(ip, ["netns", "exec", namespace.name, Binary.path("shopy-emulator"), "--port", "0", "--log"], environment: [:])
        defer { emulator.kill() }
        let listening = try emulator.waitForText(timeout: 15) { $0.contains("listening on") }
        let base = String(listening.text.split(separator: " ").last!)
        let home = NSTemporaryDirectory() + "shopy-browse-net-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        let pty = try PseudoTerminal(rows: 24, columns: 80)
        let before = pty.modes()
        try pty.spawn([ip, "netns", "exec", namespace.name, Binary.path("shopy"), "browse", "--source", "naver", "신발"],
                      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home,
                                    "SHOPY_API_BASE": base, "NAVER_CLIENT_ID": "emulator-id", "NAVER_CLIENT_SECRET": "emulator-secret"])
        pty.waitFor(" offline — no interface with a default route · nothing is sent until it returns")
        pty.waitFor("search needs the network: nothing is sent while offline")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(emulator.stderr.contains("GET "), "no request while offline: \(emulator.stderr)")

        try namespace.connect()
        pty.waitFor("network back: ethernet \(namespace.inside)")
        XCTAssertTrue(pty.wait { !$0.lines[1].hasPrefix(" offline") }, "the banner goes: \(pty.screen.text)")
        pty.send("j")  // the message gives way to the status line
        pty.waitFor("· sort sim · naver")
        try emulator.waitForStderr(containing: "GET /v1/search/shop", timeout: 5)  // the held search went out
        pty.send("q")
        XCTAssertEqual(pty.waitForExit(), 0)
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()))
        XCTAssertFalse(pty.screen.alternateScreen)
        #else
        throw XCTSkip("network namespaces are Linux only")
        #endif
    }
}
