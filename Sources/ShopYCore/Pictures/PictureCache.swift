import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Pictures already fetched, in `$XDG_CACHE_HOME/shopy/images` (else `~/.cache/shopy/images`):
/// one 0600 file a picture in a 0700 directory, bounded in all to `limit` bytes, the least
/// recently drawn going first. A cached picture draws with no network. Each file starts with a
/// line naming its URL and one naming its format, so that a file is only ever taken for its own
/// URL; a damaged, foreign or oversized file is a miss (and is replaced by the next fetch).
public struct PictureCache: Sendable {
    public let directory: String
    public let limit: Int

    public static let defaultLimit = 100 << 20
    private static let magic = Array("shopy-picture 1\n".utf8)

    public init(directory: String, limit: Int = PictureCache.defaultLimit) {
        self.directory = directory
        self.limit = limit
    }

    /// The cache of this environment: XDG_CACHE_HOME when it is an absolute path, else HOME's .cache.
    public init(environment: [String: String]) {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = home + "/.cache"
        }
        self.init(directory: base + "/shopy/images")
    }

    /// The file that holds `url`'s picture: two FNV-1a hashes of the URL, 128 bits in hex.
    public func path(for url: String) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in url.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001B3
            }
            return hash
        }
        let a = String(fnv(0xCBF29CE484222325), radix: 16), b = String(fnv(0x84222325CBF29CE4), radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - a.count) + a + String(repeating: "0", count: 16 - b.count) + b
    }

    /// The cached bytes of `url` and their format, or nil (a miss). A hit marks the file as just
    /// used, so that it is among the last to go.
    public func read(_ url: String) -> (bytes: [UInt8], format: PictureFormat)? {
        let path = path(for: url)
        var info = stat()
        let headerMax = Self.magic.count + 4096 + 16
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
              Int(info.st_size) <= PictureLimits.maxBytes + headerMax,
              let bytes = (try? FileIO.readStoreFile(path, limit: PictureLimits.maxBytes + headerMax)) ?? nil else { return nil }
        guard bytes.starts(with: Self.magic) else { return nil }
        var rest = bytes[Self.magic.count...]
        guard let urlEnd = rest.firstIndex(of: 0x0A), String(decoding: rest[..<urlEnd], as: UTF8.self) == url else { return nil }
        rest = rest[(urlEnd + 1)...]
        guard let formatEnd = rest.firstIndex(of: 0x0A),
              let format = PictureFormat(rawValue: String(decoding: rest[..<formatEnd], as: UTF8.self)) else { return nil }
        _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)  // both times: now
        return (Array(rest[(formatEnd + 1)...]), format)
    }

    /// Keeps `bytes` (a picture that decoded) for `url`, then trims the cache to its limit.
    /// Throws when the directory or the file cannot be written (the caller traces it and goes on).
    public func write(_ url: String, bytes: [UInt8], format: PictureFormat) throws(StoreError) {
        guard !url.utf8.contains(0x0A), url.utf8.count <= 4096, bytes.count <= PictureLimits.maxBytes else { return }
        try FileIO.ensureDirectory(directory)
        let header = Self.magic + Array(url.utf8) + [0x0A] + Array(format.rawValue.utf8) + [0x0A]
        try FileIO.atomicWrite(pieces: [header[...], bytes[...]], to: path(for: url), mode: 0o600)
        trim()
    }

    /// Removes the least recently used files until the rest fit in `limit` (temporary files of
    /// interrupted writes older than a minute go too). Another shopy trimming at the same time
    /// is harmless: a file already gone is skipped.
    public func trim() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        var files: [(path: String, size: Int, used: timespec)] = []
        let now = time(nil)
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasPrefix(".") {
                if now - Self.modified(info).tv_sec > 60 { unlink(path) }
                continue
            }
            files.append((path, Int(info.st_size), Self.modified(info)))
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > limit else { return }
        files.sort { $0.used.tv_sec != $1.used.tv_sec ? $0.used.tv_sec < $1.used.tv_sec : $0.used.tv_nsec < $1.used.tv_nsec }
        for file in files where total > limit {
            if unlink(file.path) == 0 || errno == ENOENT { total -= file.size }
        }
    }

    private static func modified(_ info: stat) -> timespec {
        #if canImport(Darwin)
        return info.st_mtimespec
        #else
        return info.st_mtim
        #endif
    }
}
