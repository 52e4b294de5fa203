import Foundation
import ShopYCore
import ShopYBase
import ShopYCatalog

/// Coupang Partners Open API on loopback, from the emulator's catalog (Fixtures/README.md has
/// the contract): `GET …/v1/products/search?keyword=&limit=` (limit 1–10; above 10 an empty
/// `productData`, as the gateway answers), `…/products/bestcategories/{id}?limit=` (1–100) and
/// `…/products/goldbox`, each signed:
///
/// - an Authorization that is not `CEA algorithm=HmacSHA256, access-key=…, signed-date=…,
///   signature=…`: 401 "HMAC format is invalid."; another access key: 401 "Request is not
///   authorized.";
/// - a signed-date more than `signatureWindow` from the emulator's clock, or a signature seen
///   before: 401 "Specified signature is expired."; a wrong signature: 401 "Invalid signature.";
/// - `--coupang-limit N`: past N accepted requests in a rolling hour, 429.
///
/// Products carry the affiliate tracking link Coupang sends (`productUrl`): what shopy must never
/// show or keep.
final class CoupangAPI: Sendable {
    static let root = CoupangClient.root
    /// How far a signed-date may be from the clock (the gateway's tolerance is not published).
    static let signatureWindow: TimeInterval = 300

    let config: EmulatorConfig
    let catalog: Catalog
    let prices: EmulatorPrices
    let counters = SideAPICounters()
    let takeFault: @Sendable (String?) -> EmulatorFault?
    private let state = Locked(State())

    private struct State {
        /// Signatures accepted, with when they were signed (forgotten after the window).
        var seen: [String: TimeInterval] = [:]
        /// Times of the requests accepted within the last hour (`--coupang-limit`).
        var accepted: [TimeInterval] = []
    }

    init(config: EmulatorConfig, catalog: Catalog, prices: EmulatorPrices, takeFault: @escaping @Sendable (String?) -> EmulatorFault?) {
        self.config = config
        self.catalog = catalog
        self.prices = prices
        self.takeFault = takeFault
    }

    func reset() {
        counters.reset()
        state.withLock { $0 = State() }
    }

    func reply(to request: ParsedRequest) -> Reply? {
        guard request.path.hasPrefix("/v2/providers/affiliate_open_api/") else { return nil }
        let params = FormDecoding.parameters(request.rawQuery)
        let authorization = request.header("Authorization")
        counters.record(request, params: params, authorization: authorization.flatMap(CoupangSigner.parse)?.signedDate)
        var reply = answer(request, params: params, authorization: authorization)
        SideAPIFault.finish(&reply, config: config)
        counters.answered(reply)
        return reply
    }

    private func answer(_ request: ParsedRequest, params: [FormDecoding.Parameter], authorization: String?) -> Reply {
        guard request.method == "GET" else { return Reply(response: Self.gateway(405, "Method Not Allowed")) }
        // The signature first: the gateway checks it before it routes.
        guard let header = authorization, let (accessKey, signedDate, signature) = CoupangSigner.parse(header) else {
            return Reply(response: Self.gateway(401, "HMAC format is invalid."))
        }
        guard accessKey == config.coupangAccessKey else { return Reply(response: Self.gateway(401, "Request is not authorized.")) }
        let now = Date().timeIntervalSince1970
        guard let signed = CoupangSigner.date(signed: signedDate), abs(signed.timeIntervalSince1970 - now) <= Self.signatureWindow else {
            return Reply(response: Self.gateway(401, "Specified signature is expired."))
        }
        let query = String(decoding: request.rawQuery, as: UTF8.self)
        let expected = (try? HMACSHA256.hex(key: config.coupangSecretKey,
                                            message: CoupangSigner.message(signedDate: signedDate, method: request.method, path: request.path, query: query))) ?? ""
        guard !expected.isEmpty, expected == signature else { return Reply(response: Self.gateway(401, "Invalid signature.")) }
        let verdict: Int? = state.withLock { s in
            s.seen = s.seen.filter { now - $0.value <= Self.signatureWindow * 2 }
            if s.seen[signature] != nil { return 401 }
            s.seen[signature] = signed.timeIntervalSince1970
            s.accepted.removeAll { $0 <= now - 3600 }
            if let limit = config.coupangLimit, s.accepted.count >= limit { return 429 }
            s.accepted.append(now)
            return nil
        }
        if verdict == 401 { return Reply(response: Self.gateway(401, "Specified signature is expired.")) }
        if verdict == 429 { return Reply(response: Self.gateway(429, "Too many requests: the limit of this key was passed.")) }

        func value(_ name: String) -> String? { params.first { $0.name == name && $0.wellFormed }?.value }
        func limit(_ fallback: Int) -> Int? {
            guard let text = value("limit") else { return fallback }
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), text.utf8.count <= 6 else { return nil }
            return Int(text)
        }
        let products = Self.root + "/products/"
        guard request.path.hasPrefix(products) else { return Reply(response: Self.gateway(404, "Not Found")) }
        let route = String(request.path.dropFirst(products.count))
        let real: ServerResponse
        let subject: String?
        if route == "search" {
            guard let keyword = value("keyword"), !keyword.allSatisfy(\.isWhitespace) else { return Reply(response: Self.business("400", "keyword is required.")) }
            guard let n = limit(10), n >= 1 else { return Reply(response: Self.business("400", "limit is out of range.")) }
            // Above 10 the gateway answers rCode 0 with no products (what its guide warns of).
            let found = n > 10 ? [] : catalog.plainSearch(SearchRequest(query: keyword, sort: .sim, start: 1, display: n), prices: prices).items
                .filter { ($0.lprice.flatMap { Int($0) } ?? 0) > 0 }  // sold-out items are left out
            real = Self.search(keyword: keyword, items: found)
            subject = keyword
        } else if route.hasPrefix("bestcategories/") {
            let id = String(route.dropFirst("bestcategories/".count))
            guard let category = Int(id).flatMap({ id in CoupangCategories.all.first { $0.id == id } }) else {
                return Reply(response: Self.business("400", "Invalid categoryId."))
            }
            guard let n = limit(20), (1...100).contains(n) else { return Reply(response: Self.business("400", "limit is out of range.")) }
            real = Self.ranking(bestSellers(category.id).prefix(n).map { $0 }, categoryName: category.name, prices: prices)
            subject = id
        } else if route == "goldbox" {
            real = Self.ranking(goldbox(), categoryName: nil, prices: prices, discount: true)
            subject = "goldbox"
        } else {
            return Reply(response: Self.gateway(404, "Not Found"))
        }
        if let fault = takeFault(subject) { return SideAPIFault.reply(fault, real: real, error: { Self.gateway($0, $0 == 429 ? "Too many requests." : "Internal Server Error") }) }
        return Reply(response: real)
    }

    /// A category's best sellers: the catalog's items of the matching kinds, in a fixed
    /// best-seller order (by a hash of the id). Categories the catalog does not hold are empty.
    func bestSellers(_ category: Int) -> [WireItem] {
        let kinds: [Int: Set<String>] = [
            1016: ["태블릿PC", "노트북"], 1014: ["생활용품", "욕실용품", "청소용품", "세탁용품", "수납/정리용품", "구강위생용품"],
            1029: ["반려동물", "관상어용품"], 1013: ["주방용품"], 1018: ["자동차용품"], 1021: ["문구/사무용품"],
            1015: ["정원/원예용품", "공구"], 1020: ["수집품"],
        ]
        guard let wanted = kinds[category] else { return [] }
        return catalog.items.filter { wanted.contains($0.category2 ?? "") || ($0.category1 == "디지털/가전" && category == 1016) }
            .sorted { emulatorHash($0.productId + "best") < emulatorHash($1.productId + "best") }
    }

    /// Today's deals (KST): twenty items, chosen by the date.
    func goldbox() -> [WireItem] {
        let day = Int((Date().timeIntervalSince1970 + 9 * 3600 - 7.5 * 3600) / 86400)  // renewed at 07:30 KST
        return Array(catalog.items.sorted { emulatorHash($0.productId + "\(day)") < emulatorHash($1.productId + "\(day)") }.prefix(20))
    }

    // MARK: - Answers

    static func gateway(_ status: Int, _ message: String) -> ServerResponse {
        var o = JSONObject()
        o.appendUnchecked("code", .string("ERROR"))
        o.appendUnchecked("message", .string(message))
        o.appendUnchecked("transactionId", .string(UUID().uuidString.lowercased()))
        return ServerResponse(status: status, body: JSONWriter.serialize(.object(o), pretty: false))
    }

    static func business(_ code: String, _ message: String) -> ServerResponse {
        ServerResponse(status: 200, body: JSONWriter.serialize(.object(JSONObject(["rCode": .string(code), "rMessage": .string(message)])), pretty: false))
    }

    static func item(_ item: WireItem, price: Int?, extra: [(String, JSONValue)]) -> JSONValue {
        let hash = emulatorHash(item.productId)
        var o = JSONObject()
        for (key, value) in extra { o.appendUnchecked(key, value) }
        o.appendUnchecked("isRocket", .bool(hash % 3 != 0))
        o.appendUnchecked("isFreeShipping", .bool(hash % 2 == 0))
        o.appendUnchecked("productId", .number(item.productId))
        o.appendUnchecked("productImage", .string(item.image ?? ""))
        o.appendUnchecked("productName", .string(item.title))
        o.appendUnchecked("productPrice", price.map { JSONValue.int($0) } ?? .int(0))
        o.appendUnchecked("productUrl", .string("https://link.coupang.com/re/AFFSDP?lptag=AF0000000&pageKey=\(item.productId)&itemId=\(hash % 10_000_000_000)&vendorItemId=\(hash % 100_000_000_000)&traceid=V0-153-\(String(hash, radix: 16))"))
        return .object(o)
    }

    static func search(keyword: String, items: [WireItem]) -> ServerResponse {
        var list: [JSONValue] = []
        for (i, found) in items.enumerated() {
            list.append(item(found, price: found.lprice.flatMap { Int($0) }, extra: [("keyword", .string(keyword)), ("rank", .int(i + 1))]))
        }
        var data = JSONObject()
        data.appendUnchecked("landingUrl", .string("https://link.coupang.com/re/AFFSRP?lptag=AF0000000&pageKey=\(RequestBuilder.percentEncode(keyword))&traceid=V0-153-0"))
        data.appendUnchecked("productData", .array(list))
        var o = JSONObject()
        o.appendUnchecked("rCode", .string("0"))
        o.appendUnchecked("rMessage", .string(""))
        o.appendUnchecked("data", .object(data))
        return ServerResponse(status: 200, body: JSONWriter.serialize(.object(o), pretty: false))
    }

    static func ranking(_ items: [WireItem], categoryName: String?, prices: EmulatorPrices, discount: Bool = false) -> ServerResponse {
        var response = WireSearchResponse(total: items.count, start: 1, display: items.count, items: items)
        prices.apply(&response)
        let list: [JSONValue] = response.items.map { found in
            let price = found.lprice.flatMap { Int($0) }.map { discount ? max(10, $0 * 80 / 100 / 10 * 10) : $0 }
            var plain = found
            plain.title = found.title.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
            return item(plain, price: price, extra: [("categoryName", .string(categoryName ?? found.category2 ?? ""))])
        }
        var o = JSONObject()
        o.appendUnchecked("rCode", .string("0"))
        o.appendUnchecked("rMessage", .string(""))
        o.appendUnchecked("data", .array(list))
        return ServerResponse(status: 200, body: JSONWriter.serialize(.object(o), pretty: false))
    }
}
