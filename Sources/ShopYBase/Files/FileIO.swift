import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable file operations on POSIX: Foundation's atomic write on Linux neither keeps
/// permissions nor syncs the directory, so shopy does it by hand.
public enum FileIO {
    /// Where shopy keeps its files: SHOPY_HOME, else $XDG_DATA_HOME/shopy, else ~/.local/share/shopy.
    public static func home(environment: [String: String]) -> String {
        if let home = environment["SHOPY_HOME"], !home.isEmpty { return home }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") { return xdg + "/shopy" }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return user + "/.local/share/shopy"
    }

    /// Creates `path` (and parents) with mode 0700 when missing.
    /// Creates `path` (and missing parents) when missing; the directory itself ends up 0700
    /// whatever the umask. An existing directory is left as it is (SHOPY_HOME may be a folder
    /// the user chose for other things too); `shopy doctor` flags and `--repair` fixes its mode.
    public static func ensureDirectory(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw .io(path: path, operation: "use the directory", errno: ENOTDIR) }
            return
        }
        // Missing parents are made private too: they lead only to our files.
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path && parent != "/" { try ensureDirectory(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .io(path: path, operation: "create the directory", errno: errno) }
        _ = chmod(path, 0o700)  // the umask may have taken bits away
    }

    /// The whole file, or nil when it does not exist. Follows links and reads FIFOs: for files
    /// the user names (`likes import`); shopy's own files go through `readStoreFile`.
    public static func read(_ path: String) throws(StoreError) -> [UInt8]? {
        guard let fd = try openForReading(path) else { return nil }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// A file the user names, opened for reading (links followed); nil when it does not exist.
    public static func openForReading(_ path: String) throws(StoreError) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: path, operation: "open", errno: errno)
        }
        return fd
    }

    /// One of shopy's own files (a store file, a lock, the journal or the index), opened without
    /// following a symbolic link and without blocking on a FIFO: anything but a regular file is
    /// refused (74, named). Nil when it does not exist.
    public static func openStoreFile(_ path: String, flags: Int32 = O_RDONLY) throws(StoreError) -> (fd: Int32, info: stat)? {
        let fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            if code == ENOENT && flags & O_CREAT == 0 { return nil }
            if code == ELOOP || code == ENXIO || code == EISDIR || code == EMLINK {
                throw .unsafeFile(path: path, kind: kind(of: path) ?? "not a regular file")
            }
            throw .io(path: path, operation: "open", errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .io(path: path, operation: "stat", errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .unsafeFile(path: path, kind: kind(ofMode: info.st_mode))
        }
        return (fd, info)
    }

    /// A store file's bytes (see `openStoreFile`), or nil when it does not exist. `limit` is
    /// the most that file can legitimately hold (`StoreFileLimits`): a larger one is damaged,
    /// found so by the size of the descriptor opened, and no more than `limit + 1` bytes are
    /// ever read of it (it may grow after the check).
    public static func readStoreFile(_ path: String, limit: Int) throws(StoreError) -> [UInt8]? {
        guard let (fd, _) = try openStoreFile(path) else { return nil }
        defer { close(fd) }
        return try readAll(fd, path: path, limit: limit)
    }

    /// The error for a store file larger than `limit` (`size`: at least that many bytes).
    package static func tooLarge(_ path: String, size: Int, limit: Int) -> StoreError {
        .damaged(path: path, problem: "it is \(describe(bytes: size)), more than the \(describe(bytes: limit)) shopy ever writes there")
    }

    /// The refusal of a write that would make a store file larger than its reader accepts.
    package static func unstorable(_ path: String, size: Int, limit: Int) -> StoreError {
        .unstorable(path: path, problem: "it would be \(describe(bytes: size)), more than the \(describe(bytes: limit)) shopy reads back")
    }

    /// `512 MiB`, `3 GiB`, `700 bytes`, or `1.0 MiB (1,048,577 bytes)` when not a whole
    /// number of units: a size in words for a message.
    package static func describe(bytes: Int) -> String {
        func scaled(_ unit: Int, _ name: String) -> String {
            if bytes % unit == 0 { return "\(bytes / unit) \(name)" }
            let tenths = Int((Double(bytes) / Double(unit) * 10).rounded(.down))
            return "\(tenths / 10).\(tenths % 10) \(name) (\(Money.grouped(bytes)) bytes)"
        }
        if bytes >= 1 << 30 { return scaled(1 << 30, "GiB") }
        if bytes >= 1 << 20 { return scaled(1 << 20, "MiB") }
        if bytes >= 1 << 10 { return scaled(1 << 10, "KiB") }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// What a path that is not a regular file is, in words ("a symbolic link", "a FIFO"…), or
    /// nil for a regular file or nothing.
    public static func kind(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return kind(ofMode: info.st_mode)
    }

    package static func kind(ofMode mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a regular file"
        }
    }

    /// Everything from the start of `fd` to its end; past `limit` bytes (checked on the
    /// descriptor's size first, then on what is read) a store file is refused as too large.
    package static func readAll(_ fd: Int32, path: String, limit: Int = .max) throws(StoreError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, operation: "stat", errno: errno) }
        let size = max(Int(info.st_size), 0)
        if size > limit { throw tooLarge(path, size: size, limit: limit) }
        // At most `limit + 1` bytes: one more than allowed tells a file that grew past it.
        let most = limit == .max ? Int.max : limit + 1
        // Read into uninitialized memory (no zeroing of a large file first); loop until EOF
        // in case the file grew since fstat.
        var capacity = min(size + 1, most)
        var bytes: [UInt8] = []
        while true {
            var failure: Int32 = 0
            var filled = false
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < buffer.count {
                    let n = pread(fd, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if n == 0 { return }
                    count += n
                }
                filled = true
            }
            if failure == ESPIPE {
                // A pipe (import from stdin or a FIFO): read as a stream.
                return try readStream(fd, path: path)
            }
            if failure != 0 { throw .io(path: path, operation: "read", errno: failure) }
            guard filled else { return bytes }
            // Filled the whole buffer: there may be more.
            if capacity >= most { throw tooLarge(path, size: capacity, limit: limit) }
            capacity = capacity > most / 2 ? most : capacity * 2
        }
    }

    /// A pipe read to its end, unbounded (`readBounded`'s loop: the store's own files have no limit).
    private static func readStream(_ fd: Int32, path: String) throws(StoreError) -> [UInt8] {
        try readBounded(fd, shown: path, limit: .max)
    }

    /// Replaces `path` atomically: a temp file in the same directory (O_EXCL, mode 0600), a full
    /// write loop, fsync, rename over the target, fsync of the directory. A crash at any moment
    /// leaves either the old file or the new one, never a mix.
    public static func atomicWrite(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(StoreError) {
        try atomicWrite(pieces: [bytes[...]], to: path, mode: mode)
    }

    /// `atomicWrite` of the concatenation of `pieces`, without concatenating them in memory.
    public static func atomicWrite(pieces: [ArraySlice<UInt8>], to path: String, mode: mode_t = 0o600) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        var fd: Int32 = -1
        var temp = ""
        for _ in 0..<8 {
            temp = "\(directory)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, operation: "create a temporary file for", errno: errno) }
        var ok = false
        defer {
            if !ok {
                close(fd)
                unlink(temp)
            }
        }
        // The umask may have narrowed the mode; we want exactly `mode`.
        if fchmod(fd, mode) != 0 { throw .io(path: temp, operation: "set permissions of", errno: errno) }
        for piece in pieces {
            if let code = writeAll(piece, to: fd) { throw .io(path: path, operation: "write", errno: code) }
        }
        if fsync(fd) != 0 { throw .io(path: path, operation: "sync", errno: errno) }
        if close(fd) != 0 {
            let code = errno
            ok = true
            unlink(temp)
            throw .io(path: path, operation: "close", errno: code)
        }
        ok = true
        if rename(temp, path) != 0 {
            let code = errno
            unlink(temp)
            throw .io(path: path, operation: "replace", errno: code)
        }
        syncDirectory(directory)
    }

    /// Writes a file the user named: a regular file (or a new one) is replaced atomically; a
    /// symbolic link is followed, so the file it points to is replaced and the link stays; a
    /// FIFO, a terminal or another device (`/dev/stdout`) is written to as it is.
    public static func writeExport(_ bytes: [UInt8], to path: String) throws(StoreError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return try atomicWrite(bytes, to: path) }
        var target = stat()
        let followed = stat(path, &target) == 0  // false for a dangling link
        if followed && target.st_mode & S_IFMT == S_IFDIR { throw .io(path: path, operation: "write to", errno: EISDIR) }
        if !followed || target.st_mode & S_IFMT == S_IFREG {
            guard info.st_mode & S_IFMT == S_IFLNK else { return try atomicWrite(bytes, to: path) }
            // Replace the file the link points to; the link stays.
            if let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return try atomicWrite(bytes, to: String(cString: resolved))
            }
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
            return try atomicWrite(bytes, to: destination.hasPrefix("/") ? destination : (path as NSString).deletingLastPathComponent + "/" + destination)
        }
        let fd = try openExportDevice(path)
        defer { close(fd) }
        if let code = writeAll(bytes[...], to: fd) { throw .io(path: path, operation: "write to", errno: code) }
    }

    /// Writes all of `bytes` to `fd` (short writes and EINTR retried); the errno of a failure,
    /// or nil.
    public static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd` (short writes and EINTR retried); the errno of a failure,
    /// or nil.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            #else
            let n = Darwin.write(fd, base + offset, bytes.count - offset)
            #endif
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return n < 0 ? errno : EIO
            }
        }
        return nil
    }

    /// A path `directory/PREFIX-TIME.json` (then `-2`, `-3`… when taken) for files kept beside
    /// the store: backups and damaged files moved aside.
    public static func timestampedPath(in directory: String, prefix: String, at time: Date, extension ext: String = "json") -> String {
        var t = time_t(Int(time.timeIntervalSince1970.rounded(.down)))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
        var path = directory + "/\(prefix)-\(stamp).\(ext)"
        var n = 1
        var info = stat()
        while lstat(path, &info) == 0 {
            n += 1
            path = directory + "/\(prefix)-\(stamp)-\(n).\(ext)"
        }
        return path
    }

    /// fsync of a directory makes a rename in it durable.
    public static func syncDirectory(_ directory: String) {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Permission bits of a file, or nil when missing.
    public static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}

/// An exclusive advisory lock (flock) on a sidecar lock file that is never replaced, plus an
/// in-process lock, since flock does not order threads of one process reliably.
public final class FileLock {
    private static let registry = NSLock()
    nonisolated(unsafe) private static var processLocks: [String: NSLock] = [:]

    private let fd: Int32
    private let processLock: NSLock

    /// Blocks until the lock is ours.
    public init(path: String) throws(StoreError) {
        FileLock.registry.lock()
        let lock = FileLock.processLocks[path] ?? NSLock()
        FileLock.processLocks[path] = lock
        FileLock.registry.unlock()
        processLock = lock
        processLock.lock()
        // Never through a link nor onto a FIFO (issue 8): the lock is opened as it is, and the
        // mode is set on the descriptor opened, not on whatever a path leads to.
        let fd: Int32
        do {
            fd = try FileIO.openStoreFile(path, flags: O_RDWR | O_CREAT)!.fd
        } catch {
            processLock.unlock()
            if case .io(_, _, let code) = error { throw .io(path: path, operation: "open the lock file", errno: code) }
            throw error
        }
        _ = fchmod(fd, 0o600)  // whatever the umask made of it
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            processLock.unlock()
            throw .io(path: path, operation: "lock", errno: code)
        }
        self.fd = fd
    }

    /// The lock if it is free at once (for upkeep a reader may skip), else nil: never waits.
    public init?(attempting path: String) {
        FileLock.registry.lock()
        let lock = FileLock.processLocks[path] ?? NSLock()
        FileLock.processLocks[path] = lock
        FileLock.registry.unlock()
        guard lock.try() else { return nil }
        guard let fd = try? FileIO.openStoreFile(path, flags: O_RDWR | O_CREAT)?.fd else {
            lock.unlock()
            return nil
        }
        _ = fchmod(fd, 0o600)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            lock.unlock()
            return nil
        }
        processLock = lock
        self.fd = fd
    }

    /// Releases the lock (closing the descriptor drops the flock).
    public func release() {
        close(fd)
        processLock.unlock()
    }
}
