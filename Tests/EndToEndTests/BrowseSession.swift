import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

/// `shopy browse` in a pseudo-terminal (optionally under an interactive shell with job control),
/// for the tests of signals and long input.
final class BrowseSession {
    let pty: PseudoTerminal
    let before: termios
    let home: String

    /// browse alone, in a session of its own (an orphaned process group: a stop signal is dropped
    /// by the kernel there). Core dumps are off, so a signal whose default dumps one leaves none.
    init(home: String, arguments: [String] = ["--source", "catalog"], rows: Int = 24, columns: Int = 80) throws {
        pty = try PseudoTerminal(rows: rows, columns: columns)
        before = pty.modes()
        self.home = home
        try pty.spawn(["/bin/sh", "-c", "ulimit -c 0; exec \"$0\" browse \"$@\"", Binary.path("shopy")] + arguments, environment: Self.environment(home))
    }

    /// An interactive bash with job control on the terminal, browse started from it.
    init(shellHome home: String, rows: Int = 24, columns: Int = 80) throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("job control needs an interactive shell: /bin/bash is not installed") }
        pty = try PseudoTerminal(rows: rows, columns: columns)
        before = pty.modes()
        self.home = home
        var environment = Self.environment(home)
        environment["PS1"] = "job$ "
        try pty.spawn(["/bin/bash", "--norc", "--noprofile", "-i"], environment: environment)
    }

    static func environment(_ home: String) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home]
    }

    /// Line `n` below the tab bar (one further down while the offline banner shows).
    func line(_ screen: TerminalScreen, _ n: Int) -> String {
        let banner = screen.lines[1].hasPrefix(" offline — ") ? 1 : 0
        return screen.lines[n + banner]
    }

    /// Whether the terminal is as browse found it: modes, screen, cursor, paste, wrap.
    func assertRestored(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()), "termios restored", file: file, line: line)
        assertScreenRestored(file: file, line: line)
    }

    /// `bracketedPaste`: false where a shell's line editor (readline turns it on) has the terminal.
    func assertScreenRestored(bracketedPaste: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(pty.screen.alternateScreen, "alternate screen left", file: file, line: line)
        XCTAssertTrue(pty.screen.cursorVisible, "cursor shown", file: file, line: line)
        if bracketedPaste { XCTAssertFalse(pty.screen.bracketedPaste, "bracketed paste off", file: file, line: line) }
        XCTAssertTrue(pty.screen.autowrap, "autowrap back on", file: file, line: line)
    }

    /// Whether the terminal was given back and then taken again since `mark` (an offset in the
    /// output): the alternate screen left, then entered.
    func leftAndCameBack(since mark: Int) -> Bool {
        let after = Array(pty.output[mark...])
        let leave = Array("\u{1B}[?1049l".utf8), enter = Array("\u{1B}[?1049h".utf8)
        guard let left = Self.find(leave, in: after, from: 0) else { return false }
        return Self.find(enter, in: after, from: left) != nil
    }

    /// Whether the program wrote `text` since `mark` (an offset in the output): the model
    /// screen does not scroll, so a line written at its bottom can be overwritten.
    func wrote(_ text: String, since mark: Int) -> Bool {
        Self.find(Array(text.utf8), in: Array(pty.output[mark...]), from: 0) != nil
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Whether browse has the terminal: raw mode (no echo, no canonical input), alternate screen.
    var browseHasTheTerminal: Bool {
        let modes = pty.modes()
        return modes.c_lflag & tcflag_t(ICANON | ECHO) == 0 && pty.screen.alternateScreen && !pty.screen.cursorVisible
    }
}
