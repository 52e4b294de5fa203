import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Writing the local catalog from raw records: catalog.json (`CatalogRawWriter`) and its index
/// (`CatalogIndexBuilder`), committed together by `CatalogFileWriter`.
extension LocalCatalog {
    /// Both files' bytes, in memory (for the index rebuilt at a search, `doctor` and tests).
    func encode(_ records: CatalogRawRecords, generation: UInt64) -> (items: [UInt8], index: [UInt8]) {
        var items: [UInt8] = []
        let written = CatalogRawWriter.items(records, generation: generation) { chunk in items += chunk; return nil }
        return (items, CatalogIndexBuilder.build(records, ranges: written.ranges, generation: generation, itemsLength: written.length).bytes)
    }

    /// Loads the records as raw records, changes and writes them under the lock, as `update`
    /// does; nothing is written when `change` throws or returns false.
    func updateRaw<R>(store: CatalogByteStore, _ change: (inout CatalogRawRecords) throws -> (R, Bool)) throws -> R {
        try FileIO.ensureDirectory(directory)
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        let contents = try load()
        var records = CatalogRawRecords(records: contents.records, store: store)
        let (result, changed) = try change(&records)
        if changed { try write(records, after: contents.generation) }
        return result
    }

    /// Writes the records as the next generation after `generation`: catalog.json a chunk at a
    /// time to its temporary file while their index is built on another thread (the two take
    /// about as long; the index learns each item's place in catalog.json afterwards, `locate`),
    /// then the index, then both committed.
    func write(_ records: CatalogRawRecords, after generation: UInt64) throws(StoreError) {
        var next = UInt64.random(in: 1...(UInt64(Int64.max)))
        if next == generation { next &+= 1 }
        CatalogFileWriter.removeStaleTemporaries(in: directory, names: [CatalogFileWriter.name(itemsPath), CatalogFileWriter.name(indexPath)])
        let build = IndexBuild(records, generation: next)
        var ranges: [Range<Int>] = [], length = 0
        let itemsTemp: String
        // Past `itemsLimit` nothing more is written (the writer still counts the whole length,
        // which the refusal names) and the temporary file is removed: catalog.json stays as it was.
        let limit = itemsLimit
        var sent = 0
        do {
            itemsTemp = try CatalogFileWriter.temporary(for: itemsPath, directory: directory) { fd in
                let written = CatalogRawWriter.items(records, generation: next) { chunk in
                    sent += chunk.count
                    return sent > limit ? EFBIG : FileIO.writeAll(chunk[...], to: fd)
                }
                (ranges, length) = (written.ranges, written.length)
                return written.failure
            }
        } catch {
            _ = build.wait()
            if length > limit { throw FileIO.unstorable(itemsPath, size: length, limit: limit) }
            throw error
        }
        var index = build.wait()
        index.locate(ranges: ranges, itemsLength: length)
        let indexTemp: String
        do {
            indexTemp = try CatalogFileWriter.temporary(for: indexPath, directory: directory, derived: true) { fd in index.forEachSection { FileIO.writeAll($0, to: fd) } }
        } catch {
            unlink(itemsTemp)
            throw error
        }
        try CatalogFileWriter.commit(itemsTemp, to: itemsPath, indexTemp, to: indexPath, directory: directory)
    }

    /// The index of records whose places in the items file are not known yet, built on another
    /// thread; `wait` returns it. The records are only read meanwhile, on both threads.
    private final class IndexBuild: @unchecked Sendable {
        private let records: CatalogRawRecords
        private let done = DispatchSemaphore(value: 0)
        private var pieces: CatalogIndexBuilder.Pieces?

        init(_ records: CatalogRawRecords, generation: UInt64) {
            self.records = records
            DispatchQueue.global(qos: .userInitiated).async {
                let unknown = [Range<Int>](repeating: 0..<0, count: self.records.count)
                self.pieces = CatalogIndexBuilder.build(self.records, ranges: unknown, generation: generation, itemsLength: 0)
                self.done.signal()
            }
        }

        func wait() -> CatalogIndexBuilder.Pieces {
            done.wait()
            return pieces!
        }
    }
}

/// catalog.json from raw records: `{"schema":1,"generation":N,"items":[`, then one record a line
/// (the item's fourteen fields as the API writes them, an absent one as its default, then
/// firstSeen, updated and origin), then `]}`. Every value goes through `JSONWriter.writeString`.
enum CatalogRawWriter {
    /// About how many bytes are handed to `flush` at a time.
    static let chunkSize = 1 << 20

    /// Each record's range in the whole output, the output's length, and the first failure
    /// `flush` returned (nothing more is flushed after one).
    static func items(_ records: CatalogRawRecords, generation: UInt64, flush: ([UInt8]) -> Int32?) -> (ranges: [Range<Int>], length: Int, failure: Int32?) {
        var out = JSONWriter(capacity: chunkSize + (64 << 10))
        var flushed = 0
        var failure: Int32?
        func drain() {
            if failure == nil && !out.bytes.isEmpty { failure = flush(out.bytes) }
            flushed += out.bytes.count
            out.bytes.removeAll(keepingCapacity: true)
        }
        out.append("{\"schema\":\(LocalCatalog.schema),\"generation\":\(generation),\"items\":[\n")
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(records.count)
        let zero: StaticString = "0", empty: StaticString = ""
        let zeroBytes = UnsafeBufferPointer(start: zero.utf8Start, count: zero.utf8CodeUnitCount)
        let emptyBytes = UnsafeBufferPointer(start: empty.utf8Start, count: 0)
        for r in 0..<records.count {
            let start = flushed + out.bytes.count
            for field in CatalogRawRecords.Field.allCases {
                out.bytes.append(field == .title ? 0x7B : 0x2C)
                out.bytes.append(contentsOf: UnsafeBufferPointer(start: field.key.utf8Start, count: field.key.utf8CodeUnitCount))
                out.writeString(bytes: records[r, field].bytes(or: field == .lprice ? zeroBytes : emptyBytes))
            }
            out.bytes.append(0x7D)
            ranges.append(start..<(flushed + out.bytes.count))
            if r + 1 < records.count { out.bytes.append(0x2C) }
            out.bytes.append(0x0A)
            if out.bytes.count >= chunkSize { drain() }
        }
        out.append("]}\n")
        drain()
        return (ranges, flushed, failure)
    }
}
