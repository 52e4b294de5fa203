import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import CShopYShim
import ShopYBase

/// Where a command's text goes: a file descriptor (buffered) or memory (for tests).
public final class OutputSink: @unchecked Sendable {
    private let lock = NSLock()
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private var captured: [UInt8] = []
    private let lineBuffered: Bool
    /// A status line (a progress bar) at the bottom of a terminal: other writes clear it first
    /// and draw it again after their line, so trace lines never land in the middle of it.
    private var status: [UInt8]?
    private static let clearLine: [UInt8] = Array("\r\u{1B}[K".utf8)
    /// Whether this sink writes to the process's own stdout (fd 1).
    public var isFileDescriptor1: Bool { fd == 1 }

    private var _brokenPipe = false
    private var _writeError: Int32?

    /// Set once a write failed with EPIPE: the reader went away (`shopy search … | head`).
    /// Read under the lock: the watch loop reads it while other threads write.
    public var brokenPipe: Bool {
        lock.lock()
        defer { lock.unlock() }
        return _brokenPipe
    }

    /// The errno of a write that failed otherwise (a full disk, a closed descriptor): the
    /// output is incomplete, which the exit code must say.
    public var writeError: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return _writeError
    }

    /// Set when the descriptor was closed when shopy started (`2>&-`): it is /dev/null now, and
    /// the first write records EBADF instead of vanishing there.
    private let closedAtStart: Bool

    /// Writes to `fd`; with `lineBuffered` each complete line goes out at once (for stderr).
    public init(fd: Int32, lineBuffered: Bool = false, closedAtStart: Bool = false) {
        self.fd = fd
        self.lineBuffered = lineBuffered
        self.closedAtStart = closedAtStart
    }

    /// Keeps everything in memory; read it with `text`.
    public init() {
        self.fd = nil
        self.lineBuffered = false
        self.closedAtStart = false
    }

    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    public func write(bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard let status, bytes.last == 0x0A else { return append(bytes) }
        append(Self.clearLine + bytes + status)
    }

    /// Shows (or replaces) the status line; it stays below whatever is written until `clearStatus`.
    public func showStatus(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        status = Array(text.utf8)
        append(Self.clearLine + status!)
        if let fd { drain(fd) }
    }

    public func clearStatus() {
        lock.lock()
        defer { lock.unlock() }
        guard status != nil else { return }
        status = nil
        append(Self.clearLine)
        if let fd { drain(fd) }
    }

    private func append(_ bytes: [UInt8]) {
        guard let fd else {
            captured.append(contentsOf: bytes)
            return
        }
        if closedAtStart {
            if _writeError == nil { _writeError = EBADF }
            return
        }
        if bytes.count >= 64 * 1024 {
            // Large output (a 10,000-like listing) goes out directly instead of through a copy.
            drain(fd)
            writeAll(bytes, to: fd)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 * 1024 || (lineBuffered && bytes.contains(0x0A)) { drain(fd) }
    }

    /// Writes a line (adds the newline).
    public func line(_ text: String = "") {
        write(text + "\n")
    }

    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        if let fd { drain(fd) }
    }

    /// What was written to an in-memory sink.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: captured, as: UTF8.self)
    }

    private func drain(_ fd: Int32) {
        writeAll(buffer, to: fd)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: [UInt8], to fd: Int32) {
        // Called with the lock held.
        guard !_brokenPipe && _writeError == nil, let code = FileIO.writeAll(bytes[...], to: fd) else { return }
        if code == EPIPE { _brokenPipe = true } else { _writeError = code }
    }
}

/// Everything a command touches of the outside world, injected so that commands run in tests.
public struct IO: Sendable {
    public var stdout: OutputSink
    public var stderr: OutputSink
    public var environment: [String: String]
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    /// Columns of the terminal the process runs in, if any (COLUMNS takes precedence: see `columns`).
    public var terminalColumns: Int?
    /// The calendar: the dates written into files and shown.
    public var now: @Sendable () -> Date
    /// The monotonic time waits and deadlines are measured in (rate limits, retries, timeouts);
    /// tests hand in a clock they advance.
    public var clock: any TimerClock = SystemClock()
    public var currentDirectory: String
    /// `--quiet` (or config/environment): notices are left out; errors and warnings still print.
    public var quiet = false
    /// `--color` resolved with the environment and config; nil: the environment alone decides.
    public var colorMode: ColorMode?
    /// Starts other programs (openers, clipboard tools); tests record instead.
    public var launcher: any Launcher = SystemLauncher()
    /// Standard input, read to its end (`likes import -`); in memory: what the test gives.
    /// Standard input, read whole (at most the import limit: larger is an error, not a hang of memory).
    public var stdin: @Sendable () throws(StoreError) -> [UInt8] = { [] }

    public init(stdout: OutputSink, stderr: OutputSink, environment: [String: String], stdoutIsTerminal: Bool = false,
                stderrIsTerminal: Bool = false, terminalColumns: Int? = nil, now: @escaping @Sendable () -> Date = { Date() },
                currentDirectory: String = FileManager.default.currentDirectoryPath) {
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.terminalColumns = terminalColumns
        self.now = now
        self.currentDirectory = currentDirectory
    }

    /// The real process: fds 1 and 2, the real environment and terminal.
    public static func process() -> IO {
        let closed = cshopy_closed_standard_descriptors()
        var io = IO(stdout: OutputSink(fd: 1, closedAtStart: closed & 2 != 0), stderr: OutputSink(fd: 2, lineBuffered: true, closedAtStart: closed & 4 != 0),
           environment: ProcessInfo.processInfo.environment,
           stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1,
           terminalColumns: Terminal.windowColumns())
        io.stdin = { () throws(StoreError) in try FileIO.readBounded(0, shown: "stdin") }
        return io
    }

    /// An in-memory IO for tests.
    public static func capture(environment: [String: String] = [:], stdoutIsTerminal: Bool = false, columns: Int? = nil,
                               now: @escaping @Sendable () -> Date = { Date() }, stdin: [UInt8] = []) -> IO {
        var io = IO(stdout: OutputSink(), stderr: OutputSink(), environment: environment, stdoutIsTerminal: stdoutIsTerminal,
                    stderrIsTerminal: false, terminalColumns: columns, now: now)
        io.stdin = { stdin }
        return io
    }

    /// Whether stdout is the process's fd 1 (not an in-memory sink).
    public var isProcessStdout: Bool { stdout.isFileDescriptor1 }

    /// Width for help and tables: COLUMNS, then the terminal, else 80.
    public var columns: Int {
        if let text = environment["COLUMNS"], let n = Int(text.trimmingASCIIWhitespace()), n > 0 { return max(n, 20) }
        if let terminalColumns, terminalColumns > 0 { return max(terminalColumns, 20) }
        return 80
    }

    /// Colour: `--color`/config when resolved, else the environment (NO_COLOR, CLICOLOR_FORCE,
    /// CLICOLOR, SHOPY_COLOR); `auto` means only on a terminal and never with TERM=dumb.
    public var useColor: Bool { colorEnabled(terminal: stdoutIsTerminal) }

    public var stderrUsesColor: Bool { colorEnabled(terminal: stderrIsTerminal) }

    func colorEnabled(terminal: Bool) -> Bool {
        switch colorMode ?? ColorMode.fromEnvironment(environment)?.mode ?? .auto {
        case .always: return true
        case .never: return false
        case .auto: return terminal && environment["TERM"] != "dumb"
        }
    }
}

public enum Terminal {
    /// The window width of whichever of stdout, stderr is a terminal.
    public static func windowColumns() -> Int? {
        for fd in [Int32(1), 2, 0] {
            var size = winsize()
            #if canImport(Glibc)
            let result = ioctl(fd, UInt(TIOCGWINSZ), &size)
            #else
            let result = ioctl(fd, TIOCGWINSZ, &size)
            #endif
            if result == 0 && size.ws_col > 0 { return Int(size.ws_col) }
        }
        return nil
    }
}

/// ANSI styles, used only when the IO says colour is wanted.
public enum Style: String, Sendable {
    case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"

    public func apply(_ text: String, enabled: Bool) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(rawValue)m\(text)\u{1B}[0m"
    }
}
