import Foundation

/// A liked product: the full snapshot at the time of the like, so likes work when the source is
/// offline or retired.
public struct Like: Equatable, Sendable {
    public var product: Product
    /// ISO 8601 in UTC (`2026-11-29T20:33:43Z`): sorts as text.
    public var likedAt: String
    /// The price when liked.
    public var likedPrice: Int?

    public init(product: Product, likedAt: String, likedPrice: Int?) {
        self.product = product
        self.likedAt = likedAt
        self.likedPrice = likedPrice
    }

    /// The stored form: the item schema of search's JSON (without rank), then likedAt and
    /// likedPrice. productId comes first so the store can find ids without decoding.
    public var json: JSONValue {
        var o = JSONObject()
        ItemJSON.appendProduct(product, to: &o)
        o.appendUnchecked("likedAt", .string(likedAt))
        o.appendUnchecked("likedPrice", .int(orNull: likedPrice))
        return .object(o)
    }

    /// Strict decoding of a stored or imported like; `problem` says what is wrong.
    public init(json: JSONValue) throws(StoredValueError) {
        guard case .object(let o) = json else { throw StoredValueError("is \(json.kindName), not a like object") }
        func string(_ key: String, required: Bool = false) throws(StoredValueError) -> String? {
            switch o[key] {
            case .string(let s)?: return s
            case nil, .null?:
                if required { throw StoredValueError("has no \"\(key)\"") }
                return nil
            case let other?: throw StoredValueError("has \(other.kindName) for \"\(key)\"")
            }
        }
        func int(_ key: String) throws(StoredValueError) -> Int? {
            switch o[key] {
            case nil, .null?: return nil
            case .number(let n)?:
                guard let value = Int(n) else { throw StoredValueError("has a non-integer \"\(key)\"") }
                return value
            case let other?: throw StoredValueError("has \(other.kindName) for \"\(key)\"")
            }
        }
        guard let id = try string("productId", required: true), !id.isEmpty else { throw StoredValueError("has an empty \"productId\"") }
        var categories: [String] = []
        switch o["categories"] {
        case nil, .null?: break
        case .array(let values)?:
            for value in values {
                guard case .string(let s) = value else { throw StoredValueError("has a non-string category") }
                categories.append(s)
            }
        case let other?: throw StoredValueError("has \(other.kindName) for \"categories\"")
        }
        product = Product(productId: id, title: try string("title") ?? "", price: try int("price"), highPrice: try int("highPrice"),
                          mall: try string("mall"), brand: try string("brand"), maker: try string("maker"), categories: categories,
                          productType: try int("productType"), link: try string("link"), image: try string("image"))
        likedAt = try string("likedAt") ?? ""
        likedPrice = try int("likedPrice")
    }

    /// `2026-11-29T20:33:43Z`.
    public static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// The likes as stored: a JSON array, one like a line. Liking and unliking work on the raw
/// lines: the store is validated and the ids are read without decoding every like, and the lines
/// that did not change are written back as they were. (Codable on 10,000 likes costs ~200 ms on
/// Linux; this costs a few.)
public struct LikeCollection: RawStorable, Codable, Sendable {
    private struct Element: Sendable {
        var id: String
        var bytes: ArraySlice<UInt8>
        /// What the load-time check found (and listings sort by).
        var checked: RawLike
    }

    private var elements: [Element] = []

    public init() {}

    public var count: Int { elements.count }
    public var isEmpty: Bool { elements.isEmpty }
    public var ids: [String] { elements.map(\.id) }

    public func contains(_ id: String) -> Bool { elements.contains { $0.id == id } }

    /// Adds a like unless its product is liked already; true when added.
    @discardableResult
    public mutating func add(_ like: Like) -> Bool {
        guard !contains(like.product.productId) else { return false }
        let bytes = ArraySlice(JSONWriter.serialize(like.json))
        // Written by us, so it is canonical; likedAt is the string's bytes.
        let likedAt = ArraySlice(JSONWriter.serialize(.string(like.likedAt)).dropFirst().dropLast())
        elements.append(Element(id: like.product.productId, bytes: bytes,
                                checked: RawLike(bytes: bytes, likedAt: likedAt, price: like.product.price, canonical: true)))
        return true
    }

    /// Removes the like of `id`; true when there was one. Decoding is not needed to remove, so a
    /// like that no longer decodes can still be removed; a hand-edited file may hold an id twice,
    /// and afterwards none is left.
    @discardableResult
    public mutating func remove(_ id: String) -> Bool {
        let before = elements.count
        elements.removeAll { $0.id == id }
        return elements.count != before
    }

    public mutating func removeAll() { elements.removeAll() }

    /// The like of `id`, decoded.
    public func like(_ id: String) throws(StoredValueError) -> Like? {
        guard let element = elements.first(where: { $0.id == id }) else { return nil }
        return try LikeCollection.decode(element.bytes)
    }

    /// Every like, decoded, in stored order (oldest first).
    public func all() throws(StoredValueError) -> [Like] {
        var likes: [Like] = []
        likes.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            do {
                likes.append(try LikeCollection.decode(element.bytes))
            } catch {
                throw StoredValueError("item \(i + 1) \(error.problem)")
            }
        }
        return likes
    }

    static func decode(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> Like {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw StoredValueError("is not valid JSON: \(error)")
        }
        return try Like(json: json)
    }

    /// A stored like as its JSON bytes, checked to have the shape `Like(json:)` accepts, with what
    /// listings sort by.
    public struct RawLike: Sendable {
        public var bytes: ArraySlice<UInt8>
        public var likedAt: ArraySlice<UInt8>
        public var price: Int?
        /// Exactly the stored shape shopy writes: the schema's keys, in order, nothing else.
        /// Only such likes can be copied to the output as they are.
        public var canonical: Bool
    }

    /// Every like as checked bytes, in stored order, without building values: `likes --json`
    /// copies them to the output (re-indented), which is what keeps it fast at 10,000 likes.
    /// The checks are those of `Like(json:)`, so a like that would not decode is reported the
    /// same way here.
    public func rawLikes() -> [RawLike] { elements.map(\.checked) }

    private enum FieldKind {
        case id, text, integer, categories, likedAt, price
    }

    private static let fieldKinds: [(name: [UInt8], kind: FieldKind)] = {
        let table: [(String, FieldKind)] = [
            ("productId", .id), ("title", .text), ("price", .price), ("highPrice", .integer), ("mall", .text),
            ("brand", .text), ("maker", .text), ("categories", .categories), ("productType", .integer),
            ("link", .text), ("image", .text), ("likedAt", .likedAt), ("likedPrice", .integer),
        ]
        return table.map { (Array($0.0.utf8), $0.1) }
    }()

    /// A JSON integer's value (what `Int(String)` accepts: optional minus, digits, no overflow)
    /// without making a String of it.
    private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        let negative = digits[0] == UInt8(ascii: "-")
        let start = negative ? 1 : 0
        guard start < digits.count else { return nil }
        var value = 0
        for i in start..<digits.count {
            let d = digits[i] &- 0x30
            guard d < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(Int(d)) : times.addingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            value = sum
        }
        return value
    }

    private static func checkRaw(_ slice: ArraySlice<UInt8>) throws(StoredValueError) -> RawLike {
        try checkRaw(from: slice).like
    }

    /// Checks the like object at the start of `rest` (which may go on past it) and says how many
    /// bytes it took, so that loading walks each like once.
    private static func checkRaw(from rest: ArraySlice<UInt8>) throws(StoredValueError) -> (like: RawLike, length: Int) {
        var length = 0
        let slice = rest
        var likedAt = slice[slice.startIndex..<slice.startIndex]
        var price: Int?
        var hasID = false
        var expected = 0  // the next key of the canonical order
        var canonical = true
        let outcome: StoredValueError? = slice.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false  // checked with the whole file
            var problem: StoredValueError?
            do throws(JSONParseError) {
                guard parser.peekByte() == UInt8(ascii: "{") else { return StoredValueError("is not a like object") }
                try parser.forEachMemberRaw { key, parser throws(JSONParseError) in
                    guard problem == nil else { return }
                    let name = UnsafeBufferPointer(rebasing: buffer[key])
                    let found: FieldKind?
                    if expected < fieldKinds.count && fieldKinds[expected].name.elementsEqual(name) {
                        found = fieldKinds[expected].kind  // the usual case: the next key in order
                        expected += 1
                    } else {
                        canonical = false
                        found = fieldKinds.first(where: { $0.name.elementsEqual(name) })?.kind
                    }
                    guard let kind = found else { return }
                    // Only an error message needs the name as a String.
                    var field: String { String(decoding: name, as: UTF8.self) }
                    let first = parser.peekByte() ?? 0
                    let range = try parser.skipValue()
                    let isNull = first == UInt8(ascii: "n")
                    switch kind {
                    case .id:
                        guard first == UInt8(ascii: "\""), range.count > 2 else {
                            problem = StoredValueError(first == UInt8(ascii: "\"") ? "has an empty \"productId\"" : "has no \"productId\" string")
                            return
                        }
                        hasID = true
                    case .text, .likedAt:
                        guard first == UInt8(ascii: "\"") || isNull else {
                            problem = StoredValueError("has a non-string \"\(field)\"")
                            return
                        }
                        if kind == .likedAt && !isNull {
                            likedAt = slice[(slice.startIndex + range.lowerBound + 1)..<(slice.startIndex + range.upperBound - 1)]
                        }
                    case .integer, .price:
                        if isNull { return }
                        guard let value = LikeCollection.integer(UnsafeBufferPointer(rebasing: buffer[range])) else {
                            problem = StoredValueError("has a non-integer \"\(field)\"")
                            return
                        }
                        if kind == .price { price = value }
                    case .categories:
                        if isNull { return }
                        guard first == UInt8(ascii: "[") else {
                            problem = StoredValueError("has a non-list \"categories\"")
                            return
                        }
                        var inner = JSONParser(UnsafeBufferPointer(rebasing: buffer[range]))
                        inner.validatesUTF8 = false
                        try inner.forEachElement { _, inner throws(JSONParseError) in
                            if inner.peekByte() != UInt8(ascii: "\"") { problem = problem ?? StoredValueError("has a non-string category") }
                        }
                    }
                }
            } catch {
                return StoredValueError("is not valid JSON: \(error)")
            }
            length = parser.offset
            if let problem { return problem }
            return hasID ? nil : StoredValueError("has no \"productId\"")
        }
        if let outcome { throw outcome }
        let bytes = slice[slice.startIndex..<(slice.startIndex + length)]
        return (RawLike(bytes: bytes, likedAt: likedAt, price: price, canonical: canonical && expected == fieldKinds.count), length)
    }

    // MARK: RawStorable

    /// Decodes bytes that did not come from a checked suite file: their UTF-8 is checked first.
    public static func decodeStored(_ bytes: [UInt8]) throws(StoredValueError) -> LikeCollection {
        guard bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw StoredValueError("is not valid UTF-8") }
        return try decodeStored(bytes[...])
    }

    /// Bytes from a suite file, whose UTF-8 was checked as a whole when it was loaded.
    public static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> LikeCollection {
        var collection = LikeCollection()
        let shared = bytes
        let result: Result<Void, StoredValueError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            // The bytes come from a suite file whose UTF-8 was checked as a whole on load.
            parser.validatesUTF8 = false
            var index = 0
            do throws(JSONParseError) {
                var failure: StoredValueError?
                try parser.forEachElement { start, parser throws(JSONParseError) in
                    index += 1
                    if failure != nil { return }  // the rest is skipped (and still validated)
                    // Every like is checked to decode (types included) on load, not only when
                    // listed: a like/unlike/clear must not carry a damaged like along. The check
                    // walks the like once and says where it ends. (The parser counts from the
                    // slice's start; the slice keeps the file's indices.)
                    let base = shared.startIndex
                    let checked: (like: RawLike, length: Int)
                    do throws(StoredValueError) {
                        checked = try LikeCollection.checkRaw(from: shared[(base + start)...])
                    } catch {
                        failure = StoredValueError("item \(index) \(error.problem)")
                        return
                    }
                    let range = start..<(start + checked.length)
                    guard let id = LikeCollection.productId(in: buffer, range) else {
                        failure = StoredValueError("item \(index) has no productId string")
                        return
                    }
                    parser.index = range.upperBound
                    collection.elements.append(Element(id: id, bytes: checked.like.bytes, checked: checked.like))
                }
                try parser.expectEnd()
                if let failure { return .failure(failure) }
                return .success(())
            } catch {
                return .failure(StoredValueError("is not a valid list: \(error)"))
            }
        }
        try result.get()
        return collection
    }

    public func encodeStored() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(elements.reduce(4) { $0 + $1.bytes.count + 2 })
        out.append(UInt8(ascii: "["))
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
            out.append(contentsOf: element.bytes)
        }
        out.append(contentsOf: elements.isEmpty ? [] : [0x0A])
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// The productId of an object: the fast path reads `{"productId":"…"` at the start, as
    /// shopy writes it; otherwise the object's members are walked.
    private static func productId(in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        // Fast path: `{"productId":"…"` first, as shopy writes it (whitespace allowed, as other
        // JSON writers put it).
        var i = range.lowerBound
        func skipSpace() {
            while i < range.upperBound, buffer[i] == 0x20 || buffer[i] == 0x0A || buffer[i] == 0x0D || buffer[i] == 0x09 { i += 1 }
        }
        func take(_ expected: [UInt8]) -> Bool {
            guard i + expected.count <= range.upperBound,
                  UnsafeBufferPointer(rebasing: buffer[i..<(i + expected.count)]).elementsEqual(expected) else { return false }
            i += expected.count
            return true
        }
        if take([UInt8(ascii: "{")]) {
            skipSpace()
            if take(Array("\"productId\"".utf8)) {
                skipSpace()
                if take([UInt8(ascii: ":")]) {
                    skipSpace()
                    if take([UInt8(ascii: "\"")]) {
                        let start = i
                        while i < range.upperBound, buffer[i] != UInt8(ascii: "\""), buffer[i] != UInt8(ascii: "\\") { i += 1 }
                        if i < range.upperBound, buffer[i] == UInt8(ascii: "\"") {
                            let id = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)
                            return id.isEmpty ? nil : id
                        }
                    }
                }
            }
        }
        guard let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range])),
              case .string(let id)? = value["productId"], !id.isEmpty else { return nil }
        return id
    }

    // MARK: Codable (the store itself uses the raw codec above)

    public init(from decoder: Decoder) throws {
        for like in try decoder.singleValueContainer().decode([Like].self) { add(like) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try all())
    }
}

/// Codable in the same flat shape as `Like.json`.
extension Like: Codable {
    private enum Keys: String, CodingKey { case likedAt, likedPrice }

    public init(from decoder: Decoder) throws {
        product = try Product(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        likedAt = try container.decodeIfPresent(String.self, forKey: .likedAt) ?? ""
        likedPrice = try container.decodeIfPresent(Int.self, forKey: .likedPrice)
    }

    public func encode(to encoder: Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(likedAt, forKey: .likedAt)
        try container.encodeIfPresent(likedPrice, forKey: .likedPrice)
    }
}

extension StoredValueError: CustomStringConvertible {
    public var description: String { problem }
}

/// A search remembered in the history.
public struct HistoryEntry: Codable, Equatable, Sendable {
    public var query: String
    /// ISO 8601 UTC.
    public var at: String

    public init(query: String, at: String) {
        self.query = query
        self.at = at
    }

    public static let limit = 100

    /// Adds `query` as the most recent, removing older duplicates, keeping at most `limit`.
    public static func record(_ query: String, at: String, in history: [HistoryEntry]) -> [HistoryEntry] {
        var updated = [HistoryEntry(query: query, at: at)]
        updated += history.filter { $0.query != query }
        return Array(updated.prefix(limit))
    }
}

/// The rows of the last listing, so that `shopy like 3` means the third row printed.
public struct LastListing: Codable, Equatable, Sendable {
    public struct Row: Codable, Equatable, Sendable {
        /// The row as printed: `21`, or `2.3` for section 2, rank 3 of a popular listing.
        public var row: String
        public var product: Product

        public init(row: String, product: Product) {
            self.row = row
            self.product = product
        }
    }

    /// What produced it, e.g. `search 방충망 (page 2)`.
    public var command: String
    public var savedAt: String
    public var rows: [Row]

    public init(command: String, savedAt: String, rows: [Row]) {
        self.command = command
        self.savedAt = savedAt
        self.rows = rows
    }
}
