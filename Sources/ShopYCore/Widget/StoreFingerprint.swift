
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap summary of the store's files (size, modification time, inode of each), so that the
/// widget sees a like, a search or a config change without a hook in every writer: files are
/// replaced by rename (new inode) or appended to (new size and time). The widget's own files
/// are not part of it.
public struct StoreFingerprint: Equatable, Sendable {
    public var text: String

    public init(text: String) { self.text = text }

    static let files = ["likes.json", "likes.journal", "likes.index", "preferences.json", "state.json"]

    public static func of(directory: String) -> StoreFingerprint {
        var parts: [String] = []
        for name in files {
            var info = stat()
            if lstat(directory + "/" + name, &info) != 0 {
                parts.append("-")
                continue
            }
            #if canImport(Glibc)
            let seconds = Int(info.st_mtim.tv_sec), nanos = Int(info.st_mtim.tv_nsec)
            #else
            let seconds = Int(info.st_mtimespec.tv_sec), nanos = Int(info.st_mtimespec.tv_nsec)
            #endif
            parts.append("\(info.st_ino).\(info.st_size).\(seconds).\(nanos)")
        }
        return StoreFingerprint(text: parts.joined(separator: ":"))
    }
}
