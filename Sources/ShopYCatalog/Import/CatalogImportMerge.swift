import ShopYBase

/// The import's merge on raw records: by productId, a later record replaces an earlier one and
/// keeps its first-seen date (the oldest known, never one in the future).
extension CatalogService {
    typealias Batch = (origin: String, items: CatalogRawRecords)

    func merge(_ batches: [Batch], report: CatalogImportReport, store: CatalogByteStore) throws -> CatalogImportReport {
        let stamp = store.copy(CatalogRecord.timestamp(now()))
        return try local.updateRaw(store: store) { records in
            var r = report
            let most = records.count + batches.reduce(0) { $0 + $1.items.count }
            records.spans.reserveCapacity(most * CatalogRawRecords.fieldCount)
            var position: [String: Int] = [:]
            position.reserveCapacity(most)
            for i in 0..<records.count { position[String(decoding: records[i, .productId].buffer, as: UTF8.self)] = i }
            var changedNow = [Bool](repeating: false, count: records.count)  // by record: added or updated by this import
            for batch in batches {
                let origin = store.copy(batch.origin)
                let items = batch.items
                for n in 0..<items.count {
                    var seen = items[n, .firstSeen]
                    if !seen.isAbsent && stamp.buffer.lexicographicallyPrecedes(seen.buffer) { seen = .absent }
                    let id = String(decoding: items[n, .productId].buffer, as: UTF8.self)
                    guard let at = position[id] else {
                        position[id] = records.count
                        records.append(from: items, record: n)
                        let at = records.count - 1
                        records[at, .firstSeen] = CatalogRawBytes.earlier(stamp, seen)
                        records[at, .updated] = stamp
                        records[at, .origin] = origin
                        changedNow.append(true)
                        r.added += 1
                        continue
                    }
                    let firstSeen = CatalogRawBytes.earlier(records[at, .firstSeen], seen)
                    if records.itemsEqual(at, items, n) && CatalogRawRecords.textEqual(firstSeen.buffer, records[at, .firstSeen].buffer) {
                        r.skipped.append(.init(place: batch.origin, productId: id, reason: "unchanged"))
                        continue
                    }
                    for field in CatalogRawRecords.Field.allCases where field.rawValue < CatalogRawRecords.Field.firstSeen.rawValue {
                        records[at, field] = items[n, field]
                    }
                    records[at, .firstSeen] = firstSeen
                    records[at, .updated] = stamp
                    records[at, .origin] = origin
                    if changedNow[at] {
                        r.skipped.append(.init(place: batch.origin, productId: id,
                                               reason: "an earlier record of the same productId in this import was replaced by a later one"))
                    } else {
                        changedNow[at] = true
                        r.updated += 1
                    }
                }
            }
            r.total = records.count
            return (r, r.added + r.updated > 0)
        }
    }
}
