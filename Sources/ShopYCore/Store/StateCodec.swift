/// state.json's values (the history and the last listing) on the project's own JSON, not
/// Codable: every search rewrites them, and on Linux JSONEncoder/JSONDecoder are slow and look
/// protocol conformances up at run time. The format is the one Codable wrote and
/// read (keys sorted, a nil optional left out, `/` unescaped): files written by either read the
/// same, and a value that Codable refused is refused here too, in the same words.
import ShopYBase

enum StateCodec {
    /// Where a value failed, as `Session.describe` words a DecodingError's coding path.
    struct Failure: Error {
        var path: String
        var problem: StoredValueError {
            StoredValueError("does not have the expected shape" + (path.isEmpty ? "" : " at \(path)"))
        }
    }

    static func parse(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw Failure(path: "").problem
        }
    }

    // MARK: Reading, as the synthesized Decodable conformances did

    static func object(_ value: JSONValue, _ path: String) throws(Failure) -> JSONObject {
        guard case .object(let object) = value else { throw Failure(path: path) }
        return object
    }

    static func array(_ value: JSONValue, _ path: String) throws(Failure) -> [JSONValue] {
        guard case .array(let elements) = value else { throw Failure(path: path) }
        return elements
    }

    /// A required string: a missing key fails at the object's path, a null or another type at the key's.
    static func string(_ object: JSONObject, _ key: String, _ path: String) throws(Failure) -> String {
        guard let value = object[key] else { throw Failure(path: path) }
        guard case .string(let text) = value else { throw Failure(path: path + "." + key) }
        return text
    }

    /// An optional string: missing or null is nil.
    static func optionalString(_ object: JSONObject, _ key: String, _ path: String) throws(Failure) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw Failure(path: path + "." + key)
        }
    }

    /// An optional Int: missing or null is nil; a number must be integral and fit, as
    /// JSONDecoder required (`12`, `12.0` and `1.2e1` are 12).
    static func optionalInt(_ object: JSONObject, _ key: String, _ path: String) throws(Failure) -> Int? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            if let value = Int(text) { return value }
            if let double = Double(text), double.rounded() == double, let value = Int(exactly: double) { return value }
            // JSONDecoder reports a number that is no Int as corrupt data without a coding path.
            throw Failure(path: "")
        default: throw Failure(path: path + "." + key)
        }
    }

    static func product(_ value: JSONValue, _ path: String) throws(Failure) -> Product {
        let o = try object(value, path)
        guard let list = o["categories"] else { throw Failure(path: path) }
        var categories: [String] = []
        for (index, element) in try array(list, path + ".categories").enumerated() {
            guard case .string(let text) = element else { throw Failure(path: path + ".categories[\(index)]") }
            categories.append(text)
        }
        return Product(productId: try string(o, "productId", path), title: try string(o, "title", path),
                       price: try optionalInt(o, "price", path), highPrice: try optionalInt(o, "highPrice", path),
                       mall: try optionalString(o, "mall", path), brand: try optionalString(o, "brand", path),
                       maker: try optionalString(o, "maker", path), categories: categories,
                       productType: try optionalInt(o, "productType", path), link: try optionalString(o, "link", path),
                       image: try optionalString(o, "image", path))
    }

    // MARK: Writing, as JSONEncoder with .sortedKeys did

    static func productJSON(_ p: Product) -> JSONValue {
        var o = JSONObject()
        if let brand = p.brand { o.appendUnchecked("brand", .string(brand)) }
        o.appendUnchecked("categories", .array(p.categories.map(JSONValue.string)))
        if let highPrice = p.highPrice { o.appendUnchecked("highPrice", .int(highPrice)) }
        if let image = p.image { o.appendUnchecked("image", .string(image)) }
        if let link = p.link { o.appendUnchecked("link", .string(link)) }
        if let maker = p.maker { o.appendUnchecked("maker", .string(maker)) }
        if let mall = p.mall { o.appendUnchecked("mall", .string(mall)) }
        if let price = p.price { o.appendUnchecked("price", .int(price)) }
        o.appendUnchecked("productId", .string(p.productId))
        if let productType = p.productType { o.appendUnchecked("productType", .int(productType)) }
        o.appendUnchecked("title", .string(p.title))
        return .object(o)
    }
}

extension Array: RawStorable where Element == HistoryEntry {
    public static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> [HistoryEntry] {
        let value = try StateCodec.parse(bytes)
        do throws(StateCodec.Failure) {
            var entries: [HistoryEntry] = []
            for (index, element) in try StateCodec.array(value, "").enumerated() {
                let path = "[\(index)]"
                let o = try StateCodec.object(element, path)
                entries.append(HistoryEntry(query: try StateCodec.string(o, "query", path), at: try StateCodec.string(o, "at", path)))
            }
            return entries
        } catch {
            throw error.problem
        }
    }

    public func encodeStored() -> [UInt8] {
        JSONWriter.serialize(.array(map { entry in
            var o = JSONObject()
            o.appendUnchecked("at", .string(entry.at))
            o.appendUnchecked("query", .string(entry.query))
            return .object(o)
        }))
    }
}

extension Optional: RawStorable where Wrapped == LastListing {
    public static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> LastListing? {
        let value = try StateCodec.parse(bytes)
        if case .null = value { return nil }
        do throws(StateCodec.Failure) {
            let o = try StateCodec.object(value, "")
            guard let list = o["rows"] else { throw StateCodec.Failure(path: "") }
            var rows: [LastListing.Row] = []
            for (index, element) in try StateCodec.array(list, ".rows").enumerated() {
                let path = ".rows[\(index)]"
                let row = try StateCodec.object(element, path)
                guard let product = row["product"] else { throw StateCodec.Failure(path: path) }
                rows.append(LastListing.Row(row: try StateCodec.string(row, "row", path), product: try StateCodec.product(product, path + ".product")))
            }
            var likedIDs: LikedRows?
            if let joined = try StateCodec.optionalString(o, "likedIDs", "") {
                guard let ids = LikedRows(joined: joined) else { throw StateCodec.Failure(path: ".likedIDs") }
                likedIDs = ids
            }
            return LastListing(command: try StateCodec.string(o, "command", ""), savedAt: try StateCodec.string(o, "savedAt", ""), rows: rows,
                               likedIDs: likedIDs)
        } catch {
            throw error.problem
        }
    }

    public func encodeStored() -> [UInt8] {
        guard let listing = self else { return Array("null".utf8) }
        var o = JSONObject()
        o.appendUnchecked("command", .string(listing.command))
        if let likedIDs = listing.likedIDs { o.appendUnchecked("likedIDs", .string(likedIDs.joined)) }
        o.appendUnchecked("rows", .array(listing.rows.map { row in
            var r = JSONObject()
            r.appendUnchecked("product", StateCodec.productJSON(row.product))
            r.appendUnchecked("row", .string(row.row))
            return .object(r)
        }))
        o.appendUnchecked("savedAt", .string(listing.savedAt))
        return JSONWriter.serialize(.object(o))
    }
}
