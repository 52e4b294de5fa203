import Dispatch

/// Writing raw records (the import path): the same two files `encode(_:generation:)` writes for
/// the records they hold, with the index built on a second thread while the items are encoded.
extension LocalCatalog {
    /// Both files' bytes (for tests and comparisons: the import writes them as it goes).
    func encode(raw records: CatalogRawRecords, generation: UInt64) -> (items: [UInt8], index: [UInt8]) {
        var items: [UInt8] = []
        let ranges = CatalogRawWriter.items(records, generation: generation) { chunk in items += chunk; return nil }.ranges
        var index = CatalogIndexBuilder.build(records: records, ranges: [Range<Int>](repeating: 0..<0, count: records.count), generation: generation, itemsLength: 0)
        index.locate(ranges: ranges, itemsLength: items.count)
        return (items, index.bytes)
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
            try write(raw: records, generation: next)
        }
        return result
    }

    /// The two files as `CatalogFileWriter.write` commits them: the items encoded and written to
    /// their temporary file a chunk at a time while a second thread builds the index (whose
    /// records learn their places in the items file afterwards); then the items fsynced on a
    /// thread of their own while the index is written in its pieces and fsynced; then, both
    /// durable, the renames.
    func write(raw records: CatalogRawRecords, generation: UInt64) throws(StoreError) {
        CatalogFileWriter.removeStaleTemporaries(in: directory, names: [CatalogFileWriter.name(itemsPath), CatalogFileWriter.name(indexPath)])
        let build = IndexBuild(records: records, generation: generation)
        let built = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            build.run()
            built.signal()
        }
        var ranges: [Range<Int>] = [], length = 0
        let items: CatalogFileWriter.Unsynced
        do {
            items = try CatalogFileWriter.unsynced(for: itemsPath, directory: directory) { fd in
                var writeback = CatalogWriteback(fd: fd)
                let written = CatalogRawWriter.items(records, generation: generation) { chunk in
                    let failure = FileIO.writeAll(chunk, to: fd)
                    if failure == nil { writeback.wrote(chunk.count) }
                    return failure
                }
                writeback.start()
                ranges = written.ranges
                length = written.length
                return written.failure
            }
        } catch {
            built.wait()
            throw error
        }
        let itemsSync = PendingSync(items)
        let synced = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            itemsSync.run()
            synced.signal()
        }
        built.wait()
        var index = build.index
        index.locate(ranges: ranges, itemsLength: length)
        let indexTemp: String
        do {
            indexTemp = try CatalogFileWriter.temporary(for: indexPath, directory: directory) { fd in
                var writeback = CatalogWriteback(fd: fd)
                for piece in index.all {
                    if let failure = FileIO.writeAll(piece[...], to: fd) { return failure }
                    writeback.wrote(piece.count)
                }
                writeback.start()
                return nil
            }
        } catch {
            synced.wait()
            if case .success(let itemsTemp) = itemsSync.result { unlink(itemsTemp) }
            throw error
        }
        synced.wait()
        let itemsTemp: String
        switch itemsSync.result {
        case .success(let temp): itemsTemp = temp
        case .failure(let error):
            unlink(indexTemp)
            throw error
        case nil: preconditionFailure("the items' fsync has returned")
        }
        try CatalogFileWriter.commit(itemsTemp, to: itemsPath, indexTemp, to: indexPath, directory: directory)
    }

    /// The fsync of a temporary file, run on another thread; `result` is read after it returns.
    private final class PendingSync: @unchecked Sendable {
        let file: CatalogFileWriter.Unsynced
        var result: Result<String, StoreError>?

        init(_ file: CatalogFileWriter.Unsynced) { self.file = file }

        func run() {
            do { result = .success(try file.sync()) } catch { result = .failure(error) }
        }
    }

    /// The index of records whose places in the items file are not known yet.
    private final class IndexBuild: @unchecked Sendable {
        let records: CatalogRawRecords
        let generation: UInt64
        var index = CatalogIndexBuilder.Pieces()

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

/// catalog.json from raw records: `CatalogRecord.write`'s bytes for each, handed to `flush` a
/// chunk at a time (one buffer, reused). A field that needs no escape is copied as it is; one
/// that may goes through `JSONWriter.writeString`.
enum CatalogRawWriter {
    static let chunkSize = 1 << 20

    /// Each record's range in the whole output, its length, and the first failure `flush` returned.
    static func items(_ records: CatalogRawRecords, generation: UInt64, flush: (UnsafeRawBufferPointer) -> Int32?) -> (ranges: [Range<Int>], length: Int, failure: Int32?) {
        withoutActuallyEscaping(flush) { flush in encode(records, generation: generation, flush: flush) }
    }

    private static func encode(_ records: CatalogRawRecords, generation: UInt64, flush: @escaping (UnsafeRawBufferPointer) -> Int32?) -> (ranges: [Range<Int>], length: Int, failure: Int32?) {
        typealias Field = CatalogRawRecords.Field
        var out = Output(flush: flush)
        defer { out.buffer.deallocate() }
        let head = Array("{\"schema\":\(LocalCatalog.schema),\"generation\":\(generation),\"items\":[\n".utf8)
        head.withUnsafeBufferPointer { out.append($0) }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(records.count)
        var scratch = JSONWriter()
        let zero: StaticString = "0", empty: StaticString = ""
        let zeroBytes = UnsafeBufferPointer(start: zero.utf8Start, count: zero.utf8CodeUnitCount)
        let emptyBytes = UnsafeBufferPointer(start: empty.utf8Start, count: 0)
        let fields = Field.allCases
        // Each field's bytes before its value: `{` or `,`, the key, and the value's opening quote.
        var prefixBytes: [UInt8] = [], prefixes: [Range<Int>] = []
        for field in fields {
            let start = prefixBytes.count
            prefixBytes.append(field == .title ? 0x7B : 0x2C)
            prefixBytes += UnsafeBufferPointer(start: field.key.utf8Start, count: field.key.utf8CodeUnitCount)
            prefixBytes.append(0x22)
            prefixes.append(start..<prefixBytes.count)
        }
        prefixBytes.withUnsafeBufferPointer { prefixBytes in
            escapeBytes.withUnsafeBufferPointer { escapes in
                for r in 0..<records.count {
                    let start = out.offset
                    for (f, field) in fields.enumerated() {
                        let value = records[r, field].bytes(or: field == .lprice ? zeroBytes : emptyBytes)
                        let prefix = UnsafeBufferPointer(rebasing: prefixBytes[prefixes[f]])
                        if !mayNeedEscape(value, escapes: escapes) {
                            out.reserve(prefix.count + value.count + 1)
                            out.append(prefix)
                            out.append(value)
                            out.byte(0x22)
                        } else {
                            scratch.bytes.removeAll(keepingCapacity: true)
                            scratch.bytes.append(contentsOf: prefix.dropLast())  // writeString adds the quotes
                            scratch.writeString(bytes: value)
                            scratch.bytes.withUnsafeBufferPointer { out.append($0) }
                        }
                    }
                    out.reserve(3)
                    out.byte(0x7D)
                    ranges.append(start..<out.offset)
                    if r + 1 < records.count { out.byte(0x2C) }
                    out.byte(0x0A)
                }
            }
        }
        Array("]}\n".utf8).withUnsafeBufferPointer { out.append($0) }
        out.drain()
        return (ranges, out.offset, out.failure)
    }

    /// The bytes `mayNeedEscape` looks for: a quote, a backslash, a control, DEL, and the lead
    /// bytes of the scalars `JSONWriter.writeString` escapes (C2, D8, E2), each 1.
    static let escapeBytes: [UInt8] = (0...255).map { c in c == 0x22 || c == 0x5C || c < 0x20 || c == 0x7F || c == 0xC2 || c == 0xD8 || c == 0xE2 ? 1 : 0 }

    /// Whether the text holds a byte `JSONWriter.writeString` may escape (`escapeBytes`):
    /// sixteen bytes at a time, the last sixteen of a longer text together (some looked at
    /// twice), a shorter one byte by byte in the table.
    @inline(__always)
    static func mayNeedEscape(_ b: UnsafeBufferPointer<UInt8>, escapes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = b.baseAddress else { return false }
        let n = b.count
        guard n >= 16 else {
            var any: UInt8 = 0
            for i in 0..<n { any |= escapes[Int(p[i])] }
            return any != 0
        }
        let raw = UnsafeRawPointer(p)
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C), space = SIMD16<UInt8>(repeating: 0x20)
        let del = SIMD16<UInt8>(repeating: 0x7F), c2 = SIMD16<UInt8>(repeating: 0xC2), d8 = SIMD16<UInt8>(repeating: 0xD8)
        let e2 = SIMD16<UInt8>(repeating: 0xE2)
        func special(_ at: Int) -> Bool {
            let v = raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
            return any((v .== quote) .| (v .== backslash) .| (v .< space) .| (v .== del) .| (v .== c2) .| (v .== d8) .| (v .== e2))
        }
        var i = 0
        while i + 16 <= n {
            if special(i) { return true }
            i += 16
        }
        return i < n && special(n - 16)
    }

    /// One reused buffer, flushed when full; `offset` counts every byte appended.
    struct Output {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: CatalogRawWriter.chunkSize)
        var used = 0, flushed = 0
        var failure: Int32?
        let flush: (UnsafeRawBufferPointer) -> Int32?

        init(flush: @escaping (UnsafeRawBufferPointer) -> Int32?) { self.flush = flush }

        var offset: Int { flushed + used }

        mutating func drain() {
            if used > 0, failure == nil { failure = flush(UnsafeRawBufferPointer(start: buffer, count: used)) }
            flushed += used
            used = 0
        }

        /// Room for `count` more bytes (at most a chunk) without a flush in between.
        @inline(__always) mutating func reserve(_ count: Int) {
            if used + count > CatalogRawWriter.chunkSize { drain() }
        }

        @inline(__always) mutating func byte(_ b: UInt8) {
            if used == CatalogRawWriter.chunkSize { drain() }
            buffer[used] = b
            used += 1
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress, bytes.count > 0 else { return }
            if used + bytes.count > CatalogRawWriter.chunkSize { drain() }
            if bytes.count > CatalogRawWriter.chunkSize {
                // Larger than the buffer: straight through.
                if failure == nil { failure = flush(UnsafeRawBufferPointer(bytes)) }
                flushed += bytes.count
                return
            }
            (buffer + used).update(from: source, count: bytes.count)
            used += bytes.count
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
