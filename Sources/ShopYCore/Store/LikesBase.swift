import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The files of the likes, beside each other in the store directory.
public struct LikesFiles: Sendable {
    public let directory: String
    /// Journal bytes past which a write folds the journal into a new snapshot (at least this,
    /// or a sixteenth of the snapshot); never more than `StoreFileLimits.largestJournalFold`,
    /// so that the journal stays far under what its reader accepts.
    public let journalLimit: Int

    public static let defaultJournalLimit = 256 * 1024

    public init(directory: String, journalLimit: Int? = nil) {
        self.directory = directory
        self.journalLimit = min(max(journalLimit ?? LikesFiles.defaultJournalLimit, 1), StoreFileLimits.largestJournalFold)
    }

    public var snapshot: String { directory + "/" + Suite.likes.fileName }
    public var journal: String { directory + "/likes.journal" }
    public var index: String { directory + "/likes.index" }
    public var lock: String { directory + "/" + Suite.likes.lockName }
}

/// The likes as they are on disk at one moment: the snapshot (held open, so that it stays the
/// one read even if a compaction replaces it), its index when the index matches it, and the
/// journal's complete lines when the journal continues it. Questions about one id are answered
/// from the journal and the index; the whole snapshot is read (and checked) only when needed.
package final class LikesBase: @unchecked Sendable {
    let files: LikesFiles
    private let snapshotFD: Int32
    /// Nil when there is no likes.json.
    let snapshotInfo: stat?
    /// The snapshot's schema and generation read from its first line (nil: not as shopy writes
    /// it, e.g. schema 1 or edited by hand: then everything comes from a full read).
    package let generation: String?
    /// Nil when missing, not matching this snapshot, or found broken by a lookup.
    package internal(set) var index: LikesIndex?
    /// An index of this snapshot's generation and size noted for another file (a copy, a
    /// restored backup): trusted once the snapshot's CRC is found to be its key's (`settleIndex`).
    var unconfirmedIndex: LikesIndex?
    /// The index was found wanting in this transaction (missing, stale or broken): one built from
    /// the snapshot is to be written (`settleIndex`).
    var indexWanted = false
    /// The snapshot's bytes when read whole (kept for its CRC and its elements).
    private var snapshotBytes: [UInt8]?
    /// The journal's complete lines, when it continues this snapshot.
    let journal: LikesJournal.Contents?
    /// A journal that names another snapshot: folded already by a stopped compaction, ignored.
    let staleJournal: Bool
    /// The first problem met by a lazy read (the getters of a collection cannot throw).
    private(set) var failure: StoreError?

    private var loaded: (document: SuiteDocument, elements: [LikeCollection.Element])?
    private var snapshotIDs: Set<String>?
    /// The journal's last word on each id it touches (nil: unliked).
    private lazy var fold: [String: LikeCollection.Element?] = {
        var fold: [String: LikeCollection.Element?] = [:]
        for change in journalChanges {
            switch change {
            case .add(let element): fold[element.id] = .some(element)
            case .remove(let id): fold[id] = .some(nil)
            }
        }
        return fold
    }()

    var journalChanges: [LikeChange] { journal?.changes ?? [] }
    /// Whether the whole snapshot was read (a like, an unlike or a listing's marks need not).
    var hasReadSnapshot: Bool { loaded != nil }
    var snapshotSize: Int { snapshotInfo.map { Int($0.st_size) } ?? 0 }

    private init(files: LikesFiles, fd: Int32, info: stat?, generation: String?, index: LikesIndex?, unconfirmed: LikesIndex?,
                 journal: LikesJournal.Contents?, staleJournal: Bool) {
        self.files = files
        snapshotFD = fd
        snapshotInfo = info
        self.generation = generation
        self.index = index
        unconfirmedIndex = unconfirmed
        indexWanted = info != nil && generation != nil && index == nil
        self.journal = journal
        self.staleJournal = staleJournal
    }

    deinit {
        if snapshotFD >= 0 { close(snapshotFD) }
    }

    /// Reads the files without a lock. A compaction may replace the snapshot meanwhile: the
    /// snapshot is opened first and checked to still be at its path once the journal is read,
    /// else everything is read again; so the state seen is always one that was whole.
    /// `readIndex` false: the index is not opened (doctor, reading likes.json beside an index
    /// that is not a regular file: that one is the index's problem, not likes.json's).
    package static func load(_ files: LikesFiles, readJournal: Bool = true, readIndex: Bool = true) throws(StoreError) -> LikesBase {
        var attempt = 0
        while true {
            attempt += 1
            let opened = try FileIO.openStoreFile(files.snapshot)
            let fd = opened?.fd ?? -1
            var ok = false
            defer { if !ok && fd >= 0 { close(fd) } }
            let generation = try opened.flatMap { (fd, _) throws(StoreError) in try readGeneration(fd, path: files.snapshot) }
            // Its header only: a lookup checks the lines it uses (see `LikesIndex`).
            var index: LikesIndex?, unconfirmed: LikesIndex?
            if readIndex, let info = opened?.info, let generation, let indexFile = try FileIO.openStoreFile(files.index) {
                if let bytes = IndexBytes(mapping: indexFile.fd, size: Int(indexFile.info.st_size)), let parsed = LikesIndex.parseHeader(bytes),
                   parsed.key.generation == generation, parsed.key.size == Int(info.st_size) {
                    if parsed.seen == SnapshotSeen(info) { index = parsed } else { unconfirmed = parsed }
                }
                close(indexFile.fd)
            }
            var journal: LikesJournal.Contents?
            var stale = false
            if readJournal, let bytes = try FileIO.readStoreFile(files.journal, limit: StoreFileLimits.likesJournal) {
                let contents = try LikesJournal.parse(bytes, path: files.journal)
                if let named = contents.generation, named == generation, opened != nil {
                    journal = contents
                } else if contents.generation != nil || contents.tornBytes == 0 {
                    stale = true
                } else {
                    journal = contents  // only a torn header: nothing was ever acknowledged in it
                }
            }
            // Still the same snapshot at the path? (Else a compaction ran meanwhile: again.)
            var now = stat()
            let present = lstat(files.snapshot, &now) == 0
            let same: Bool
            if let info = opened?.info {
                same = present && now.st_ino == info.st_ino && now.st_size == info.st_size
            } else {
                same = !present
            }
            if same || attempt >= 20 {
                ok = true
                return LikesBase(files: files, fd: fd, info: opened?.info, generation: generation, index: index, unconfirmed: unconfirmed,
                                 journal: journal, staleJournal: stale)
            }
        }
    }

    /// `{"schema":2,\n"generation":"…"` at the start, as shopy writes it; else nil.
    static func readGeneration(_ fd: Int32, path: String) throws(StoreError) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        if n < 0 { throw .io(path: path, operation: "read", errno: errno) }
        let prefix = Array("{\"schema\":\(Suite.likes.schema),\n\"generation\":\"".utf8)
        let head = buffer[0..<n]
        guard head.starts(with: prefix) else { return nil }
        let rest = head.dropFirst(prefix.count)
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")), end > rest.startIndex else { return nil }
        let generation = rest[rest.startIndex..<end]
        guard generation.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return String(decoding: generation, as: UTF8.self)
    }

    // MARK: Questions

    func contains(_ id: String) -> Bool {
        if let changed = fold[id] { return changed != nil }
        switch indexAnswer(id) {
        case .found: return true
        case .absent: return false
        case .broken, nil: break
        }
        if snapshotIDs == nil { snapshotIDs = Set(snapshotElementsOrFailure().map(\.id)) }
        return snapshotIDs!.contains(id)
    }

    /// The index's answer about `id`, nil without a trusted index. An answer its links do not
    /// prove distrusts the index for the rest of this transaction (and asks for a new one).
    private func indexAnswer(_ id: String) -> LikesIndex.Lookup? {
        guard let index else { return nil }
        let answer = index.find(id)
        if answer == .broken { distrustIndex() }
        return answer
    }

    func distrustIndex() {
        index = nil
        indexWanted = snapshotInfo != nil && generation != nil
    }

    /// The element of `id`: from the journal, else read where the index says it is (and checked
    /// to be that like), else from the whole snapshot.
    func element(_ id: String) -> LikeCollection.Element? {
        if let changed = fold[id] { return changed }
        switch indexAnswer(id) {
        case .found(let offset, let length)?:
            if let element = try? read((offset, length)), element.id == id { return element }
            distrustIndex()  // it pointed elsewhere: not to be trusted for the rest of this transaction
        case .absent?:
            return nil
        case .broken?, nil:
            break
        }
        return snapshotElementsOrFailure().first { $0.id == id }
    }

    private func read(_ place: (offset: Int, length: Int)) throws -> LikeCollection.Element {
        guard snapshotFD >= 0, place.length > 0, place.length < 1 << 24 else { throw StoredValueError("out of range") }
        var bytes = [UInt8](repeating: 0, count: place.length)
        let n = bytes.withUnsafeMutableBytes { pread(snapshotFD, $0.baseAddress!, place.length, off_t(place.offset)) }
        guard n == place.length else { throw StoredValueError("short read") }
        return try LikeCollection.element(from: bytes[...])
    }

    /// Every like: the snapshot's, checked, with the journal replayed.
    func allElements() -> [LikeCollection.Element] {
        LikeCollection.replay(snapshotElementsOrFailure(), journalChanges, inElements: mayBeInSnapshot)
    }

    /// False only when the index says (and proves) that `id` is not in the snapshot.
    func mayBeInSnapshot(_ id: String) -> Bool {
        indexAnswer(id) != .absent
    }

    /// False only when `id` is surely not among `allElements()` (the journal's last word on it,
    /// else the index's).
    func mayBeInAll(_ id: String) -> Bool {
        if let changed = fold[id] { return changed != nil }
        return mayBeInSnapshot(id)
    }

    private func snapshotElementsOrFailure() -> [LikeCollection.Element] {
        do {
            return try snapshot().elements
        } catch {
            failure = failure ?? error
            return []
        }
    }

    /// The snapshot's bytes, read once from the descriptor held open (empty without one).
    func wholeSnapshot() throws(StoreError) -> [UInt8] {
        if let snapshotBytes { return snapshotBytes }
        guard snapshotFD >= 0 else { return [] }
        let bytes = try FileIO.readAll(snapshotFD, path: files.snapshot, limit: StoreFileLimits.likesSnapshot)
        snapshotBytes = bytes
        return bytes
    }

    /// The whole snapshot, read once from the descriptor held open and checked as any suite file.
    package func snapshot() throws(StoreError) -> (document: SuiteDocument, elements: [LikeCollection.Element]) {
        if let loaded { return loaded }
        guard snapshotFD >= 0 else {
            loaded = (SuiteDocument(schema: Suite.likes.schema), [])
            return loaded!
        }
        let bytes = try wholeSnapshot()
        var elements: [LikeCollection.Element] = []
        let document = try SuiteDocument.parse(bytes, path: files.snapshot, suite: .likes, walking: "likes") { rest throws(StoredValueError) in
            let walked = try LikeCollection.elements(walking: rest)
            if let twice = LikeCollection.firstDuplicate(walked.elements.map(\.id)) {
                let line = bytes[..<walked.elements[twice.second].bytes.startIndex].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                throw StoredValueError("item \(twice.second + 1) (line \(line)) has the productId \(twice.id) of item \(twice.first + 1) again")
            }
            elements = walked.elements
            return walked.length
        }
        loaded = (document, elements)
        return loaded!
    }
}
