#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The import's merge on raw records: by productId, a later record replaces an earlier one and
/// keeps its first-seen date (the oldest known, never one in the future).
extension CatalogService {
    typealias Batch = (origin: String, items: CatalogRawRecords)

    /// The batches are handed over: one batch into an empty catalog is merged in its own table
    /// (its records moved down over the duplicates), not copied.
    func merge(_ batches: inout [Batch], report: CatalogImportReport, store: CatalogByteStore) throws -> CatalogImportReport {
        let stamp = store.copy(CatalogRecord.timestamp(now()))
        let width = CatalogRawRecords.fieldCount
        return try local.updateRaw(store: store) { records in
            var r = report
            let total = batches.reduce(0) { $0 + $1.items.count }
            let inPlace = records.count == 0 && batches.count == 1
            if inPlace {
                records = batches[0].items
                batches[0].items = CatalogRawRecords(store: store)  // the table is the records' alone now
            } else {
                records.spans.reserveCapacity(records.spans.count + total * width)
            }
            var kept = inPlace ? 0 : records.count  // the records so far (in place: the table's first ones)
            let position = CatalogIdTable(capacity: kept + total)
            for i in 0..<kept { position[CatalogIdKey(records[i, .productId].buffer)] = i }
            var addedNow = [Bool](repeating: false, count: kept)  // by record: added by this import
            var updatedNow = addedNow
            for b in batches.indices {
                let origin = store.copy(batches[b].origin)
                let place = batches[b].origin
                let items = batches[b].items  // empty in place: the items are the records' table
                let count = inPlace ? records.count : items.count
                // The ids' keys first, in a loop of their own: their bytes lie all over the input,
                // and independent loads overlap their cache misses (in place, a record is only
                // moved down over one already taken, so each is read before it can change).
                let keys = CatalogIdKey.keys(count) { n in (inPlace ? records[n, .productId] : items[n, .productId]).buffer }
                for n in 0..<count {
                    var seen = inPlace ? records[n, .firstSeen] : items[n, .firstSeen]
                    if !seen.isAbsent && CatalogIdKey.compare(seen.buffer, stamp.buffer) > 0 { seen = .absent }
                    let id = inPlace ? records[n, .productId] : items[n, .productId]
                    let key = keys[n]
                    if let at = position[key] {
                        let firstSeen = CatalogIdKey.earlier(records[at, .firstSeen], seen)
                        let same = inPlace ? records.itemsEqual(at, records, n) : records.itemsEqual(at, items, n)
                        if same && CatalogRawRecords.textEqual(firstSeen.buffer, records[at, .firstSeen].buffer) {
                            r.skipped.append(.init(place: place, productId: String(decoding: id.buffer, as: UTF8.self), reason: "unchanged"))
                            continue
                        }
                        for field in 0..<CatalogRawRecords.Field.firstSeen.rawValue {
                            records.spans[at * width + field] = inPlace ? records.spans[n * width + field] : items.spans[n * width + field]
                        }
                        records[at, .firstSeen] = firstSeen
                        records[at, .updated] = stamp
                        records[at, .origin] = origin
                        if addedNow[at] || updatedNow[at] {
                            r.skipped.append(.init(place: place, productId: String(decoding: id.buffer, as: UTF8.self),
                                                   reason: "an earlier record of the same productId in this import was replaced by a later one"))
                        } else {
                            updatedNow[at] = true
                            r.updated += 1
                        }
                    } else {
                        let at = kept
                        position[key] = at
                        if !inPlace {
                            records.append(from: items, record: n)
                        } else if at != n {
                            for field in 0..<width { records.spans[at * width + field] = records.spans[n * width + field] }
                        }
                        kept += 1
                        records[at, .firstSeen] = CatalogIdKey.earlier(stamp, seen)
                        records[at, .updated] = stamp
                        records[at, .origin] = origin
                        addedNow.append(true)
                        updatedNow.append(false)
                        r.added += 1
                    }
                }
            }
            if inPlace { records.spans.removeSubrange((kept * width)...) }
            r.total = records.count
            return (r, r.added + r.updated > 0)
        }
    }
}

/// A usable productId (1 to 32 ASCII digits) as a dictionary key without a String: its length
/// and the values of its first 19 digits and of the rest.
struct CatalogIdKey: Equatable {
    var head: UInt64
    var tail: UInt64

    init(head: UInt64, tail: UInt64) {
        self.head = head
        self.tail = tail
    }

    init(_ digits: UnsafeBufferPointer<UInt8>) {
        var head: UInt64 = 0, tail: UInt64 = 0
        for (i, b) in digits.enumerated() {
            if i < 19 { head = head &* 10 &+ UInt64(b &- 0x30) } else { tail = tail &* 10 &+ UInt64(b &- 0x30) }
        }
        self.head = head
        self.tail = tail << 8 | UInt64(digits.count & 0xFF)
    }

    /// From how many ids `keys` works in two halves (tests lower it).
    nonisolated(unsafe) static var keysInHalvesFrom = 16_384

    /// The keys of `count` productIds, `id(n)` the n-th one's digits; a large batch in two halves
    /// at once (the ids lie all over the input, and each half's cache misses overlap too).
    static func keys(_ count: Int, _ id: (Int) -> UnsafeBufferPointer<UInt8>) -> [CatalogIdKey] {
        [CatalogIdKey](unsafeUninitializedCapacity: count) { out, initialized in
            let base = out.baseAddress
            withoutActuallyEscaping(id) { id in
                let halves = count >= keysInHalvesFrom && count >= 2 ? [0..<(count / 2), (count / 2)..<count] : [0..<count]
                CatalogParallel.run(halves.count) { h in
                    for n in halves[h] { (base! + n).initialize(to: CatalogIdKey(id(n))) }
                }
            }
            initialized = count
        }
    }

    /// Bytewise order (the order of ASCII text as Strings compare it).
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        if n > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    /// `CatalogRecord.earlier` of spans: the older of two first-seen dates, a missing or
    /// unreadable one never winning.
    static func earlier(_ a: CatalogRawRecords.Span, _ b: CatalogRawRecords.Span) -> CatalogRawRecords.Span {
        guard !b.isAbsent, CatalogRawBytes.isTimestamp(b.buffer) else { return a }
        guard CatalogRawBytes.isTimestamp(a.buffer) else { return b }
        return compare(b.buffer, a.buffer) < 0 ? b : a
    }
}

/// productIds to record numbers: open addressing over `CatalogIdKey`s, sized once.
final class CatalogIdTable {
    private var keys: [CatalogIdKey]
    private var values: [Int]
    private let mask: Int

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        keys = [CatalogIdKey](repeating: CatalogIdKey(head: 0, tail: 0), count: size)  // tail 0: empty (a key's tail holds its length)
        values = [Int](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always) private func slot(of key: CatalogIdKey) -> Int {
        var s = Int(truncatingIfNeeded: ((key.head ^ (key.tail &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> 32) & mask
        while keys[s].tail != 0 && keys[s] != key { s = (s + 1) & mask }
        return s
    }

    subscript(key: CatalogIdKey) -> Int? {
        get {
            let s = slot(of: key)
            return keys[s].tail == 0 ? nil : values[s]
        }
        set {
            guard let newValue else { return }
            let s = slot(of: key)
            keys[s] = key
            values[s] = newValue
        }
    }
}
