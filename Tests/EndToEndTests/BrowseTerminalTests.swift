import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

/// `shopy browse` through a pseudo-terminal, as a user drives it.
final class BrowseTerminalTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-browse-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    func start(_ arguments: [String], rows: Int = 24, columns: Int = 80, environment: [String: String] = [:]) throws -> (PseudoTerminal, termios) {
        let pty = try PseudoTerminal(rows: rows, columns: columns)
        let before = pty.modes()
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home]
        env.merge(environment) { $1 }
        try pty.spawn([Binary.path("shopy"), "browse"] + arguments, environment: env)
        return (pty, before)
    }

    /// Line `n` below the tab bar: one further down while the offline banner shows (a machine
    /// without a default route), so the test does not depend on the network.
    func line(_ screen: TerminalScreen, _ n: Int) -> String {
        let banner = screen.lines[1].hasPrefix(" offline — ") ? 1 : 0
        return screen.lines[n + banner]
    }

    func assertRestored(_ pty: PseudoTerminal, _ before: termios, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()), "termios restored", file: file, line: line)
        XCTAssertFalse(pty.screen.alternateScreen, "alternate screen left", file: file, line: line)
        XCTAssertTrue(pty.screen.cursorVisible, "cursor shown", file: file, line: line)
        XCTAssertFalse(pty.screen.bracketedPaste, "bracketed paste off", file: file, line: line)
        XCTAssertTrue(pty.screen.autowrap, "autowrap back on", file: file, line: line)
    }

    func testSearchScrollSortLikeDetailBackQuit() throws {
        let (pty, before) = try start(["--source", "catalog", "--size", "10"])
        pty.waitFor("Popular rankings")
        XCTAssertTrue(pty.screen.alternateScreen)
        XCTAssertFalse(pty.screen.cursorVisible)
        pty.waitFor("1. 고양이")
        pty.send("/")
        XCTAssertTrue(pty.wait { self.line($0, 1) == "/" }, pty.screen.text)
        // The prompt's line and the cursor's show may arrive in two reads: wait for the second.
        XCTAssertTrue(pty.wait { $0.cursorVisible }, "the cursor shows in the prompt")
        pty.send("방충망x")
        pty.send([0x7F])  // backspace: one character
        XCTAssertTrue(pty.wait { self.line($0, 1) == "/ 방충망" }, pty.screen.text)
        pty.send("\r")
        pty.waitFor("1–10 of 21 · sort sim · catalog")
        XCTAssertFalse(pty.screen.cursorVisible)
        // Down to the last loaded row: page 2 comes in.
        pty.send(String(repeating: "j", count: 9))
        pty.waitFor("1–20 of 21 · sort sim · catalog")
        XCTAssertTrue(line(pty.screen, 12).hasPrefix(" 11 "), pty.screen.text)
        pty.send("s")
        pty.waitFor("1–10 of 21 · sort date · catalog")
        XCTAssertTrue(line(pty.screen, 2).hasPrefix("  1 "), "back to rank 1: \(pty.screen.text)")
        pty.send("\u{1B}[B")  // ↓ (CSI B) to rank 2
        pty.send("l")
        XCTAssertTrue(pty.wait { $0.lines[23].hasPrefix("liked: ") }, pty.screen.text)
        let id = String(pty.screen.lines[23].dropFirst("liked: ".count).prefix { $0 != " " })
        let likes = try String(contentsOfFile: home + "/likes.json", encoding: .utf8)
        XCTAssertTrue(likes.contains("\"productId\":\"\(id)\""), likes)
        XCTAssertTrue(line(pty.screen, 3).contains("♥"), "the liked row shows ♥: \(pty.screen.text)")
        pty.send("\r")
        pty.waitFor("Detail · Esc or q goes back")
        pty.waitFor("productId \(id)")
        pty.waitFor("yes, since")
        pty.send("\u{1B}")
        pty.waitFor("Search: 방충망")
        pty.send("?")
        pty.waitFor("keys (any key closes)")
        pty.send("?")
        XCTAssertTrue(pty.wait { !$0.text.contains("keys (any key closes)") })
        pty.send("q")
        let status = pty.waitForExit()
        XCTAssertEqual(status, 0, pty.screen.text)
        assertRestored(pty, before)
        // The query went into the history, as `shopy search` records it.
        let state = try String(contentsOfFile: home + "/state.json", encoding: .utf8)
        XCTAssertTrue(state.contains("방충망"), state)
    }

    func testStopSignalsRestoreTheTerminal() throws {
        for signo in [SIGTERM, SIGHUP, SIGINT] {
            let (pty, before) = try start(["--source", "catalog"])
            pty.waitFor("Popular rankings")
            kill(pty.pid, signo)
            let status = pty.waitForExit()
            XCTAssertEqual(status.map { ($0 >> 8) & 0xFF }, 128 + signo, "exit status after signal \(signo)")
            assertRestored(pty, before)
        }
    }

    /// The terminal is restored first; then the signal takes its default action.
    func testAFatalSignalStillRestoresTheTerminal() throws {
        let (pty, before) = try start(["--source", "catalog"])
        pty.waitFor("Popular rankings")
        kill(pty.pid, SIGABRT)
        let status = try XCTUnwrap(pty.waitForExit(), pty.screen.text)
        XCTAssertEqual(status & 0x7F, SIGABRT, "it still dies of the signal")
        assertRestored(pty, before)
    }

    func testResizeAndTooSmall() throws {
        let (pty, before) = try start(["--source", "catalog", "고양이"])
        pty.waitFor("Search: 고양이")
        pty.resize(rows: 8, columns: 30)
        pty.waitFor("terminal too small: 30×8")
        pty.resize(rows: 30, columns: 100)
        pty.waitFor("Search: 고양이")
        pty.send([0x03])  // Ctrl-C
        XCTAssertEqual(pty.waitForExit(), 0)
        assertRestored(pty, before)
    }

    func testNotATerminal() throws {
        let result = try runShopy(["browse"], home: home)
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderrLines.first, "shopy: browse needs a terminal")
    }

    /// TERM unset, empty or dumb (Emacs's shell and the like): one line and 64, as for a
    /// non-terminal; nothing of the full-screen setup is written.
    func testATerminalThatCannotAddressTheCursorIsRefused() throws {
        for (term, problem) in [("dumb", "TERM is dumb"), ("DUMB", "TERM is dumb"), ("", "TERM is empty"), (nil, "TERM is not set")] as [(String?, String)] {
            let pty = try PseudoTerminal(rows: 24, columns: 80)
            let before = pty.modes()
            var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": home]
            if let term { env["TERM"] = term }
            try pty.spawn([Binary.path("shopy"), "browse", "--source", "catalog"], environment: env)
            let status = try XCTUnwrap(pty.waitForExit(), "browse with \(problem) still runs:\n\(pty.screen.text)")
            XCTAssertEqual((status >> 8) & 0xFF, 64, problem)
            let text = String(decoding: pty.output, as: UTF8.self)
            XCTAssertTrue(pty.screen.text.contains("shopy: browse needs a terminal that can address the cursor (\(problem))"), pty.screen.text)
            for sequence in ["\u{1B}[?1049h", "\u{1B}[H", "\u{1B}[?25l"] {
                XCTAssertFalse(text.contains(sequence), "\(sequence.debugDescription) written with \(problem)")
            }
            assertRestored(pty, before)
        }
    }

    /// The terminal going away under browse (its master side closed, with no SIGHUP since it is
    /// not browse's controlling terminal) is not a quit: browse says why and exits 74.
    func testATerminalThatGoesAwayIsNotASuccess() throws {
        let pty = try PseudoTerminal(rows: 24, columns: 80)
        let env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home]
        try pty.spawn([Binary.path("shopy"), "browse", "--source", "catalog"], environment: env, controllingTerminal: false)
        pty.waitFor("Popular rankings")
        pty.hangUp()
        let status = try XCTUnwrap(pty.waitForExit(), "browse still runs after the terminal went away")
        XCTAssertEqual(status & 0x7F, 0, "it exits, not killed by a signal (status \(status))")
        XCTAssertEqual((status >> 8) & 0xFF, 74, "the terminal gone is an I/O error, not success")
    }

    /// In the background of a process group nobody can bring to the foreground (orphaned: the
    /// kernel drops the stop), browse never touches the terminal and exits 74 with one line.
    func testAnOrphanedBackgroundGroupNeverTakesTheTerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/perl") else { throw XCTSkip("a process group of its own needs perl's setpgrp: /usr/bin/perl is not installed") }
        let pty = try PseudoTerminal(rows: 24, columns: 80)
        let before = pty.modes()
        let result = home + "/result"
        // A group of its own (in the background), whose parents exit: orphaned.
        let inner = "'\(Binary.path("shopy"))' browse --source catalog </dev/tty 2>'\(result).err'; echo \\$? >'\(result)'"
        let script = "(/usr/bin/perl -e 'setpgrp(0, 0); exec @ARGV' /bin/sh -c \"\(inner)\" &); sleep 30"
        let env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home]
        try pty.spawn(["/bin/sh", "-c", script], environment: env)
        let deadline = Date().addingTimeInterval(15)
        func written() -> String? { (try? String(contentsOfFile: result, encoding: .utf8)).flatMap { $0.hasSuffix("\n") ? $0 : nil } }
        while written() == nil && Date() < deadline { pty.pump(milliseconds: 50) }
        let status = try XCTUnwrap(written(), "browse still runs in the background:\n\(pty.screen.text)")
        XCTAssertEqual(status.trimmingCharacters(in: .whitespacesAndNewlines), "74", (try? String(contentsOfFile: result + ".err", encoding: .utf8)) ?? "")
        let error = try String(contentsOfFile: result + ".err", encoding: .utf8)
        XCTAssertEqual(error, "shopy: cannot use the terminal: browse is in the background and nothing can bring it to the foreground\n")
        XCTAssertFalse(String(decoding: pty.output, as: UTF8.self).contains(TerminalModes.enterSequence), "nothing drawn")
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()), "termios untouched")
    }
}
