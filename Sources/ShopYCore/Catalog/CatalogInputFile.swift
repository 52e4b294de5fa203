#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file to import: a large regular file in two halves at once, each thread copying
/// from the page cache into its own half of the buffer (and taking that half's page faults);
/// anything else, and any file that fails or changes size meanwhile, exactly as `FileIO.read`.
package enum CatalogInputFile {
    static let parallelSize = 8 << 20

    package static func read(_ path: String) throws(StoreError) -> [UInt8]? {
        guard let fd = try FileIO.openForReading(path) else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= parallelSize else {
            return try FileIO.readAll(fd, path: path)
        }
        let size = Int(info.st_size)
        let whole = UnsafeMutablePointer<Bool>.allocate(capacity: 2)
        defer { whole.deallocate() }
        whole.initialize(repeating: false, count: 2)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            let base = buffer.baseAddress!
            let halves = [0..<(size / 2), (size / 2)..<size]
            CatalogParallel.run(2) { i in whole[i] = readFully(fd, into: base, halves[i]) }
            count = whole[0] && whole[1] ? size : 0
        }
        // A failure, a short read, or more bytes than fstat said: read again as FileIO does.
        guard whole[0] && whole[1], !hasMore(fd, at: size) else { return try FileIO.readAll(fd, path: path) }
        return bytes
    }

    /// Whether `range` of the file was read whole into `base[range]`.
    private static func readFully(_ fd: Int32, into base: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) -> Bool {
        var at = range.lowerBound
        while at < range.upperBound {
            let n = pread(fd, base + at, range.upperBound - at, off_t(at))
            if n > 0 {
                at += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    private static func hasMore(_ fd: Int32, at offset: Int) -> Bool {
        var byte: UInt8 = 0
        while true {
            let n = pread(fd, &byte, 1, off_t(offset))
            if n < 0 && errno == EINTR { continue }
            return n != 0
        }
    }
}
