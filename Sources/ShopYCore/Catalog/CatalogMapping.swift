#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the catalog's files are mapped: a search reads scattered records, texts and items, so
/// the kernel is told not to read around them (MADV_RANDOM) nor map them in huge pages (a
/// file's large folios would otherwise be mapped 2 MiB at a time, and a search of a million
/// items would keep hundreds of MiB resident for the few bytes it reads of each).
enum CatalogMapping {
    static func adviseRandomSmallPages(_ address: UnsafeMutableRawPointer, _ size: Int) {
        _ = madvise(address, size, MADV_RANDOM)
        #if os(Linux)
        _ = madvise(address, size, 15 /* MADV_NOHUGEPAGE */)
        #endif
    }
}
