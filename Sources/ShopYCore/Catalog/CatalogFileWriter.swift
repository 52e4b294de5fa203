#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the local catalog's two files as one change: each to a temporary file beside it
/// (O_EXCL, mode 0600, written whole, fsynced), then the items renamed over catalog.json (the
/// commit), the index over catalog.index, and the directory fsynced once. A crash before the
/// first rename leaves the old catalog; between the renames, an index that does not belong to
/// the items (rebuilt at the next search). Temporary files of writers that died (a kill, a power
/// cut) are removed first, under the catalog's lock.
enum CatalogFileWriter {
    static func write(items: [UInt8], to itemsPath: String, index: [UInt8], to indexPath: String, directory: String) throws(StoreError) {
        removeStaleTemporaries(in: directory, names: [name(itemsPath), name(indexPath)])
        let itemsTemp = try temporary(items, for: itemsPath, directory: directory)
        let indexTemp: String
        do { indexTemp = try temporary(index, for: indexPath, directory: directory) } catch {
            unlink(itemsTemp)
            throw error
        }
        try commit(itemsTemp, to: itemsPath, indexTemp, to: indexPath, directory: directory)
    }

    /// The renames (the items first: the commit) and the directory's fsync; the temporary files
    /// are removed when a rename fails.
    static func commit(_ itemsTemp: String, to itemsPath: String, _ indexTemp: String, to indexPath: String, directory: String) throws(StoreError) {
        if rename(itemsTemp, itemsPath) != 0 {
            let code = errno
            unlink(itemsTemp)
            unlink(indexTemp)
            throw .io(path: itemsPath, operation: "replace", errno: code)
        }
        if rename(indexTemp, indexPath) != 0 {
            let code = errno
            unlink(indexTemp)
            FileIO.syncDirectory(directory)
            throw .io(path: indexPath, operation: "replace", errno: code)
        }
        FileIO.syncDirectory(directory)
    }

    static func name(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }

    private static func temporary(_ bytes: [UInt8], for path: String, directory: String) throws(StoreError) -> String {
        try temporary(for: path, directory: directory) { fd in FileIO.writeAll(bytes[...], to: fd) }
    }

    /// A temporary file beside `path` (O_EXCL, mode 0600) that `fill` writes (returning the errno
    /// of a failed write, or nil), fsynced and closed; removed when anything fails.
    static func temporary(for path: String, directory: String, fill: (Int32) -> Int32?) throws(StoreError) -> String {
        try unsynced(for: path, directory: directory, fill: fill).sync()
    }

    /// A temporary file written whole but not yet fsynced: `sync()` (on any thread, once) makes
    /// it durable and closes it. A large file's fsync waits for its last writes to reach the
    /// disk, which other work can overlap.
    struct Unsynced: Sendable {
        let fd: Int32
        let temp: String
        let path: String

        /// The temporary file's path once it is fsynced and closed; removed when either fails.
        func sync() throws(StoreError) -> String {
            if fsync(fd) != 0 {
                let code = errno
                close(fd)
                unlink(temp)
                throw .io(path: path, operation: "write", errno: code)
            }
            if close(fd) != 0 {
                let code = errno
                unlink(temp)
                throw .io(path: path, operation: "close", errno: code)
            }
            return temp
        }
    }

    /// `temporary` up to its fsync.
    static func unsynced(for path: String, directory: String, fill: (Int32) -> Int32?) throws(StoreError) -> Unsynced {
        var fd: Int32 = -1
        var temp = ""
        for _ in 0..<8 {
            temp = "\(directory)/.\(name(path)).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, operation: "create a temporary file for", errno: errno) }
        var failure: Int32?
        if fchmod(fd, 0o600) != 0 { failure = errno } else if let code = fill(fd) { failure = code }
        if let code = failure {
            close(fd)
            unlink(temp)
            throw .io(path: path, operation: "write", errno: code)
        }
        return Unsynced(fd: fd, temp: temp, path: path)
    }

    /// `.NAME.tmp-PID-N` files whose process is gone.
    static func staleTemporaries(in directory: String, names: [String]) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [String] = []
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            for name in names {
                let prefix = ".\(name).tmp-"
                guard entryName.hasPrefix(prefix) else { continue }
                let rest = entryName.dropFirst(prefix.count)
                guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0 else { continue }
                if kill(pid, 0) != 0 && errno == ESRCH { found.append(directory + "/" + entryName) }
            }
        }
        return found.sorted()
    }

    static func removeStaleTemporaries(in directory: String, names: [String]) {
        for path in staleTemporaries(in: directory, names: names) { unlink(path) }
    }
}
