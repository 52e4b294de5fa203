import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// How a started program ended, as far as shopy waited for it.
public enum LaunchOutcome: Equatable, Sendable {
    case exited(Int32)
    /// Still running when shopy stopped waiting (a browser that stays open): left to run.
    case stillRunning
    /// It could not be started (the errno of posix_spawn).
    case failedToStart(Int32)
}

/// Starts other programs: the seam between `shopy open`/`copy` and the system, so that tests
/// check the exact argv without launching anything. Programs are started directly with their
/// argv (posix_spawn), never through a shell.
public protocol Launcher: Sendable {
    /// The executable `name` on `searchPath` (PATH's value), or `name` itself when it holds a slash and is executable.
    func find(_ name: String, searchPath: String?) -> String?
    /// Runs `argv` (argv[0] a path from `find`). With `attached`, the program shares shopy's
    /// terminal (stdin, stdout, stderr) and is waited for to the end; otherwise its stdin is
    /// `input` (or empty) and its output goes to /dev/null, and shopy waits at most `wait` seconds.
    func run(_ argv: [String], input: [UInt8]?, attached: Bool, wait: Double) -> LaunchOutcome
}

/// The real thing.
public struct SystemLauncher: Launcher {
    public init() {}

    public func find(_ name: String, searchPath: String?) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return Self.isExecutable(name) ? name : nil }
        for directory in (searchPath ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if Self.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    public func run(_ argv: [String], input: [UInt8]?, attached: Bool, wait: Double) -> LaunchOutcome {
        guard !argv.isEmpty else { return .failedToStart(EINVAL) }
        var fds: [Int32] = [-1, -1]
        if !attached && pipe(&fds) != 0 { return .failedToStart(errno) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if !attached {
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // shopy ignores SIGPIPE and `status --watch` blocks SIGINT/SIGTERM; the program started
        // gets the defaults and an empty mask, as if started from the shell.
        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&defaults)
        sigemptyset(&empty)
        for signal in [SIGPIPE, SIGINT, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, environment)
        if !attached { close(fds[0]) }
        guard spawned == 0 else {
            if !attached { close(fds[1]) }
            return .failedToStart(spawned)
        }
        if !attached {
            if let input { _ = FileIO.writeAll(input[...], to: fds[1]) }
            close(fds[1])
        }
        var status: Int32 = 0
        if attached {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return .exited(Self.exitStatus(status))
        }
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return .exited(Self.exitStatus(status)) }
            if done < 0 && errno != EINTR { return .exited(-1) }
            if Date() >= deadline { return .stillRunning }
            usleep(20_000)
        }
    }

    static func exitStatus(_ status: Int32) -> Int32 {
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
