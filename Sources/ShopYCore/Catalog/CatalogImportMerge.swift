#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The import's merge on raw records: by productId, a later record replaces an earlier one and
/// keeps its first-seen date (the oldest known, never one in the future).
extension CatalogService {
    typealias Batch = (origin: String, items: CatalogRawRecords)

    func merge(_ batches: [Batch], report: CatalogImportReport, store: CatalogByteStore) throws -> CatalogImportReport {
        let stamp = store.copy(CatalogRecord.timestamp(now()))
        return try local.updateRaw(store: store) { records in
            var r = report
            records.spans.reserveCapacity(records.spans.count + batches.reduce(0) { $0 + $1.items.spans.count })
            let position = CatalogIdTable(capacity: records.count + batches.reduce(0) { $0 + $1.items.count })
            for i in 0..<records.count { position[CatalogIdKey(records[i, .productId].buffer)] = i }
            var addedNow = [Bool](repeating: false, count: records.count)  // by record: added by this import
            var updatedNow = addedNow
            for batch in batches {
                let origin = store.copy(batch.origin)
                let items = batch.items
                for n in 0..<items.count {
                    var seen = items[n, .firstSeen]
                    if !seen.isAbsent && CatalogIdKey.compare(seen.buffer, stamp.buffer) > 0 { seen = .absent }
                    let id = items[n, .productId]
                    let key = CatalogIdKey(id.buffer)
                    if let at = position[key] {
                        let firstSeen = CatalogIdKey.earlier(records[at, .firstSeen], seen)
                        if records.itemsEqual(at, items, n) && CatalogRawRecords.textEqual(firstSeen.buffer, records[at, .firstSeen].buffer) {
                            r.skipped.append(.init(place: batch.origin, productId: String(decoding: id.buffer, as: UTF8.self), reason: "unchanged"))
                            continue
                        }
                        for field in 0..<CatalogRawRecords.Field.firstSeen.rawValue {
                            records.spans[at * CatalogRawRecords.fieldCount + field] = items.spans[n * CatalogRawRecords.fieldCount + field]
                        }
                        records[at, .firstSeen] = firstSeen
                        records[at, .updated] = stamp
                        records[at, .origin] = origin
                        if addedNow[at] || updatedNow[at] {
                            r.skipped.append(.init(place: batch.origin, productId: String(decoding: id.buffer, as: UTF8.self),
                                                   reason: "an earlier record of the same productId in this import was replaced by a later one"))
                        } else {
                            updatedNow[at] = true
                            r.updated += 1
                        }
                    } else {
                        position[key] = records.count
                        records.append(from: items, record: n)
                        let at = records.count - 1
                        records[at, .firstSeen] = CatalogIdKey.earlier(stamp, seen)
                        records[at, .updated] = stamp
                        records[at, .origin] = origin
                        addedNow.append(true)
                        updatedNow.append(false)
                        r.added += 1
                    }
                }
            }
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
