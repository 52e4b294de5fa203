#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Writes the local catalog's two files as one change (`LocalCatalog.write`): each to a
/// temporary file beside it (O_EXCL, mode 0600, written whole, fsynced), then the items renamed over catalog.json (the
/// commit), the index over catalog.index, and the directory fsynced once. A crash before the
/// first rename leaves the old catalog; between the renames, an index that does not belong to
/// the items (rebuilt at the next search). Temporary files of writers that died (a kill, a power
/// cut) are removed first, under the catalog's lock.
enum CatalogFileWriter {
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

    /// A temporary file beside `path` (O_EXCL, mode 0600) that `fill` writes (returning the errno
    /// of a failed write, or nil), fsynced unless it is `derived`, and closed; removed when
    /// anything fails. A derived file (the index) is not fsynced: every byte of it is under a
    /// checksum, and one a crash left torn is built again from the items file it belongs to.
    static func temporary(for path: String, directory: String, derived: Bool = false, fill: (Int32) -> Int32?) throws(StoreError) -> String {
        var fd: Int32 = -1
        var temp = ""
        for _ in 0..<8 {
            temp = "\(directory)/.\(name(path)).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, operation: "create a temporary file for", errno: errno) }
        var failure: (operation: String, code: Int32)?
        if fchmod(fd, 0o600) != 0 {
            failure = ("write", errno)
        } else if let code = fill(fd) {
            failure = ("write", code)
        } else if !derived && fsync(fd) != 0 {
            failure = ("write", errno)
        }
        if close(fd) != 0 && failure == nil { failure = ("close", errno) }
        if let failure {
            unlink(temp)
            throw .io(path: path, operation: failure.operation, errno: failure.code)
        }
        return temp
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
