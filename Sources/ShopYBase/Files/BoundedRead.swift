import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file the user names for `likes import` or `catalog import`: bounded (an import
/// larger than `importLimit` is refused, read in chunks so that /dev/zero-like input never grows
/// without end) and never blocking on open (a FIFO or a device is refused: pipe it to `import -`).
extension FileIO {
    /// The largest import: 512 MiB, about a million likes (about 500 bytes each).
    public static let importLimit = 512 << 20

    /// The file's bytes, or nil when it does not exist. `shown` is the name errors give;
    /// `command` the import that reads stdin, for the hint given with a FIFO or a device.
    public static func readImport(_ path: String, shown: String, command: String = "shopy likes import",
                                  limit: Int = importLimit) throws(StoreError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io(path: shown, operation: "open", errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: shown, operation: "stat", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unusableTarget(path: shown, problem: "it is \(kind(ofMode: info.st_mode)), not a regular file; pipe it in with '\(command) -' instead")
        }
        if Int(info.st_size) > limit { throw tooLarge(shown, limit) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return try readBounded(fd, shown: shown, limit: limit, expected: Int(info.st_size))
    }

    /// Everything `fd` gives until its end (a file, a pipe, stdin), refused once it passes `limit`.
    public static func readBounded(_ fd: Int32, shown: String, limit: Int = importLimit, expected: Int = 0) throws(StoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(expected, 0), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            #if canImport(Glibc)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            #else
            let n = chunk.withUnsafeMutableBytes { Darwin.read(fd, $0.baseAddress!, $0.count) }
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: shown, operation: "read", errno: errno)
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw tooLarge(shown, limit) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    static func tooLarge(_ shown: String, _ limit: Int) -> StoreError {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return .invalidImport(path: shown, problem: "it is larger than \(size), the most shopy imports")
    }

    /// Opens a FIFO, terminal or other device for an export without blocking: a FIFO that no
    /// process reads is refused at once (74) instead of waiting forever; the descriptor is then
    /// made blocking again, for the writes.
    static func openExportDevice(_ path: String) throws(StoreError) -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENXIO { throw .unusableTarget(path: path, problem: "it is a FIFO that no process is reading") }
            throw .io(path: path, operation: "open", errno: errno)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }
}
