/// The Naver Shopping search contract as the wire has it (samples in Fixtures/contract).
///
/// Decoding is lenient where the contract is: numbers may come as strings or numbers, and
/// responses from before 2019 lack brand, maker and the categories entirely.

/// Sort orders the API knows.
public enum SortOrder: String, CaseIterable, Sendable {
    case sim, date, asc, dsc
}

/// Kinds of item the API can leave out (`exclude=used:rental:cbshop`).
public enum ExcludeKind: String, CaseIterable, Sendable, Comparable {
    case used, rental, cbshop

    public static func < (a: ExcludeKind, b: ExcludeKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One item exactly as the API sends it: every field text, possibly absent.
public struct WireItem: Equatable, Sendable {
    public var title: String
    public var link: String?
    public var image: String?
    public var lprice: String?
    public var hprice: String?
    public var mallName: String?
    public var productId: String
    public var productType: String?
    public var brand: String?
    public var maker: String?
    public var category1: String?
    public var category2: String?
    public var category3: String?
    public var category4: String?

    public init(title: String, link: String? = nil, image: String? = nil, lprice: String? = nil, hprice: String? = nil,
                mallName: String? = nil, productId: String, productType: String? = nil, brand: String? = nil,
                maker: String? = nil, category1: String? = nil, category2: String? = nil, category3: String? = nil,
                category4: String? = nil) {
        self.title = title
        self.link = link
        self.image = image
        self.lprice = lprice
        self.hprice = hprice
        self.mallName = mallName
        self.productId = productId
        self.productType = productType
        self.brand = brand
        self.maker = maker
        self.category1 = category1
        self.category2 = category2
        self.category3 = category3
        self.category4 = category4
    }

    /// Decodes one item leniently. Only `productId` and `title` are required.
    public init(json: JSONValue, index: Int) throws(WireDecodingError) {
        guard case .object(let object) = json else {
            throw WireDecodingError("item \(index + 1) is \(json.kindName), not an object")
        }
        func text(_ key: String) throws(WireDecodingError) -> String? {
            guard let value = object[key] else { return nil }
            switch value {
            case .null: return nil
            case .string(let s): return s
            case .number(let n): return n
            default: throw WireDecodingError("item \(index + 1) has \(value.kindName) for \"\(key)\"")
            }
        }
        guard let productId = try text("productId"), !productId.isEmpty else {
            throw WireDecodingError("item \(index + 1) has no productId")
        }
        self.productId = productId
        self.title = try text("title") ?? ""
        self.link = try text("link")
        self.image = try text("image")
        self.lprice = try text("lprice")
        self.hprice = try text("hprice")
        self.mallName = try text("mallName")
        self.productType = try text("productType")
        self.brand = try text("brand")
        self.maker = try text("maker")
        self.category1 = try text("category1")
        self.category2 = try text("category2")
        self.category3 = try text("category3")
        self.category4 = try text("category4")
    }

    /// One item of a search answer. An item without a usable productId (no key, null, empty, not
    /// text, or not an object at all) decodes to a stand-in with an empty productId: the mapper
    /// leaves it out of the page and counts it (`SearchPage.dropped`), so that one such item
    /// never makes the whole answer fail. It still counts against `display`. Any other damage
    /// in an item that has an id is still an error.
    init(answerItem json: JSONValue, index: Int) throws(WireDecodingError) {
        guard case .object(let object) = json else {
            self.init(title: "", productId: "")
            return
        }
        switch object["productId"] {
        case .string(let id)? where !id.isEmpty: break
        case .number?: break
        default:
            self.init(title: "", productId: "")
            return
        }
        try self.init(json: json, index: index)
    }

    /// The item as the API writes it (every field a string, as on the wire today).
    public var json: JSONValue {
        var object = JSONObject()
        object.appendUnchecked("title", .string(title))
        object.appendUnchecked("link", .string(link ?? ""))
        object.appendUnchecked("image", .string(image ?? ""))
        object.appendUnchecked("lprice", .string(lprice ?? "0"))
        object.appendUnchecked("hprice", .string(hprice ?? ""))
        object.appendUnchecked("mallName", .string(mallName ?? ""))
        object.appendUnchecked("productId", .string(productId))
        object.appendUnchecked("productType", .string(productType ?? ""))
        object.appendUnchecked("brand", .string(brand ?? ""))
        object.appendUnchecked("maker", .string(maker ?? ""))
        object.appendUnchecked("category1", .string(category1 ?? ""))
        object.appendUnchecked("category2", .string(category2 ?? ""))
        object.appendUnchecked("category3", .string(category3 ?? ""))
        object.appendUnchecked("category4", .string(category4 ?? ""))
        return .object(object)
    }

    public var categories: [String] { [category1, category2, category3, category4].compactMap { $0 } }
}

/// A 200 answer of the search API.
public struct WireSearchResponse: Equatable, Sendable {
    public var lastBuildDate: String?
    public var total: Int
    public var start: Int
    public var display: Int
    public var items: [WireItem]

    public init(lastBuildDate: String? = nil, total: Int, start: Int, display: Int, items: [WireItem]) {
        self.lastBuildDate = lastBuildDate
        self.total = total
        self.start = start
        self.display = display
        self.items = items
    }

    /// Decodes a response body; any problem is a `WireDecodingError` naming what was wrong.
    public init(body: [UInt8]) throws(WireDecodingError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            throw WireDecodingError("the body is not JSON: \(error)")
        }
        try self.init(json: json)
    }

    public init(json: JSONValue) throws(WireDecodingError) {
        guard case .object(let object) = json else { throw WireDecodingError("the body is \(json.kindName), not an object") }
        func int(_ key: String, default fallback: Int?) throws(WireDecodingError) -> Int {
            guard let value = object[key], value != .null else {
                if let fallback { return fallback }
                throw WireDecodingError("\"\(key)\" is missing")
            }
            guard let n = value.intValue else { throw WireDecodingError("\"\(key)\" is not an integer") }
            return n
        }
        guard let itemsValue = object["items"] else { throw WireDecodingError("\"items\" is missing") }
        guard case .array(let array) = itemsValue else { throw WireDecodingError("\"items\" is \(itemsValue.kindName), not an array") }
        var items: [WireItem] = []
        items.reserveCapacity(array.count)
        for (i, element) in array.enumerated() { items.append(try WireItem(answerItem: element, index: i)) }
        self.items = items
        self.total = try int("total", default: nil)
        self.start = try int("start", default: 1)
        self.display = try int("display", default: items.count)
        self.lastBuildDate = object["lastBuildDate"]?.textValue
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.appendUnchecked("lastBuildDate", .string(lastBuildDate ?? ""))
        object.appendUnchecked("total", .int(total))
        object.appendUnchecked("start", .int(start))
        object.appendUnchecked("display", .int(display))
        object.appendUnchecked("items", .array(items.map(\.json)))
        return .object(object)
    }
}

/// An error answer: `{"errorMessage": "...", "errorCode": "..."}`.
public struct WireErrorBody: Equatable, Sendable {
    public var errorMessage: String
    public var errorCode: String

    public init(errorMessage: String, errorCode: String) {
        self.errorMessage = errorMessage
        self.errorCode = errorCode
    }

    /// Nil when the body is not an error object.
    public init?(body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), case .object(let object) = json else { return nil }
        let message = object["errorMessage"]?.textValue
        let code = object["errorCode"]?.textValue
        if message == nil && code == nil { return nil }
        self.errorMessage = message ?? ""
        self.errorCode = code ?? ""
    }

    public var json: JSONValue {
        .object(JSONObject(["errorMessage": .string(errorMessage), "errorCode": .string(errorCode)]))
    }
}

/// Why a body did not decode.
public struct WireDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
