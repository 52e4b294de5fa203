import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// The CLI prints diagnostics in one place: prefixes, --quiet, wrapping only on a terminal.
final class DiagnosticsTests: XCTestCase {
    private func sink(quiet: Bool = false, terminal: Bool = false, columns: Int = 40) -> (StderrDiagnostics, IO) {
        var io = IO.capture(environment: ["COLUMNS": "\(columns)"])
        io.quiet = quiet
        io.stderrIsTerminal = terminal
        return (StderrDiagnostics(io: io), io)
    }

    func testPrefixesPerKind() {
        let (diagnostics, io) = sink()
        diagnostics.notice("saved")
        diagnostics.warning("could not record")
        diagnostics.hint("try again")
        XCTAssertEqual(io.stderr.text, "shopy: saved\nshopy: warning: could not record\nhint: try again\n")
        XCTAssertEqual(io.stdout.text, "")
    }

    func testQuietLeavesOutNoticesOnly() {
        let (diagnostics, io) = sink(quiet: true)
        diagnostics.notice("saved")
        diagnostics.warning("could not record")
        diagnostics.hint("try again")
        XCTAssertEqual(io.stderr.text, "shopy: warning: could not record\nhint: try again\n")
    }

    func testForeignTextIsCleaned() {
        let (diagnostics, io) = sink()
        let hostile = "evil\u{1B}]52;c;AAAA\u{07}\nname"
        diagnostics.warning("could not read \(hostile)")
        XCTAssertFalse(io.stderr.text.contains("\u{1B}"))
        XCTAssertEqual(io.stderr.text.filter { $0 == "\n" }.count, 1, io.stderr.text)
    }

    func testWrapsOnlyOnATerminal() {
        let long = TerminalText(sanitizing: String(repeating: "word ", count: 20).trimmingASCIIWhitespace())
        let (piped, pipedIO) = sink()
        piped.notice(long, wraps: true)
        XCTAssertEqual(pipedIO.stderr.text.filter { $0 == "\n" }.count, 1)
        let (terminal, terminalIO) = sink(terminal: true)
        terminal.notice(long, wraps: true)
        let lines = terminalIO.stderr.text.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 1)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 40 }, terminalIO.stderr.text)
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix("       ") }, "continuation lines hang under the prefix")
    }

    func testContextSendsToTheSinkGiven() throws {
        var context = Context(io: .capture(), store: SettingsStore(directory: NSTemporaryDirectory() + "/shopy-diagnostics-\(UUID().uuidString)"))
        let collected = CollectedDiagnostics()
        context.diagnosticsSink = collected
        context.diagnostics.notice("a")
        context.diagnostics.warning("b")
        XCTAssertEqual(collected.all, [Diagnostic(.notice, "a"), Diagnostic(.warning, "b")])
        XCTAssertEqual(context.io.stderr.text, "")
    }
}
