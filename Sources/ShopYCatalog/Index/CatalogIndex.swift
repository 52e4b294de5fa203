import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// A catalog index, read in place (a mapped file or bytes held in memory): see
/// `CatalogIndexFormat`. Its header, keys, starts, sums and ids are checked when it is opened; a
/// key's postings and an item's record with its text when they are read, and every offset before
/// it is used. What does not check out is read as empty (never out of bounds) and noted in
/// `damage`: the catalog then rebuilds the index from catalog.json rather than answer from it.
final class CatalogIndex: @unchecked Sendable {
    let base: UnsafeRawBufferPointer
    let count: Int
    let layout: CatalogIndexFormat.Layout
    let generation: UInt64
    let itemsLength: Int
    private let release: () -> Void
    private let lock = NSLock()
    private var firstDamage: String?

    deinit { release() }

    /// What was found wrong in a part read since the index was opened, nil when nothing was.
    var damage: String? {
        lock.lock()
        defer { lock.unlock() }
        return firstDamage
    }

    func noteDamage(_ problem: String) {
        lock.lock()
        defer { lock.unlock() }
        if firstDamage == nil { firstDamage = problem }
    }

    struct Damaged: Error { var reason: String }

    init(bytes: UnsafeRawBufferPointer, release: @escaping () -> Void) throws(Damaged) {
        self.base = bytes
        self.release = release
        guard bytes.count >= CatalogIndexFormat.headerSize,
              bytes.prefix(8).elementsEqual(CatalogIndexFormat.magic) else {
            release()
            throw Damaged(reason: "not a shopy catalog index")
        }
        func word(_ i: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 + i * 8, as: UInt64.self)) }
        let limit = UInt64(bytes.count)
        guard word(0) <= limit / 48, word(1) <= limit / 8, word(2) <= limit / 4, word(3) <= limit, word(5) <= UInt64(Int.max) else {
            release()
            throw Damaged(reason: "its header gives sizes larger than the file")
        }
        layout = CatalogIndexFormat.Layout(count: Int(word(0)), keyCount: Int(word(1)), postingCount: Int(word(2)), textLength: Int(word(3)))
        guard layout.total == bytes.count else {
            release()
            throw Damaged(reason: "it is \(bytes.count) bytes, its header says \(layout.total)")
        }
        guard word(6) == CatalogIndexFormat.headerChecksum(bytes, layout) else {
            release()
            throw Damaged(reason: "its keys or ids do not match their checksum")
        }
        count = layout.count
        generation = word(4)
        itemsLength = Int(word(5))
    }

    /// An index just built, copied into memory.
    convenience init(bytes: [UInt8]) throws(Damaged) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        copy.copyBytes(from: bytes)
        try self.init(bytes: UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count]), release: { copy.deallocate() })
    }

    /// The file mapped read-only; nil when it does not exist.
    static func map(path: String) throws(StoreError) -> CatalogIndex? {
        guard let (fd, info) = try FileIO.openStoreFile(path) else { return nil }
        defer { close(fd) }
        let size = Int(info.st_size)
        guard size > 0 else { throw StoreError.damaged(path: path, problem: "the catalog index is empty") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw StoreError.io(path: path, operation: "map", errno: errno)
        }
        do {
            return try CatalogIndex(bytes: UnsafeRawBufferPointer(start: address, count: size), release: { munmap(address, size) })
        } catch {
            throw StoreError.damaged(path: path, problem: error.reason)
        }
    }

    // MARK: - Reading

    @inline(__always) private func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    @inline(__always) private func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    @inline(__always) private func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }

    struct Record {
        var itemStart: Int, itemLength: Int
        var title: Range<Int>, fields: Range<Int>, id: Range<Int>
        var idCharacters: Int
        var price: Int?
        var flags: CatalogIndexFormat.Flags
    }

    /// The record of item `i` (below `count`), nil when its offsets do not fit the file or it
    /// does not match its checksum.
    func record(_ i: Int) -> Record? {
        let at = layout.records + i * CatalogIndexFormat.recordSize
        let textStart = u64(at + 16), titleLength = Int(u32(at + 12)), fieldsLength = Int(u32(at + 24)), idLength = Int(u16(at + 28))
        let itemStart = u64(at)
        guard textStart <= UInt64(layout.textLength), Int(textStart) + titleLength + fieldsLength + idLength <= layout.textLength,
              itemStart <= UInt64(Int32.max) * 1024 else {
            noteDamage("the record of item \(i + 1) points outside the file")
            return nil
        }
        let t = layout.text + Int(textStart)
        let record = UnsafeRawBufferPointer(rebasing: base[at..<(at + CatalogIndexFormat.recordSize)])
        let text = UnsafeRawBufferPointer(rebasing: base[t..<(t + titleLength + fieldsLength + idLength)])
        guard u32(at + CatalogIndexFormat.recordChecksum) == CatalogIndexFormat.recordChecksum(record, text: text) else {
            noteDamage("the record of item \(i + 1) does not match its checksum")
            return nil
        }
        let price = Int64(bitPattern: u64(at + 32))
        return Record(itemStart: Int(itemStart), itemLength: Int(u32(at + 8)),
                      title: t..<(t + titleLength), fields: (t + titleLength)..<(t + titleLength + fieldsLength),
                      id: (t + titleLength + fieldsLength)..<(t + titleLength + fieldsLength + idLength),
                      idCharacters: Int(u16(at + 30)), price: price > 0 ? Int(price) : nil,
                      flags: CatalogIndexFormat.Flags(rawValue: base[at + 40]))
    }

    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: base.bindMemory(to: UInt8.self)[range])
    }

    /// The postings of a key: ascending ordinals (a range into the postings section), empty
    /// when the key is not in the catalog (or its postings do not match their checksum).
    func postings(_ key: UInt64) -> Postings {
        var low = 0, high = layout.keyCount
        while low < high {
            let mid = (low + high) / 2
            if u64(layout.keys + mid * 8) < key { low = mid + 1 } else { high = mid }
        }
        guard low < layout.keyCount, u64(layout.keys + low * 8) == key else { return Postings(index: self, range: 0..<0) }
        let from = u64(layout.starts + low * 8), to = u64(layout.starts + (low + 1) * 8)
        guard from <= to, to <= UInt64(layout.postingCount),
              u64(layout.sums + low * 8) == CatalogIndexFormat.checksum(UnsafeRawBufferPointer(rebasing: base[(layout.postings + Int(from) * 4)..<(layout.postings + Int(to) * 4)])) else {
            noteDamage("the postings of a key do not match their checksum")
            return Postings(index: self, range: 0..<0)
        }
        return Postings(index: self, range: Int(from)..<Int(to))
    }

    struct Postings {
        let index: CatalogIndex
        let range: Range<Int>
        var count: Int { range.count }
        subscript(i: Int) -> Int { Int(index.u32(index.layout.postings + (range.lowerBound + i) * 4)) }

        /// The first position at or after `from` whose ordinal is ≥ `ordinal`.
        func seek(_ ordinal: Int, from: Int) -> Int {
            var step = 1, low = from, high = from
            while high < count && self[high] < ordinal { low = high + 1; high += step; step *= 2 }
            high = min(high, count)
            while low < high {
                let mid = (low + high) / 2
                if self[mid] < ordinal { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// The ordinals of items with this productId (hash hits checked against the text).
    func ordinals(ofId id: [UInt8]) -> [Int] {
        let hash = id.withUnsafeBufferPointer(CatalogIndexFormat.fnv)
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if u64(layout.ids + mid * 16) < hash { low = mid + 1 } else { high = mid }
        }
        var found: [Int] = []
        var i = low
        while i < count, u64(layout.ids + i * 16) == hash {
            let ordinal = u64(layout.ids + i * 16 + 8)
            if ordinal < UInt64(count), let record = record(Int(ordinal)), id.withUnsafeBufferPointer({ CatalogText.equal(bytes(record.id), $0) }) {
                found.append(Int(ordinal))
            }
            i += 1
        }
        return found
    }
}
