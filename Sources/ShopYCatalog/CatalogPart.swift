#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// One run of the catalog's items with its index: items held in memory (a test's, an
/// emulator's file), or items' JSON bytes (mapped, or the embedded literal) with an index that
/// locates each item in them, so a search decodes only its page.
final class CatalogPart: Sendable {
    private enum Storage: Sendable {
        case items([WireItem])
        case json(MappedBytes, CatalogIndex)
    }

    private let storage: Storage
    private let builtIndex = LazyValue<CatalogIndex>()
    private let decoded = LazyValue<[WireItem]>()

    init(items: [WireItem]) {
        storage = .items(items)
    }

    init(json: MappedBytes, index: CatalogIndex) {
        storage = .json(json, index)
    }

    var index: CatalogIndex {
        switch storage {
        case .json(_, let index): return index
        case .items(let items):
            return builtIndex.value {
                var records = CatalogRawRecords(store: CatalogByteStore(), capacity: items.count)
                for item in items { records.append(item, firstSeen: nil) }
                let bytes = CatalogIndexBuilder.build(records, ranges: Array(repeating: 0..<0, count: items.count), generation: 0, itemsLength: 0).bytes
                return try! CatalogIndex(bytes: bytes)  // just built: well-formed
            }
        }
    }

    func item(at ordinal: Int) -> WireItem? {
        switch storage {
        case .items(let items): return ordinal < items.count ? items[ordinal] : nil
        case .json(let bytes, let index):
            // The item read where the record says must be the record's: its place in the items
            // file is checked here rather than by the record's checksum.
            guard let record = index.record(ordinal) else { return nil }
            guard let item = bytes.item(record.itemStart..<(record.itemStart + record.itemLength)),
                  item.productId.utf8.prefix(Int(UInt16.max)).elementsEqual(index.bytes(record.id)) else {
                index.noteDamage("item \(ordinal + 1) is not where its record says in the items")
                return nil
            }
            return item
        }
    }

    /// The stored bytes of item `ordinal` in catalog.json; nil for a part made from items in
    /// memory, or when its record's range does not fit the file.
    func storedBytes(at ordinal: Int) -> UnsafeBufferPointer<UInt8>? {
        guard case .json(let bytes, let index) = storage, let record = index.record(ordinal),
              record.itemStart <= bytes.buffer.count, record.itemLength <= bytes.buffer.count - record.itemStart else { return nil }
        return UnsafeBufferPointer(rebasing: bytes.buffer.bindMemory(to: UInt8.self)[record.itemStart..<(record.itemStart + record.itemLength)])
    }

    var items: [WireItem] {
        switch storage {
        case .items(let items): return items
        case .json(_, let index):
            return decoded.value { (0..<index.count).compactMap { item(at: $0) } }
        }
    }
}

/// Bytes read in place: a mapped file, or memory this object owns.
final class MappedBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
    private let release: () -> Void

    init(buffer: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.buffer = buffer
        self.release = release
    }

    convenience init(copying bytes: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        copy.copyBytes(from: bytes)
        self.init(buffer: UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count]), release: { copy.deallocate() })
    }

    deinit { release() }

    /// The file mapped read-only, nil when it does not exist (an empty file maps to no bytes).
    static func map(path: String) throws(StoreError) -> MappedBytes? {
        guard let (fd, info) = try FileIO.openStoreFile(path) else { return nil }
        defer { close(fd) }
        let size = Int(info.st_size)
        guard size > 0 else { return MappedBytes(copying: []) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw StoreError.io(path: path, operation: "map", errno: errno)
        }
        return MappedBytes(buffer: UnsafeRawBufferPointer(start: address, count: size), release: { munmap(address, size) })
    }

    /// The item whose JSON is at `range`, nil when it is out of bounds or does not decode.
    func item(_ range: Range<Int>) -> WireItem? {
        guard range.lowerBound >= 0, range.upperBound <= buffer.count, !range.isEmpty else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[range])
        guard let value = try? JSONParser.parse(Array(bytes)) else { return nil }
        return try? WireItem(json: value, index: 0)
    }
}
