import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The steps of a compaction, for tests that stop one between two of them.
public enum CompactionStep: String, Sendable, CaseIterable {
    /// Everything is read and checked; nothing is written yet.
    case loaded
    /// The new likes.json is in place (the old journal names the old one: it is now ignored).
    case snapshotReplaced
    /// The new likes.index is in place.
    case indexWritten
    /// The old journal is gone.
    case journalRemoved
}

/// Writes of the likes, always under `.likes.lock` (the caller holds it).
package enum LikesCommit {
    /// Called after each step of a compaction; a test's throw stops it there.
    nonisolated(unsafe) static var compactionHook: ((CompactionStep) throws -> Void)?
    /// Writes an appended line to the journal's descriptor (errno or nil): a test makes it fail
    /// as a full disk does.
    nonisolated(unsafe) static var writeJournal: (ArraySlice<UInt8>, Int32) -> Int32? = { FileIO.writeAll($0, to: $1) }

    /// Commits a collection read from `base` in this transaction: its changes are appended to
    /// the journal as one line, or (past the journal's limit, for a snapshot of the old format,
    /// or when there is no snapshot yet) everything is folded into a new snapshot. A collection
    /// made in memory replaces everything (a compaction to exactly it).
    static func commit(_ value: LikeCollection, base: LikesBase) throws(StoreError) {
        let files = base.files
        guard value.base === base else {
            try compact(value.storedElements(), base: base)
            return
        }
        let changes = value.changes
        guard !changes.isEmpty else { return }
        let journalBytes = base.journal?.validLength ?? 0
        let limit = max(files.journalLimit, base.snapshotSize / 16)
        // The line's size, without building it when it is clear that it will not be appended
        // (an import of 100,000 likes would make a 50 MB line for nothing).
        let estimate = changes.reduce(64) { total, change in
            switch change {
            case .add(let element): return total + element.bytes.count + 32
            case .remove(let id): return total + id.utf8.count + 40
            }
        }
        let mustCompact = base.generation == nil || base.snapshotInfo == nil || base.journal?.generation == nil && base.journal != nil
        let line = mustCompact || journalBytes + estimate > 2 * limit ? [] : LikesJournal.line(changes)
        if line.isEmpty || journalBytes + line.count > limit {
            // A new snapshot (also the migration from schema 1): the journal is folded in.
            if let journal = base.journal, journal.tornBytes > 0 { try saveTornTail(journal, files: files) }
            try compact(value.storedElements(), base: base)
            return
        }
        if base.staleJournal { try retireStaleJournal(base) }
        if let journal = base.journal, journal.tornBytes > 0 { try trimTornTail(journal, files: files) }
        if base.index == nil { try rebuildIndex(base) }
        try append(line, generation: base.generation!, fresh: base.journal == nil || base.staleJournal, files: files)
    }

    /// Appends one line (after the header, for a new journal) and syncs it: the transaction is
    /// durable when this returns. A failed write is cut off again, so no partial line stays; a
    /// journal this append created (under the lock, exclusively) is removed again, so that a
    /// full disk leaves no empty journal behind.
    private static func append(_ line: [UInt8], generation: String, fresh: Bool, files: LikesFiles) throws(StoreError) {
        let path = files.journal
        let fd: Int32
        var bytes = line
        if fresh {
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .io(path: path, operation: "create", errno: errno) }
            _ = fchmod(fd, 0o600)
            bytes = LikesJournal.header(generation: generation) + line
        } else {
            guard let opened = try FileIO.openStoreFile(path, flags: O_WRONLY | O_APPEND) else {
                throw .io(path: path, operation: "open", errno: ENOENT)
            }
            fd = opened.fd
        }
        defer { close(fd) }
        var info = stat()
        let before = fstat(fd, &info) == 0 ? info.st_size : 0
        func undo() {
            _ = ftruncate(fd, before)
            if fresh {
                unlink(path)
                FileIO.syncDirectory(files.directory)
            }
        }
        if let code = writeJournal(bytes[...], fd) {
            undo()
            throw .io(path: path, operation: "write", errno: code)
        }
        if fsync(fd) != 0 {
            let code = errno
            undo()
            throw .io(path: path, operation: "sync", errno: code)
        }
        if fresh { FileIO.syncDirectory(files.directory) }
    }

    /// Folds everything into a new likes.json with a new generation, then its index, then removes
    /// the journal. Stopped after any step, the files still say the same: before the snapshot is
    /// replaced the old snapshot and journal stand; after, the old journal names the old
    /// snapshot and is ignored, and a stale index is rebuilt.
    static func compact(_ elements: [LikeCollection.Element], base: LikesBase) throws(StoreError) {
        let files = base.files
        // Keys a newer writer of this schema added stay (the document is checked whole).
        let document = base.snapshotInfo == nil ? SuiteDocument(schema: Suite.likes.schema) : try base.snapshot().document
        if let failure = base.failure { throw failure }
        try step(.loaded)
        let generation = newGeneration()
        let (pieces, entries) = snapshotPieces(document, elements, generation: generation)
        let size = pieces.reduce(0) { $0 + $1.count }
        if size > StoreFileLimits.likesSnapshot { throw FileIO.unstorable(files.snapshot, size: size, limit: StoreFileLimits.likesSnapshot) }
        // Checked against the snapshot it sits beside, before that one is replaced.
        if base.staleJournal { try retireStaleJournal(base) }
        try FileIO.atomicWrite(pieces: pieces, to: files.snapshot)
        try step(.snapshotReplaced)
        var info = stat()
        if lstat(files.snapshot, &info) == 0 {
            let crc = CRC32.finish(pieces.reduce(CRC32.start) { CRC32.update($0, $1) })
            let key = SnapshotKey(generation: generation, size: size, crc: crc)
            try FileIO.atomicWrite(LikesIndex.build(entries, key: key, seen: SnapshotSeen(info)), to: files.index)
        }
        try step(.indexWritten)
        try removeJournal(files)
        try step(.journalRemoved)
    }

    private static func step(_ step: CompactionStep) throws(StoreError) {
        guard let hook = compactionHook else { return }
        do {
            try hook(step)
        } catch {
            throw .io(path: "compaction", operation: "continue after \(step.rawValue) in", errno: EIO)
        }
    }

    /// `{"schema":2,\n"generation":"…"`, other keys, then `"likes":[` one like a line `]}`; with
    /// where each like lands, for the index.
    static func snapshotPieces(_ document: SuiteDocument, _ elements: [LikeCollection.Element],
                               generation: String) -> ([ArraySlice<UInt8>], [LikesIndex.Entry]) {
        var pieces: [ArraySlice<UInt8>] = []
        var offset = 0
        func add(_ piece: ArraySlice<UInt8>) {
            pieces.append(piece)
            offset += piece.count
        }
        add(ArraySlice("{\"schema\":\(Suite.likes.schema),\n\"generation\":\"\(generation)\"".utf8))
        for (key, value) in zip(document.keys, document.raw) where key != "generation" && key != "likes" {
            var writer = JSONWriter()
            writer.append(",\n")
            writer.writeString(key)
            writer.bytes.append(UInt8(ascii: ":"))
            add(writer.bytes[...])
            add(value)
        }
        add(ArraySlice(",\n\"likes\":[".utf8))
        var entries: [LikesIndex.Entry] = []
        entries.reserveCapacity(elements.count)
        let first = ArraySlice<UInt8>([0x0A]), next = ArraySlice<UInt8>([UInt8(ascii: ","), 0x0A])
        for (i, element) in elements.enumerated() {
            add(i == 0 ? first : next)
            entries.append(LikesIndex.Entry(id: element.id, offset: offset, length: element.bytes.count))
            add(element.bytes)
        }
        add(ArraySlice((elements.isEmpty ? "]}\n" : "\n]}\n").utf8))
        return (pieces, entries)
    }

    /// An index of the snapshot as it is (its likes' bytes are slices of the file).
    package static func rebuildIndex(_ base: LikesBase) throws(StoreError) {
        guard let index = try expectedIndex(base) else { return }
        try FileIO.atomicWrite(index, to: base.files.index)
    }

    /// The index `rebuildIndex` would write for this snapshot, or nil without one.
    package static func expectedIndex(_ base: LikesBase) throws(StoreError) -> [UInt8]? {
        guard let info = base.snapshotInfo, let generation = base.generation else { return nil }
        let bytes = try base.wholeSnapshot()
        let elements = try base.snapshot().elements
        let key = SnapshotKey(generation: generation, size: bytes.count, crc: CRC32.checksum(bytes[...]))
        return LikesIndex.build(entries(elements), key: key, seen: SnapshotSeen(info))
    }

    /// Where each like is in the snapshot (its bytes are slices of the file's).
    static func entries(_ elements: [LikeCollection.Element]) -> [LikesIndex.Entry] {
        elements.map { LikesIndex.Entry(id: $0.id, offset: $0.bytes.startIndex, length: $0.bytes.count) }
    }

    package static func removeJournal(_ files: LikesFiles) throws(StoreError) {
        if unlink(files.journal) != 0 && errno != ENOENT { throw .io(path: files.journal, operation: "remove", errno: errno) }
        FileIO.syncDirectory(files.directory)
    }

    /// Keeps the bytes of a torn last line (never acknowledged) in `likes.journal.torn-TIME`.
    @discardableResult
    static func saveTornTail(_ journal: LikesJournal.Contents, files: LikesFiles) throws(StoreError) -> String? {
        guard journal.tornBytes > 0, let bytes = try FileIO.readStoreFile(files.journal, limit: StoreFileLimits.likesJournal), bytes.count > journal.validLength else { return nil }
        let backup = FileIO.timestampedPath(in: files.directory, prefix: "likes.journal.torn", at: Date(), extension: "jsonl")
        try FileIO.atomicWrite(Array(bytes[journal.validLength...]), to: backup)
        return backup
    }

    /// Saves a torn tail aside, then cuts it off the journal, so that the next line is whole.
    @discardableResult
    package static func trimTornTail(_ journal: LikesJournal.Contents, files: LikesFiles) throws(StoreError) -> String? {
        let backup = try saveTornTail(journal, files: files)
        guard let (fd, _) = try FileIO.openStoreFile(files.journal, flags: O_WRONLY) else { return backup }
        defer { close(fd) }
        if ftruncate(fd, off_t(journal.validLength)) != 0 || fsync(fd) != 0 {
            throw .io(path: files.journal, operation: "trim the torn last line of", errno: errno)
        }
        return backup
    }

    static func newGeneration() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }
}
