import ShopYBase

/// The local catalog's records as UTF-8 byte spans, for the import path: no String per field.
///
/// Each record has `fieldCount` fields, the item's fourteen in the order `CatalogRecord.write`
/// writes them, then firstSeen, updated and origin. A field points into bytes that a
/// `CatalogByteStore` keeps alive (an input file as it was read, or its own arena for decoded
/// escapes, converted records and shared values such as the import's timestamp), or is absent
/// (the item had no such member, or null).
struct CatalogRawRecords {
    static let fieldCount = 17
    /// The fields in `WireItem.json`'s order, with what an absent one is written as.
    enum Field: Int, CaseIterable {
        case title, link, image, lprice, hprice, mallName, productId, productType, brand, maker
        case category1, category2, category3, category4, firstSeen, updated, origin

        /// The member's key as the items file writes it, with its quotes and colon.
        var key: StaticString {
            switch self {
            case .title: return "\"title\":"
            case .link: return "\"link\":"
            case .image: return "\"image\":"
            case .lprice: return "\"lprice\":"
            case .hprice: return "\"hprice\":"
            case .mallName: return "\"mallName\":"
            case .productId: return "\"productId\":"
            case .productType: return "\"productType\":"
            case .brand: return "\"brand\":"
            case .maker: return "\"maker\":"
            case .category1: return "\"category1\":"
            case .category2: return "\"category2\":"
            case .category3: return "\"category3\":"
            case .category4: return "\"category4\":"
            case .firstSeen: return "\"firstSeen\":"
            case .updated: return "\"updated\":"
            case .origin: return "\"origin\":"
            }
        }
    }

    /// A field's bytes; `count < 0` when absent.
    struct Span: Equatable {
        var start: UnsafePointer<UInt8>?
        var count: Int
        static var absent: Span { Span(start: nil, count: -1) }
        var isAbsent: Bool { count < 0 }
        var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: max(count, 0)) }
        /// The bytes, or `fallback` when absent (the value `WireItem.json` writes).
        func bytes(or fallback: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> { isAbsent ? fallback : buffer }
    }

    let store: CatalogByteStore
    var spans: [Span] = []

    init(store: CatalogByteStore, capacity: Int = 0) {
        self.store = store
        spans.reserveCapacity(capacity * CatalogRawRecords.fieldCount)
    }

    var count: Int { spans.count / CatalogRawRecords.fieldCount }

    @inline(__always) subscript(record: Int, field: Field) -> Span {
        get { spans[record * CatalogRawRecords.fieldCount + field.rawValue] }
        set { spans[record * CatalogRawRecords.fieldCount + field.rawValue] = newValue }
    }

    /// Appends one record of absent fields; returns its number.
    mutating func appendAbsent() -> Int {
        spans.append(contentsOf: repeatElement(Span.absent, count: CatalogRawRecords.fieldCount))
        return count - 1
    }

    /// Appends a record's fields copied from another table.
    mutating func append(from other: CatalogRawRecords, record: Int) {
        let base = record * CatalogRawRecords.fieldCount
        other.spans.withUnsafeBufferPointer { spans.append(contentsOf: UnsafeBufferPointer(rebasing: $0[base..<(base + CatalogRawRecords.fieldCount)])) }
    }

    /// Appends an item (its fields copied into the store), with shopy's three fields when given.
    mutating func append(_ item: WireItem, firstSeen: String?, updated: String? = nil, origin: String? = nil) {
        let r = appendAbsent()
        let values: [String?] = [item.title, item.link, item.image, item.lprice, item.hprice, item.mallName, item.productId,
                                 item.productType, item.brand, item.maker, item.category1, item.category2, item.category3,
                                 item.category4, firstSeen, updated, origin]
        for (k, value) in values.enumerated() {
            guard let value else { continue }
            spans[r * CatalogRawRecords.fieldCount + k] = store.copy(value)
        }
    }

    init(records: [CatalogRecord], store: CatalogByteStore) {
        self.init(store: store, capacity: records.count)
        for record in records { append(record.item, firstSeen: record.firstSeen, updated: record.updated, origin: record.origin) }
    }

    /// The item of a record as a `WireItem` (for tests and reports).
    func item(_ r: Int) -> WireItem {
        func text(_ field: Field) -> String? {
            let span = self[r, field]
            return span.isAbsent ? nil : String(decoding: span.buffer, as: UTF8.self)
        }
        return WireItem(title: text(.title) ?? "", link: text(.link), image: text(.image), lprice: text(.lprice), hprice: text(.hprice),
                        mallName: text(.mallName), productId: text(.productId) ?? "", productType: text(.productType), brand: text(.brand),
                        maker: text(.maker), category1: text(.category1), category2: text(.category2), category3: text(.category3),
                        category4: text(.category4))
    }

    /// Whether two records' items are equal as `WireItem.json` compares them: each field as it
    /// is written (absent as its default), as Swift compares Strings (canonical equivalence).
    func itemsEqual(_ a: Int, _ other: CatalogRawRecords, _ b: Int) -> Bool {
        for field in Field.allCases where field.rawValue < Field.firstSeen.rawValue {
            let x = self[a, field], y = other[b, field]
            let zero: StaticString = "0", empty: StaticString = ""
            let fallback = field == .lprice ? zero : empty
            let fb = UnsafeBufferPointer(start: fallback.utf8Start, count: fallback.utf8CodeUnitCount)
            if !CatalogRawRecords.textEqual(x.bytes(or: fb), y.bytes(or: fb)) { return false }
        }
        return true
    }

    /// Byte equality, or, for text beyond ASCII, String equality (canonically equivalent texts
    /// are equal Strings).
    static func textEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        if CatalogText.equal(x, y) { return true }
        guard x.contains(where: { $0 >= 0x80 }) || y.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: x, as: UTF8.self) == String(decoding: y, as: UTF8.self)
    }
}

/// Keeps the bytes `CatalogRawRecords` spans point into alive, and holds copies in chunks that
/// never move.
final class CatalogByteStore: @unchecked Sendable {
    private var kept: [[UInt8]] = []
    private var chunks: [UnsafeMutablePointer<UInt8>] = []
    private var current: UnsafeMutablePointer<UInt8>?
    private var used = 0, capacity = 0
    private static let chunkSize = 1 << 20

    init() {}

    deinit { for chunk in chunks { chunk.deallocate() } }

    /// Keeps `bytes` (never mutated afterwards) and returns where they are.
    func keep(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        kept.append(bytes)
        // An array that is kept and never mutated keeps its storage where it is.
        return kept[kept.count - 1].withUnsafeBufferPointer { $0 }
    }

    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> CatalogRawRecords.Span {
        guard bytes.count > 0, let source = bytes.baseAddress else { return CatalogRawRecords.Span(start: nil, count: 0) }
        if current == nil || used + bytes.count > capacity {
            let size = max(CatalogByteStore.chunkSize, bytes.count)
            let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            chunks.append(chunk)
            current = chunk
            used = 0
            capacity = size
        }
        let at = current! + used
        at.update(from: source, count: bytes.count)
        used += bytes.count
        return CatalogRawRecords.Span(start: UnsafePointer(at), count: bytes.count)
    }

    func copy(_ text: String) -> CatalogRawRecords.Span {
        var text = text
        return text.withUTF8 { copy($0) }
    }

    func copy(_ bytes: [UInt8]) -> CatalogRawRecords.Span {
        bytes.withUnsafeBufferPointer { copy($0) }
    }
}
