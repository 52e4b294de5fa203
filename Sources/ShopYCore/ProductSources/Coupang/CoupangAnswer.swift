import ShopYBase
/// Coupang Partners' answers as the wire has them (Fixtures/coupang, Fixtures/README.md):
///
///     search:          {"rCode":"0","rMessage":"","data":{"landingUrl":"…","productData":[item…]}}
///     bestcategories,
///     goldbox:         {"rCode":"0","rMessage":"","data":[item…]}
///     item:            {"keyword","rank","isRocket","isFreeShipping","productId" (int64),
///                       "productName" (plain text),"productPrice" (int, KRW),"productImage",
///                       "productUrl" (an affiliate tracking link), "categoryName" (rankings)}
///     gateway errors:  401/403 {"code":"ERROR","message":"…","transactionId":"…"}
///     business errors: 200 with an rCode other than "0"
///
/// The tracking link (`productUrl`, `landingUrl`) is read past and never kept.
public enum CoupangAnswer {
    /// One product as sent, checked only for shape.
    public struct Item: Equatable, Sendable {
        public var productId: String?
        public var productName: String?
        public var productPrice: Int?
        public var productImage: String?
        public var isRocket: Bool?
        public var isFreeShipping: Bool?
        public var categoryName: String?
    }

    /// A 200 answer's items (search: `data.productData`; rankings: `data`).
    /// A Coupang answer is at most about 100 KB (100 best sellers); a larger one is refused
    /// before it is parsed, so that millions of tiny objects never reach memory.
    public static let maxAnswerBytes = 2 << 20

    public static func items(_ body: [UInt8]) throws(SourceError) -> [Item] {
        guard body.count <= maxAnswerBytes else {
            throw .badResponse("the answer is \(Money.grouped(body.count)) bytes, more than a Coupang answer ever is (at most \(maxAnswerBytes >> 20) MiB)")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            throw .badResponse("the answer is not JSON: \(error)")
        }
        guard case .object(let object) = json else { throw .badResponse("the answer is \(json.kindName), not an object") }
        let code = object["rCode"]?.textValue?.trimmingASCIIWhitespace()
        guard let code else { throw .badResponse("the answer has no \"rCode\"") }
        guard code == "0" else {
            throw .coupangRefused(code: KeyRedaction.serverText(code, keys: [], limit: 16), message: object["rMessage"]?.textValue.map { KeyRedaction.serverText($0, keys: []) })
        }
        let list: [JSONValue]
        switch object["data"] {
        case .array(let array)?:
            list = array
        case .object(let data)?:
            switch data["productData"] {
            case .array(let array)?: list = array
            case nil, .null?: list = []
            case let other?: throw .badResponse("\"productData\" is \(other.kindName), not an array")
            }
        case nil, .null?:
            list = []
        case let other?:
            throw .badResponse("\"data\" is \(other.kindName), not an array or object")
        }
        var items: [Item] = []
        items.reserveCapacity(list.count)
        for (index, element) in list.enumerated() {
            guard case .object(let o) = element else { throw .badResponse("item \(index + 1) is \(element.kindName), not an object") }
            items.append(Item(productId: id(o["productId"]), productName: o["productName"]?.stringValue, productPrice: price(o["productPrice"]),
                              productImage: o["productImage"]?.stringValue, isRocket: flag(o["isRocket"]),
                              isFreeShipping: flag(o["isFreeShipping"]), categoryName: o["categoryName"]?.stringValue))
        }
        return items
    }

    /// The answer without its affiliate tracking links (`productUrl`, `landingUrl`): what the
    /// 60-minute cache keeps, since a tracking link is stored nowhere. Nil when it is not JSON.
    public static func withoutTrackingLinks(_ body: [UInt8]) -> [UInt8]? {
        guard case .object(var root)? = try? JSONParser.parse(body) else { return nil }
        func strip(_ list: [JSONValue]) -> JSONValue {
            .array(list.map { item in
                guard case .object(let o) = item else { return item }
                var kept = JSONObject()
                for (key, value) in zip(o.keys, o.values) where key != "productUrl" { kept.appendUnchecked(key, value) }
                return .object(kept)
            })
        }
        switch root["data"] {
        case .array(let list)?:
            root["data"] = strip(list)
        case .object(var data)?:
            data["landingUrl"] = nil
            if case .array(let list)? = data["productData"] { data["productData"] = strip(list) }
            root["data"] = .object(data)
        default:
            break
        }
        return JSONWriter.serialize(.object(root))
    }

    /// A gateway error's message (`{"code":"ERROR","message":"…"}`), cleaned; nil without one.
    public static func gatewayMessage(_ body: [UInt8]) -> String? {
        guard let json = try? JSONParser.parse(body), let message = json["message"]?.textValue ?? json["rMessage"]?.textValue else { return nil }
        return KeyRedaction.serverText(message, keys: [])
    }

    /// A productId: an integer (or a string of digits), as text; nil for anything else.
    static func id(_ value: JSONValue?) -> String? {
        guard let text = value?.textValue, ProductID.digits(text) == text.trimmingASCIIWhitespace() else { return nil }
        return text.trimmingASCIIWhitespace()
    }

    /// A price: a positive whole number of won (a number or a string of digits), else nil.
    static func price(_ value: JSONValue?) -> Int? {
        guard let text = value?.textValue?.trimmingASCIIWhitespace(), !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), n > 0 else { return nil }
        return n
    }

    static func flag(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let b)?: return b
        case .string(let s)?: return s == "true" ? true : (s == "false" ? false : nil)
        default: return nil
        }
    }
}
