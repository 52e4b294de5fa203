#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The local catalog in SHOPY_HOME: `catalog.json` (the records, one per line, the truth) and
/// `catalog.index` (their index, derived, mapped by searches), changed only under
/// `catalog.lock`. A change writes both files whole (temp file, rename, directory fsync; the
/// items file fsynced, the derived and checksummed index not), the items first: the items
/// file's rename is the commit. An index that does not belong to the
/// items file (a crash between the renames, a copy) is rebuilt; an items file that does not
/// parse is reported and never overwritten.
public struct LocalCatalog: Sendable {
    public static let schema = 1
    public let directory: String
    public var itemsPath: String { directory + "/catalog.json" }
    public var indexPath: String { directory + "/catalog.index" }
    public var lockPath: String { directory + "/catalog.lock" }
    /// The most bytes catalog.json may hold (`StoreFileLimits.catalogItems`): a larger one is
    /// damaged, and a change that would make it larger is refused. Tests lower it.
    var itemsLimit = StoreFileLimits.catalogItems

    public init(directory: String) { self.directory = directory }
    public init(environment: [String: String]) { self.init(directory: FileIO.home(environment: environment)) }

    // MARK: - Reading for search

    /// The local part as searches read it (mapped, nothing decoded), nil when there is none.
    /// Both files are opened under the lock, so a search sees one commit, whatever happens next.
    /// An index that is missing or belongs to another commit is built again from catalog.json;
    /// so is a damaged one, and `notice` is told so.
    func part(notice: (String) -> Void = { _ in }) throws(StoreError) -> CatalogPart? {
        var info = stat()
        guard lstat(itemsPath, &info) == 0 else { return nil }  // no local catalog (a link or FIFO is refused below)
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        guard let items = try mapItems() else { return nil }
        let problem: String?
        do {
            if let index = try CatalogIndex.map(path: indexPath), belongs(index, to: items) {
                return CatalogPart(json: items, index: index)
            }
            problem = nil
        } catch .damaged(_, let damage) {
            problem = damage
        } catch {
            problem = error.message
        }
        return try rebuiltPart(items, because: problem, notice: notice)
    }

    /// The part with its index built again from catalog.json (under the lock), which also
    /// replaces catalog.index when the file is as shopy writes it (the new index's ranges fit
    /// it). `problem`: what was wrong with the index, told to `notice`; nil for an index that is
    /// missing or stale, built again without a word.
    func rebuiltPart(_ items: MappedBytes, because problem: String?, notice: (String) -> Void) throws(StoreError) -> CatalogPart? {
        let file = Array(items.buffer.bindMemory(to: UInt8.self))
        let records = try decode(file)
        let (bytes, index) = encode(records.records, generation: records.generation)
        let kept = bytes == file && (try? FileIO.atomicWrite(index, to: indexPath)) != nil
        if let problem {
            notice("catalog.index could not be used (\(problem)); built it again from catalog.json" + (kept ? "" : " for this search"))
        }
        guard let built = try? CatalogIndex(bytes: index) else { return nil }
        return CatalogPart(json: bytes == file ? items : MappedBytes(copying: bytes), index: built)
    }

    /// The part again, its index rebuilt from catalog.json because a search found `problem` in
    /// it (see `CatalogIndex.damage`).
    func repairedPart(because problem: String, notice: (String) -> Void) throws(StoreError) -> CatalogPart? {
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        guard let items = try mapItems() else { return nil }
        return try rebuiltPart(items, because: problem, notice: notice)
    }

    /// catalog.json mapped, nil when there is none; one past `itemsLimit` is damaged (it may be
    /// read whole, when its index is built again).
    func mapItems() throws(StoreError) -> MappedBytes? {
        guard let items = try MappedBytes.map(path: itemsPath) else { return nil }
        if items.buffer.count > itemsLimit { throw FileIO.tooLarge(itemsPath, size: items.buffer.count, limit: itemsLimit) }
        return items
    }

    func belongs(_ index: CatalogIndex, to items: MappedBytes) -> Bool {
        guard index.itemsLength == items.buffer.count else { return false }
        let prefix = Array("{\"schema\":\(LocalCatalog.schema),\"generation\":\(index.generation),".utf8)
        return items.buffer.count >= prefix.count && items.buffer.prefix(prefix.count).elementsEqual(prefix)
    }

    // MARK: - Reading and writing records

    public struct Contents: Sendable {
        public var generation: UInt64
        public var records: [CatalogRecord]
    }

    /// Every record, strictly decoded; empty when there is no local catalog.
    public func load() throws(StoreError) -> Contents {
        guard let bytes = try FileIO.readStoreFile(itemsPath, limit: itemsLimit) else { return Contents(generation: 0, records: []) }
        return try decode(bytes)
    }

    func decode(_ bytes: [UInt8]) throws(StoreError) -> Contents {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw .damaged(path: itemsPath, problem: "it is not JSON (\(error))")
        }
        guard case .object(let object) = value, case .array(let elements)? = object["items"] else {
            throw .damaged(path: itemsPath, problem: "it is not a catalog: no \"items\" array")
        }
        let schema = object["schema"]?.intValue ?? 0
        guard schema >= 1 else { throw .damaged(path: itemsPath, problem: "it has no schema") }
        guard schema <= LocalCatalog.schema else { throw .newerSchema(path: itemsPath, found: schema, known: LocalCatalog.schema) }
        var records: [CatalogRecord] = []
        records.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            do { records.append(try CatalogRecord(json: element, index: i)) } catch {
                throw .damaged(path: itemsPath, problem: error.description)
            }
        }
        let generation = object["generation"].flatMap { UInt64($0.textValue ?? "") } ?? 0
        return Contents(generation: generation, records: records)
    }

    /// The two files' bytes for `records`: one record a line, and the index of their ranges.
    func encode(_ records: [CatalogRecord], generation: UInt64) -> (items: [UInt8], index: [UInt8]) {
        encode(CatalogRawRecords(records: records, store: CatalogByteStore()), generation: generation)
    }

    /// Loads, changes and writes the records under the lock; nothing is written when `change`
    /// throws or returns false.
    public func update<R>(_ change: (inout [CatalogRecord]) throws -> (R, Bool)) throws -> R {
        try FileIO.ensureDirectory(directory)
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        var contents = try load()
        let (result, changed) = try change(&contents.records)
        if changed { try write(contents.records, after: contents.generation) }
        return result
    }

    /// Writes the records as the next generation after `generation` (see `write(_:after:)` of raw records).
    public func write(_ records: [CatalogRecord], after generation: UInt64) throws(StoreError) {
        try write(CatalogRawRecords(records: records, store: CatalogByteStore()), after: generation)
    }

    /// The size of the two files on disk.
    public func sizeOnDisk() -> Int {
        [itemsPath, indexPath].reduce(0) { total, path in
            var info = stat()
            return lstat(path, &info) == 0 ? total + Int(info.st_size) : total
        }
    }
}
