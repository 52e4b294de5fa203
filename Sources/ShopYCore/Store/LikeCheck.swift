import Foundation
import ShopYBase

/// The load-time check of stored likes: each like is walked once, as bytes, for the shape
/// `Like(json:)` accepts, without building values.
extension LikeCollection {
    enum FieldKind {
        /// Texts, each with the bound an answer's field has (`FieldLimits`).
        case id, title, shopText, url, integer, categories, likedAt, price
    }

    static let fieldKinds: [(name: [UInt8], kind: FieldKind)] = {
        let table: [(String, FieldKind)] = [
            ("productId", .id), ("title", .title), ("price", .price), ("highPrice", .integer), ("mall", .shopText),
            ("brand", .shopText), ("maker", .shopText), ("categories", .categories), ("productType", .integer),
            ("link", .url), ("image", .url), ("likedAt", .likedAt), ("likedPrice", .integer),
        ]
        return table.map { (Array($0.0.utf8), $0.1) }
    }()

    /// A JSON integer's value (what `Int(String)` accepts: optional minus, digits, no overflow)
    /// without making a String of it.
    static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
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

    /// Whether a key's bytes are `name` (a memcmp, not a generic sequence comparison).
    @inline(__always)
    static func same(_ name: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        name.count == key.count && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
    }

    /// `2026-11-29T20:33:43Z` → 20261129203343, or nil for any other form (then listings compare
    /// likedAt as text, which orders the same).
    static func timestampKey(_ t: UnsafeBufferPointer<UInt8>) -> Int? {
        guard t.count == 20, t[4] == 0x2D, t[7] == 0x2D, t[10] == 0x54, t[13] == 0x3A, t[16] == 0x3A, t[19] == 0x5A else { return nil }
        var key = 0
        var i = 0
        while i < 19 {
            if i == 4 || i == 7 || i == 10 || i == 13 || i == 16 {
                i += 1
                continue
            }
            let digit = Int(t[i]) &- 0x30
            guard digit >= 0 && digit <= 9 else { return nil }
            key = key * 10 + digit
            i += 1
        }
        return key
    }

    static func checkRaw(_ slice: ArraySlice<UInt8>) throws(StoredValueError) -> RawLike {
        try checkRaw(from: slice).like
    }

    /// Checks the like object at the start of `rest` (which may go on past it) and says how many
    /// bytes it took, so that loading walks each like once.
    static func checkRaw(from rest: ArraySlice<UInt8>) throws(StoredValueError) -> (like: RawLike, length: Int) {
        var length = 0
        let slice = rest
        var likedAt = slice[slice.startIndex..<slice.startIndex]
        var price: Int?
        var likedAtKey: Int?
        var hasID = false
        var expected = 0  // the next key of the canonical order
        var canonical = true
        var withinLimits = true
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
                    if expected < fieldKinds.count && LikeCollection.same(fieldKinds[expected].name, name) {
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
                        guard LikeCollection.isProductID(quoted: UnsafeBufferPointer(rebasing: buffer[range])) else {
                            problem = StoredValueError("has a \"productId\" that is not \(ProductID.described)")
                            return
                        }
                        hasID = true
                    case .title, .shopText, .url, .likedAt:
                        guard first == UInt8(ascii: "\"") || isNull else {
                            problem = StoredValueError("has a non-string \"\(field)\"")
                            return
                        }
                        // Its bytes as written (escapes included) are at least its Characters and
                        // its UTF-8 bytes: within the bound when they are.
                        let written = range.count - 2
                        switch kind {
                        case .title: withinLimits = withinLimits && written <= FieldLimits.title
                        case .shopText: withinLimits = withinLimits && written <= FieldLimits.shopText
                        case .url: withinLimits = withinLimits && written <= FieldLimits.url
                        default: break
                        }
                        if kind == .likedAt && !isNull {
                            likedAt = slice[(slice.startIndex + range.lowerBound + 1)..<(slice.startIndex + range.upperBound - 1)]
                            likedAtKey = LikeCollection.timestampKey(UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + 1)..<(range.upperBound - 1)]))
                        }
                    case .integer, .price:
                        if isNull { return }
                        let digits = UnsafeBufferPointer(rebasing: buffer[range])
                        guard let value = LikeCollection.integer(digits) else {
                            let whole = WholeNumber.exactly(jsonNumber: String(decoding: digits, as: UTF8.self))
                            problem = StoredValueError(whole == .outOfRange ? Like.outOfRange(field) : "has a non-integer \"\(field)\"")
                            return
                        }
                        // Prices and the product type are never negative (the mapper drops such
                        // answers): a negative one is damage, not a price to show.
                        guard value >= 0 else {
                            problem = StoredValueError("has a negative \"\(field)\"")
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
                        var count = 0
                        try inner.forEachElement { _, inner throws(JSONParseError) in
                            count += 1
                            if inner.peekByte() != UInt8(ascii: "\"") { problem = problem ?? StoredValueError("has a non-string category") }
                            // Skipped here (forEachElement skips what the body leaves) unless measured.
                            if count <= FieldLimits.categories && withinLimits {
                                let category = try inner.skipValue()
                                withinLimits = category.count - 2 <= FieldLimits.shopText
                            }
                        }
                        withinLimits = withinLimits && count <= FieldLimits.categories
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
        return (RawLike(bytes: bytes, likedAt: likedAt, price: price, canonical: canonical && expected == fieldKinds.count, likedAtKey: likedAtKey,
                        withinFieldLimits: withinLimits), length)
    }

    /// One like object (a journal record's, or one the index points at), checked as on load:
    /// the bytes must hold exactly one like and be valid UTF-8.
    static func element(from bytes: ArraySlice<UInt8>) throws(StoredValueError) -> Element {
        guard bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw StoredValueError("is not valid UTF-8") }
        let checked = try checkRaw(from: bytes)
        guard bytes[(bytes.startIndex + checked.length)...].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw StoredValueError("has bytes after the like")
        }
        let id: String? = bytes.withUnsafeBufferPointer { productId(in: $0, 0..<checked.length) }
        guard let id else { throw StoredValueError("has no productId string") }
        return Element(id: id, bytes: checked.like.bytes, checked: checked.like)
    }

    // MARK: RawStorable

    /// Decodes bytes that did not come from a checked suite file: their UTF-8 is checked first.
    public static func decodeStored(_ bytes: [UInt8]) throws(StoredValueError) -> LikeCollection {
        guard bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw StoredValueError("is not valid UTF-8") }
        return try decodeStored(bytes[...])
    }

    /// Bytes from a suite file, whose UTF-8 was checked as a whole when it was loaded.
    public static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> LikeCollection {
        LikeCollection(elements: try elements(fromStored: bytes))
    }

    /// The likes of a stored list, each checked; their bytes are slices of `bytes` (whose
    /// indices are the file's offsets).
    package static func elements(fromStored bytes: ArraySlice<UInt8>) throws(StoredValueError) -> [Element] {
        let (elements, length) = try elements(walking: bytes)
        guard bytes[(bytes.startIndex + length)...].allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw StoredValueError("is not a valid list: \(JSONParseError(reason: .trailingData, offset: length))")
        }
        return elements
    }

    /// The likes of the list at the start of `rest` (which may go on past it: a whole file), and
    /// the bytes the list takes, so that loading a snapshot walks its likes once.
    static func elements(walking bytes: ArraySlice<UInt8>) throws(StoredValueError) -> (elements: [Element], length: Int) {
        var elements: [Element] = []
        var length = 0
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
                    elements.append(Element(id: id, bytes: checked.like.bytes, checked: checked.like))
                }
                length = parser.offset
                if let failure { return .failure(failure) }
                return .success(())
            } catch {
                return .failure(StoredValueError("is not a valid list: \(error)"))
            }
        }
        try result.get()
        return (elements, length)
    }

    /// shopy writes it; otherwise the object's members are walked.
    static func productId(in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
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
}
