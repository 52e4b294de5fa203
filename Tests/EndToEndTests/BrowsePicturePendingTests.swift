@testable import ShopYBase
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
import ShopYTestSupport

/// Browse's Detail with a picture still pending, through a pseudo-terminal, against a picture
/// server that sends the head and the first bytes of a picture, then holds the rest back until
/// the client goes (or 30 s pass, when it sends the rest): leaving Detail aborts the fetch at
/// once while browse runs on, and quitting with a picture pending exits before the server sent
/// it, the terminal restored.
final class BrowsePicturePendingTests: XCTestCase {
    /// What the picture server saw, in order: "asked N", then "gone N" (the client closed the
    /// connection first) or "sent N" (the picture went out whole).
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ event: String) { lock.withLock { list.append(event) } }
        var all: [String] { lock.withLock { list } }

        func wait(for event: String, timeout: Double) -> Bool {
            eventually(within: timeout) { all.contains(event) }
        }
    }

    func testLeavingDetailDropsTheFetchAndQuittingDoesNotWaitForIt() throws {
        if let failure = PictureLibrary.chafa.load(environment: ProcessInfo.processInfo.environment) {
            throw XCTSkip("\(failure.reason); \(failure.hint ?? "")")
        }
        let picture = [UInt8](try Data(contentsOf: fixturesDirectory.appendingPathComponent("pictures/quadrants.png")))
        let events = Events()
        let server = try ScriptedHTTPServer { request, connection in
            let name = request.head.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
            events.add("asked \(name)")
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(picture.count)\r\nConnection: close\r\n\r\n")
            connection.send(Array(picture.prefix(16)))
            if connection.waitForPeerClose(within: 30) {
                events.add("gone \(name)")
            } else {
                connection.send(Array(picture.dropFirst(16)))
                events.add("sent \(name)")
            }
            return false
        }
        defer { server.stop() }

        let base = NSTemporaryDirectory() + "shopy-browse-pending-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let home = base + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var likes = LikeCollection()
        for n in 1...2 {
            let product = Product(productId: "8000000\(n)", title: "pending picture \(n)", price: 1000 * n, link: "https://example.com/\(n)",
                                  image: server.baseURL + "/pictures/\(n).png")
            likes.add(Like(product: product, likedAt: "2026-12-0\(n)T00:00:00Z", likedPrice: product.price))
        }
        let file = base + "/likes.json"
        try Data(LikesFile.export(likes, at: "2026-12-03T00:00:00Z")).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try runShopy(["likes", "import", file], home: home).status, 0)

        let pty = try PseudoTerminal(rows: 24, columns: 120)
        let before = pty.modes()
        // A long timeout: a fetch left running would hold the connection open for all of it.
        try pty.spawn([Binary.path("shopy"), "browse", "--source", "catalog", "--images", "symbols", "--timeout", "60"],
                      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor",
                                    "SHOPY_HOME": home, "HOME": home, "XDG_CACHE_HOME": base + "/cache"])
        pty.send("3")
        pty.waitFor("pending picture 1")
        pty.waitFor("pending picture 2")
        pty.send("\r")
        pty.waitFor("Detail · Esc or q goes back")
        pty.waitFor("loading…")
        let first = try XCTUnwrap(waitForRequest(events, count: 1), "the picture was asked for: \(events.all)")

        // Leaving Detail: the fetch is aborted at once, and browse runs on.
        pty.send("\u{1B}")
        XCTAssertTrue(events.wait(for: "gone \(first)", timeout: 10), "the connection closed while browse runs: \(events.all)")
        XCTAssertNil(pty.waitForExit(timeout: 0.2), "browse still runs")
        pty.waitFor("pending picture 1")

        // Another item's Detail, its picture pending, then Ctrl-C (quit from Detail).
        pty.send("j")
        pty.send("\r")
        pty.waitFor("loading…")
        let second = try XCTUnwrap(waitForRequest(events, count: 2), "the second picture was asked for: \(events.all)")
        pty.send([0x03])
        let status = pty.waitForExit(timeout: 15)
        XCTAssertEqual(status, 0, "exited, with 0")
        XCTAssertFalse(events.all.contains("sent \(second)"), "exited before the server sent the picture: \(events.all)")
        XCTAssertTrue(events.wait(for: "gone \(second)", timeout: 10), "the connection went with the process: \(events.all)")
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()), "termios restored")
        XCTAssertFalse(pty.screen.alternateScreen)
        XCTAssertTrue(pty.screen.cursorVisible)
        XCTAssertEqual(events.all.filter { $0.hasPrefix("sent ") }, [], "no picture was ever sent whole")
    }

    /// The path of the `count`th picture request, once the server has it.
    func waitForRequest(_ events: Events, count: Int) -> String? {
        var asked: [String] = []
        guard eventually(within: 15, { asked = events.all.filter { $0.hasPrefix("asked ") }; return asked.count >= count }) else { return nil }
        return String(asked[count - 1].dropFirst("asked ".count))
    }
}
