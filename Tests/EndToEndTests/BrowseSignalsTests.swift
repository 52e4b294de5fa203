import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CShopYShim
@testable import ShopYCore
@testable import ShopYCLI

/// Ctrl-Z, `kill -TSTP`, SIGSTOP/SIGCONT and every signal that ends the process: the terminal is
/// given back before browse stops or ends, and taken again, with a full redraw, once it runs on.
final class BrowseSignalsTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-browse-signals-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    /// browse's process, the shell's child.
    func child(of shell: pid_t) -> pid_t? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for name in names {
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == shell, let cmdline = try? String(contentsOfFile: "/proc/\(name)/cmdline", encoding: .utf8),
               cmdline.contains("browse") { return pid }
        }
        return nil
    }

    /// Ctrl-Z under a shell with job control: the shell gets its terminal back (browse is stopped
    /// and says nothing on the alternate screen), and `fg` brings browse back, redrawn, in raw
    /// mode. Then again with `kill -TSTP` from outside.
    func testSuspendUnderAShellAndComeBackWithFg() throws {
        let session = try BrowseSession(shellHome: home)
        let pty = session.pty
        pty.waitFor("job$")
        pty.send("'\(Binary.path("shopy"))' browse --source catalog\r")
        pty.waitFor("Popular rankings")
        XCTAssertTrue(pty.wait { _ in session.browseHasTheTerminal }, "raw mode and the alternate screen")

        var mark = pty.output.count
        pty.send([0x1A])  // Ctrl-Z
        XCTAssertTrue(pty.wait { _ in session.wrote("Stopped", since: mark) }, "the shell reports the stopped job:\n\(pty.screen.text)")
        session.assertScreenRestored(bracketedPaste: false)
        pty.waitFor("job$")

        pty.send("fg\r")
        XCTAssertTrue(pty.wait { $0.text.contains("Popular rankings") && session.browseHasTheTerminal }, "redrawn after fg:\n\(pty.screen.text)")
        // Keys reach browse again.
        pty.send("2")
        pty.waitFor("Search · press / to type a query")

        let browse = try XCTUnwrap(child(of: pty.pid), "browse's process")
        mark = pty.output.count
        kill(browse, SIGTSTP)
        XCTAssertTrue(pty.wait { session.wrote("Stopped", since: mark) && !$0.alternateScreen }, "kill -TSTP:\n\(pty.screen.text)")
        pty.send("fg\r")
        XCTAssertTrue(pty.wait { $0.text.contains("Search · press / to type a query") && session.browseHasTheTerminal }, pty.screen.text)

        pty.send("q")
        pty.waitFor("job$")
        session.assertScreenRestored(bracketedPaste: false)
        pty.send("exit\r")
        XCTAssertNotNil(pty.waitForExit())
    }

    /// Asks the shell for its jobs until the listing shows `state` (or `timeout` seconds pass).
    func waitForJobState(_ state: String, _ session: BrowseSession, since mark: Int, timeout: Double = 15) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            session.pty.send("jobs\r")
            _ = session.pty.wait(timeout: 0.5) { _ in session.wrote(state, since: mark) }
            if session.wrote(state, since: mark) { return true }
        }
        return false
    }

    /// Started in the background (`&`): browse neither sets raw mode nor draws over the shell;
    /// it stops (SIGTTOU, as vim and less do) until `fg`, which brings it up in raw mode.
    func testStartedInTheBackgroundWaitsForFg() throws {
        let session = try BrowseSession(shellHome: home)
        let pty = session.pty
        pty.waitFor("job$")
        let mark = pty.output.count
        pty.send("'\(Binary.path("shopy"))' browse --source catalog &\r")
        XCTAssertTrue(waitForJobState("Stopped", session, since: mark), "the background job stops itself:\n\(pty.screen.text)")
        XCTAssertFalse(session.wrote(TerminalModes.enterSequence, since: mark), "nothing drawn from the background")
        XCTAssertFalse(pty.screen.text.contains("Popular rankings"), pty.screen.text)
        XCTAssertFalse(pty.screen.alternateScreen)

        bringToForegroundAndQuit(session)
    }

    /// Ctrl-Z, `bg`, `fg`: continued in the background browse stops again (it does not touch the
    /// terminal there), and `fg` brings it back in raw mode, redrawn, taking keys.
    func testSuspendThenBgThenFg() throws {
        let session = try BrowseSession(shellHome: home)
        let pty = session.pty
        pty.waitFor("job$")
        pty.send("'\(Binary.path("shopy"))' browse --source catalog\r")
        pty.waitFor("Popular rankings")
        XCTAssertTrue(pty.wait { _ in session.browseHasTheTerminal }, "raw mode and the alternate screen")
        var mark = pty.output.count
        pty.send([0x1A])  // Ctrl-Z
        XCTAssertTrue(pty.wait { _ in session.wrote("Stopped", since: mark) }, "the shell reports the stopped job:\n\(pty.screen.text)")
        pty.waitFor("job$")

        mark = pty.output.count
        pty.send("bg\r")
        XCTAssertTrue(waitForJobState("Stopped", session, since: mark), "continued in the background, it stops again:\n\(pty.screen.text)")
        XCTAssertFalse(session.wrote(TerminalModes.enterSequence, since: mark), "nothing drawn from the background")
        XCTAssertFalse(session.browseHasTheTerminal)

        bringToForegroundAndQuit(session)
    }

    /// `fg`: browse comes back in raw mode, redrawn, and takes keys; `q` restores the terminal;
    /// the shell ends.
    func bringToForegroundAndQuit(_ session: BrowseSession, file: StaticString = #filePath, line: UInt = #line) {
        let pty = session.pty
        pty.send("fg\r")
        XCTAssertTrue(pty.wait { $0.text.contains("Popular rankings") && session.browseHasTheTerminal }, "up after fg:\n\(pty.screen.text)",
                      file: file, line: line)
        pty.send("2")
        pty.waitFor("Search · press / to type a query")
        pty.send("q")
        pty.waitFor("job$")
        session.assertScreenRestored(bracketedPaste: false)
        pty.send("exit\r")
        XCTAssertNotNil(pty.waitForExit(), file: file, line: line)
    }

    /// A stop browse cannot catch (SIGSTOP): while it is stopped the terminal is changed (cooked
    /// mode, text on the screen); SIGCONT brings back raw mode and a full frame.
    func testContinueAfterSIGSTOPRedrawsAndReappliesRawMode() throws {
        let session = try BrowseSession(home: home)
        let pty = session.pty
        pty.waitFor("Popular rankings")
        XCTAssertTrue(pty.wait { _ in session.browseHasTheTerminal })
        kill(pty.pid, SIGSTOP)
        var cooked = session.before
        tcsetattr(pty.slave, TCSANOW, &cooked)
        let scribble = Array("\u{1B}[2J\u{1B}[Hscribbled by someone else".utf8)
        _ = scribble.withUnsafeBytes { write(pty.slave, $0.baseAddress, $0.count) }
        pty.waitFor("scribbled by someone else")
        XCTAssertFalse(session.browseHasTheTerminal, "cooked while stopped")
        let mark = pty.output.count
        kill(pty.pid, SIGCONT)
        XCTAssertTrue(pty.wait { $0.text.contains("Popular rankings") && !$0.text.contains("scribbled") && session.browseHasTheTerminal },
                      pty.screen.text)
        XCTAssertTrue(session.wrote(TerminalModes.enterSequence, since: mark), "the alternate screen set up again")
        pty.send("q")
        XCTAssertEqual(pty.waitForExit(), 0)
        session.assertRestored()
    }

    /// Without job control (an orphaned process group, as here) the kernel drops a stop signal:
    /// browse gives the terminal back, is not stopped, and takes it again at once.
    func testTSTPWithoutJobControlComesStraightBack() throws {
        let session = try BrowseSession(home: home)
        let pty = session.pty
        pty.waitFor("Popular rankings")
        let mark = pty.output.count
        kill(pty.pid, SIGTSTP)
        XCTAssertTrue(pty.wait { _ in session.leftAndCameBack(since: mark) }, "given back, then taken again")
        XCTAssertTrue(pty.wait { $0.text.contains("Popular rankings") && session.browseHasTheTerminal }, pty.screen.text)
        pty.send([0x03])  // Ctrl-C
        XCTAssertEqual(pty.waitForExit(), 0)
        session.assertRestored()
    }

    /// Every signal that ends the process from outside: the terminal is restored, then the
    /// process ends of that signal, as it would have without browse.
    func testEndingSignalsRestoreTheTerminalFirst() throws {
        let realtime = cshopy_sigrtmin() > 0 ? [cshopy_sigrtmin() + 3] : []
        for signo in [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF] + realtime {
            let session = try BrowseSession(home: home)
            let pty = session.pty
            pty.waitFor("Popular rankings")
            kill(pty.pid, signo)
            let status = try XCTUnwrap(pty.waitForExit(), "signal \(signo): \(pty.screen.text)")
            XCTAssertEqual(status & 0x7F, signo, "signal \(signo): it still ends of the signal (status \(status))")
            session.assertRestored()
        }
    }
}
