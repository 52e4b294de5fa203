import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

/// A pseudo-terminal with a program on its slave side (in a session of its own, the slave its
/// controlling terminal) and a model screen fed from the master side.
final class PseudoTerminal {
    /// -1 once hung up (`hangUp`).
    private(set) var master: Int32
    let slave: Int32
    let slavePath: String
    private(set) var pid: pid_t = 0
    private(set) var screen: TerminalScreen
    private(set) var output: [UInt8] = []
    private(set) var exitStatus: Int32?

    /// posix_openpt, grantpt, unlockpt and ptsname, which Swift's Glibc module leaves out
    /// (they need _XOPEN_SOURCE), looked up in the C library.
    typealias IntFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    static func function<T>(_ name: String, as: T.Type) -> T? {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }

    init(rows: Int, columns: Int) throws {
        guard let openpt = Self.function("posix_openpt", as: IntFunction.self), let grant = Self.function("grantpt", as: IntFunction.self),
              let unlock = Self.function("unlockpt", as: IntFunction.self), let name = Self.function("ptsname", as: NameFunction.self) else {
            throw XCTSkip("posix_openpt, grantpt, unlockpt or ptsname not found in the C library")
        }
        master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let path = name(master) else {
            throw XCTSkip("no pseudo-terminals here (posix_openpt: \(String(cString: strerror(errno))))")
        }
        slavePath = String(cString: path)
        slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw XCTSkip("cannot open \(slavePath): \(String(cString: strerror(errno)))") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        screen = TerminalScreen(rows: rows, columns: columns)
        resize(rows: rows, columns: columns)
    }

    deinit {
        if pid > 0 && exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if master >= 0 { close(master) }
        close(slave)
    }

    /// Closes the master side: the terminal is gone (reads on the slave side fail).
    func hangUp() {
        guard master >= 0 else { return }
        close(master)
        master = -1
    }

    /// Sets the window size (the program gets SIGWINCH); the model screen starts over at that size.
    func resize(rows: Int, columns: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        #if canImport(Glibc)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        #else
        _ = ioctl(master, TIOCSWINSZ, &size)
        #endif
        if pid > 0 { screen = TerminalScreen(rows: rows, columns: columns) }
    }

    /// `controllingTerminal`: false starts the program in the test's session, with the slave on
    /// its standard descriptors but not its controlling terminal (no job control, and no SIGHUP
    /// when the master side closes).
    func spawn(_ argv: [String], environment: [String: String], controllingTerminal: Bool = true) throws {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR | (controllingTerminal ? 0 : O_NOCTTY), 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own: opening the slave makes it the controlling terminal.
        if controllingTerminal { posix_spawnattr_setflags(&attributes, Int16(0x80)) }  // POSIX_SPAWN_SETSID
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard rc == 0 else { throw XCTSkip("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the program wrote for up to `milliseconds`; true when something came.
    @discardableResult
    func pump(milliseconds: Int32) -> Bool {
        guard master >= 0 else {
            usleep(useconds_t(milliseconds) * 1000)
            return false
        }
        var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(master, &buffer, buffer.count)
        guard n > 0 else { return false }
        output += buffer[0..<n]
        screen.feed(buffer[0..<n])
        return true
    }

    /// Waits until `predicate` holds for the screen; false after `timeout` seconds.
    func wait(timeout: Double = 15, until predicate: (TerminalScreen) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(screen) {
            if Date() > deadline { return false }
            pump(milliseconds: 50)
        }
        return true
    }

    func waitFor(_ text: String, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) {
        if !wait(timeout: timeout, until: { $0.text.contains(text) }) {
            XCTFail("the screen never showed '\(text)':\n\(screen.text)", file: file, line: line)
        }
    }

    /// Waits for the program to end (draining its output meanwhile); the raw wait status.
    func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                while pump(milliseconds: 10) {}
                exitStatus = status
                return status
            }
            pump(milliseconds: 20)
        }
        return nil
    }

    func modes() -> termios {
        var t = termios()
        tcgetattr(slave, &t)
        return t
    }

    static func same(_ a: termios, _ b: termios) -> Bool {
        var a = a, b = b
        return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_lflag == b.c_lflag && a.c_cflag == b.c_cflag
            && withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
    }
}
