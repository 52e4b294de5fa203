import Dispatch

/// Writing raw records (the import path): the same two files `encode(_:generation:)` writes for
/// the records they hold, with the index built on a second thread while the items are encoded.
extension LocalCatalog {
    func encode(raw records: CatalogRawRecords, generation: UInt64) -> (items: [UInt8], index: [UInt8]) {
        let build = IndexBuild(records: records, generation: generation)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            build.run()
            done.signal()
        }
        let (items, ranges) = CatalogRawWriter.items(records, generation: generation)
        done.wait()
        var index = build.index
        CatalogIndexBuilder.locate(&index, ranges: ranges, itemsLength: items.count)
        return (items, index)
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
        if changed {
            var next = UInt64.random(in: 1...(UInt64(Int64.max)))
            if next == contents.generation { next &+= 1 }
            let (items, index) = encode(raw: records, generation: next)
            try CatalogFileWriter.write(items: items, to: itemsPath, index: index, to: indexPath, directory: directory)
        }
        return result
    }

    /// The index of records whose places in the items file are not known yet.
    private final class IndexBuild: @unchecked Sendable {
        let records: CatalogRawRecords
        let generation: UInt64
        var index: [UInt8] = []

        init(records: CatalogRawRecords, generation: UInt64) {
            self.records = records
            self.generation = generation
        }

        func run() {
            let unknown = [Range<Int>](repeating: 0..<0, count: records.count)
            index = CatalogIndexBuilder.build(records: records, ranges: unknown, generation: generation, itemsLength: 0)
        }
    }
}

extension CatalogIndexBuilder {
    /// Sets each record's place in the items file, and the file's length, in a built index.
    static func locate(_ index: inout [UInt8], ranges: [Range<Int>], itemsLength: Int) {
        index.withUnsafeMutableBytes { out in
            out.storeBytes(of: UInt64(itemsLength).littleEndian, toByteOffset: 48, as: UInt64.self)
            for (ordinal, range) in ranges.enumerated() {
                let at = CatalogIndexFormat.headerSize + ordinal * CatalogIndexFormat.recordSize
                out.storeBytes(of: UInt64(range.lowerBound).littleEndian, toByteOffset: at, as: UInt64.self)
                out.storeBytes(of: UInt32(clamping: range.count).littleEndian, toByteOffset: at + 8, as: UInt32.self)
            }
        }
    }
}

/// catalog.json from raw records: `CatalogRecord.write`'s bytes for each.
enum CatalogRawWriter {
    static func items(_ records: CatalogRawRecords, generation: UInt64) -> (bytes: [UInt8], ranges: [Range<Int>]) {
        typealias Field = CatalogRawRecords.Field
        var writer = JSONWriter()
        var estimate = 64
        for span in records.spans where span.count > 0 { estimate += span.count }
        writer.bytes.reserveCapacity(estimate + records.count * 240)
        writer.append("{\"schema\":\(LocalCatalog.schema),\"generation\":\(generation),\"items\":[\n")
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(records.count)
        let zero: StaticString = "0", empty: StaticString = ""
        let zeroBytes = UnsafeBufferPointer(start: zero.utf8Start, count: zero.utf8CodeUnitCount)
        let emptyBytes = UnsafeBufferPointer(start: empty.utf8Start, count: 0)
        let fields = Field.allCases
        for r in 0..<records.count {
            let start = writer.bytes.count
            for field in fields {
                writer.bytes.append(field == .title ? 0x7B : 0x2C)
                let key = field.key
                writer.bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
                writer.writeString(bytes: records[r, field].bytes(or: field == .lprice ? zeroBytes : emptyBytes))
            }
            writer.bytes.append(0x7D)
            ranges.append(start..<writer.bytes.count)
            if r + 1 < records.count { writer.bytes.append(0x2C) }
            writer.bytes.append(0x0A)
        }
        writer.append("]}\n")
        return (writer.bytes, ranges)
    }
}
