#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the catalog's files are mapped. Both are read at scattered places, so the kernel is told
/// not to read around them (MADV_RANDOM).
///
/// - The index (`catalog.index`) may be mapped in huge pages: a search of a million items reads
///   the records and texts of its candidates across the whole file, and a file's large folios
///   mapped 2 MiB at a time cost one fault and one TLB entry where 512 small pages cost 512
///   page-table entries to set and clear. The search hands back what lies behind it in whole
///   huge pages (`releaseUnit`), so what stays resident is bounded all the same.
/// - The items (`catalog.json`) are not: a page of results decodes a few items anywhere in the
///   file, and a huge page each would keep tens of MiB resident for a few KiB read.
enum CatalogMapping {
    static func adviseIndex(_ address: UnsafeMutableRawPointer, _ size: Int) {
        _ = madvise(address, size, MADV_RANDOM)
    }

    static func adviseItems(_ address: UnsafeMutableRawPointer, _ size: Int) {
        _ = madvise(address, size, MADV_RANDOM)
        #if os(Linux)
        _ = madvise(address, size, 15 /* MADV_NOHUGEPAGE */)
        #endif
    }

    enum Rounding { case down, up }

    /// The addresses to hand back for `range` (bytes from the start of a mapping at `base`, of
    /// `size` bytes): whole `unit`s, its start and its end each rounded `down` or `up` to one,
    /// never outside the mapping's pages (`base` is page-aligned, as `mmap` returns it). Nil when
    /// that holds nothing, or when `range` is not inside the mapping.
    static func span(of range: Range<Int>, base: UInt, size: Int, unit: UInt, page: UInt, start: Rounding, end: Rounding) -> Range<UInt>? {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= size, unit > 0, page > 0 else { return nil }
        func rounded(_ address: UInt, _ rounding: Rounding) -> UInt {
            rounding == .down ? address / unit * unit : (address + unit - 1) / unit * unit
        }
        let last = (base + UInt(size) + page - 1) / page * page
        let from = max(base, rounded(base + UInt(range.lowerBound), start))
        let to = min(last, rounded(base + UInt(range.upperBound), end))
        return from < to ? from..<to : nil
    }

    /// The unit in which a search hands the index's pages back: a huge page (2 MiB on Linux's
    /// x86-64 and arm64 with 4 KiB pages), so that no huge mapping is split; the page size where
    /// the index is mapped in small pages only.
    static let releaseUnit: Int = {
        #if os(Linux)
        return max(Int(getpagesize()), 2 << 20)
        #else
        return Int(getpagesize())
        #endif
    }()
}
