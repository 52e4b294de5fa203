import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Starts the one background `shopy widget refresh` when a refresh is due. A lock file in the
/// store serializes it: the starter takes the lock without waiting, checks again that the
/// refresh is still due (another one may just have finished), and hands the locked descriptor
/// to the child, which holds it until it has written the timeline. So any number of bars
/// calling `shopy widget` at once start at most one refresh.
public protocol WidgetRefreshStarter: Sendable {
    /// Returns true when a refresh was started. `stillDue` is asked under the lock.
    func start(directory: String, name: String, environment: [String: String], stillDue: () -> Bool) -> Bool
}

public enum WidgetRefreshLock {
    public static let fileName = ".widget-refresh.lock"
    /// The descriptor number the child finds the held lock on.
    public static let childDescriptor: Int32 = 3
    public static let environmentKey = "SHOPY_WIDGET_LOCK_FD"

    /// Opens the lock file (never through a link, never blocking on a FIFO) and tries to lock it
    /// without waiting. The descriptor is inheritable (no close-on-exec): the child keeps it.
    /// nil when another process holds it or it cannot be opened.
    public static func tryLock(directory: String) -> Int32? {
        let fd = open(directory + "/" + fileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            close(fd)
            return nil
        }
        return fd
    }

    /// In the child: the lock its starter handed down, when it is really held (locking an
    /// already held lock through the same open file succeeds at once; a stray descriptor 3 that
    /// is not our lock file does not pass the check of its name).
    public static func inherited(environment: [String: String], directory: String) -> Int32? {
        guard environment[environmentKey] == String(childDescriptor) else { return nil }
        let fd = childDescriptor
        var held = stat(), named = stat()
        guard fstat(fd, &held) == 0, lstat(directory + "/" + fileName, &named) == 0,
              held.st_ino == named.st_ino, held.st_dev == named.st_dev, flock(fd, LOCK_EX | LOCK_NB) == 0 else { return nil }
        return fd
    }
}

/// The real starter: posix_spawn of this very executable, in a new session (setsid: no
/// terminal, not killed with the bar's process group), stdin/stdout/stderr on /dev/null, the
/// lock on descriptor 3, no shell.
public struct DetachedRefreshStarter: WidgetRefreshStarter {
    public init() {}

    public func start(directory: String, name: String, environment: [String: String], stillDue: () -> Bool) -> Bool {
        if environment["SHOPY_WIDGET_BACKGROUND"] == "off" { return false }
        guard (try? FileIO.ensureDirectory(directory)) != nil, let fd = WidgetRefreshLock.tryLock(directory: directory) else { return false }
        defer { close(fd) }
        guard stillDue(), let executable = Self.executable() else { return false }
        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #else
        var attributes: posix_spawnattr_t?
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        #if canImport(Glibc)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc ≥ 2.26), a macro Swift does not import
        #else
        let setsid = Int32(POSIX_SPAWN_SETSID)
        #endif
        #if canImport(Darwin)
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        let closeOthers: Int32 = 0
        #endif
        posix_spawnattr_setflags(&attributes, Int16(setsid | closeOthers | Int32(POSIX_SPAWN_SETSIGMASK)))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        for target in [Int32(0), 1, 2] {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, fd, WidgetRefreshLock.childDescriptor)
        // Nothing else goes to the child: a descriptor the bar left open (its pipe to read our
        // output) would otherwise stay open as long as the refresh runs, and the bar would wait.
        #if os(Linux)
        for other in Self.openDescriptors() where other > WidgetRefreshLock.childDescriptor {
            posix_spawn_file_actions_addclose(&actions, other)
        }
        #endif
        var env = environment
        env[WidgetRefreshLock.environmentKey] = String(WidgetRefreshLock.childDescriptor)
        env["SHOPY_WIDGET_BACKGROUND"] = nil
        let argv = [executable, "widget", "refresh", "--name", name, "--background"]
        let envp = env.map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let status = Self.withCStrings(argv) { cArgv in
            Self.withCStrings(envp) { cEnv in posix_spawn(&pid, executable, &actions, &attributes, cArgv, cEnv) }
        }
        if status != 0 {
            WidgetLog.append(directory: directory, "refresh \(name): could not start \(executable): \(StoreError.describe(errno: status))")
            return false
        }
        return true
    }

    /// The descriptors open in this process (/proc/self/fd), for closing them in the child.
    static func openDescriptors() -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return names.compactMap { Int32($0) }.filter { fcntl($0, F_GETFD) >= 0 }
    }

    /// This executable's path (/proc/self/exe on Linux).
    static func executable() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return Bundle.main.executablePath
        #endif
    }

    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// `widget.log` in the store: what background refreshes did and why they failed (a bar never
/// shows it). Kept under 64 KiB: the older half moves to `widget.log.1`.
public enum WidgetLog {
    public static let fileName = "widget.log"
    public static let limit = 64 * 1024

    public static func append(directory: String, _ message: String, now: Date = Date()) {
        let path = directory + "/" + fileName
        var info = stat()
        if lstat(path, &info) == 0, info.st_size > limit { _ = rename(path, path + ".1") }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        let line = WidgetClock.format(now) + " [\(getpid())] " + Sanitizer.clean(message) + "\n"
        _ = FileIO.writeAll(Array(line.utf8)[...], to: fd)
    }
}
