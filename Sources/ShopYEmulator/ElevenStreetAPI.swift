import Foundation
import ShopYCore
import ShopYBase
import ShopYCatalog

/// 11번가 Open API on loopback, from the emulator's catalog (Fixtures/README.md has the
/// contract): `GET /openapi/OpenApiService.tmall` with `key`, and `apiCode=ProductSearch`
/// (`keyword`, `pageNum`, `pageSize` 1–200, `sortCd` CP/L/H) or `apiCode=ProductInfo`
/// (`productCode`). Answers are XML declared and encoded EUC-KR, texts in CDATA (a character
/// EUC-KR lacks is written as a numeric reference outside CDATA), errors inside a 200 as
/// 11번가 sends them (`<Error><Code>003</Code><Message>등록되지 않은 KEY 입니다.</Message></Error>`).
///
/// The catalog's items become 11번가 products deterministically: a third have no SalePrice
/// (the price is ProductPrice), the others a ProductPrice 10% above it; some SellerNick, Rating,
/// ReviewCount and ProductImage300 are empty, as real answers have them.
final class ElevenStreetAPI: Sendable {
    static let path = ElevenStreetClient.path

    let config: EmulatorConfig
    let catalog: Catalog
    let prices: EmulatorPrices
    let counters = SideAPICounters()
    /// The fault gate shared with the other APIs (`--fault-count` counts them all).
    let takeFault: @Sendable (String?) -> EmulatorFault?

    init(config: EmulatorConfig, catalog: Catalog, prices: EmulatorPrices, takeFault: @escaping @Sendable (String?) -> EmulatorFault?) {
        self.config = config
        self.catalog = catalog
        self.prices = prices
        self.takeFault = takeFault
    }

    /// The answer to a request on 11번가's path, or nil for another path.
    func reply(to request: ParsedRequest) -> Reply? {
        guard request.path == Self.path else { return nil }
        let params = FormDecoding.parameters(request.rawQuery)
        counters.record(request, params: params)
        var reply = answer(request, params: params)
        SideAPIFault.finish(&reply, config: config)
        counters.answered(reply)
        return reply
    }

    private func answer(_ request: ParsedRequest, params: [FormDecoding.Parameter]) -> Reply {
        func value(_ name: String) -> String? { params.first { $0.name == name }?.value }
        let apiCode = value("apiCode") ?? ""
        let root = apiCode == "ProductInfo" ? "ProductInfoResponse" : "ProductSearchResponse"
        guard request.method == "GET" else {
            return Reply(response: ServerResponse(status: 405, headers: [("Allow", "GET")], body: Array("Method Not Allowed".utf8), contentType: "text/plain"))
        }
        guard value("key") == config.elevenStreetKey else { return xml(Self.error(root, code: "003", message: "등록되지 않은 KEY 입니다.")) }
        if params.contains(where: { !$0.wellFormed }) { return xml(Self.error(root, code: "104", message: "요청 파라미터의 인코딩이 올바르지 않습니다.")) }
        switch apiCode {
        case "ProductSearch":
            guard let keyword = value("keyword"), !keyword.allSatisfy(\.isWhitespace) else {
                return xml(Self.error(root, code: "101", message: "검색어(keyword)를 입력해 주세요."))
            }
            func number(_ name: String, _ fallback: Int, _ range: ClosedRange<Int>) -> Int? {
                guard let text = value(name) else { return fallback }
                guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), range.contains(n) else { return nil }
                return n
            }
            guard let pageNum = number("pageNum", 1, 1...100_000), let pageSize = number("pageSize", 50, 1...200) else {
                return xml(Self.error(root, code: "102", message: "pageNum 또는 pageSize 값이 올바르지 않습니다."))
            }
            let sort: ShopYBase.SortOrder
            switch value("sortCd") {
            case "L"?: sort = .asc
            case "H"?: sort = .dsc
            default: sort = .sim  // CP, and codes the emulator does not know: its popularity order
            }
            let (start, overflow) = (pageNum - 1).multipliedReportingOverflow(by: pageSize)
            let response = overflow ? WireSearchResponse(total: 0, start: 1, display: 0, items: [])
                : catalog.plainSearch(SearchRequest(query: keyword, sort: sort, start: start + 1, display: pageSize), prices: prices)
            let real = Self.searchDocument(response)
            if let fault = takeFault(keyword) { return SideAPIFault.reply(fault, real: real, error: Self.statusError) }
            return Reply(response: real)
        case "ProductInfo":
            guard let code = value("productCode"), !code.isEmpty else {
                return xml(Self.error(root, code: "101", message: "상품번호(productCode)를 입력해 주세요."))
            }
            var found = WireSearchResponse(total: 0, start: 1, display: 0, items: [])
            if let item = catalog.item(productId: code) { found = WireSearchResponse(total: 1, start: 1, display: 1, items: [item]) }
            prices.apply(&found)
            let real = Self.infoDocument(found.items.first)
            if let fault = takeFault(code) { return SideAPIFault.reply(fault, real: real, error: Self.statusError) }
            return Reply(response: real)
        default:
            return xml(Self.error(root, code: "100", message: "지원하지 않는 apiCode 입니다."))
        }
    }

    private func xml(_ response: ServerResponse) -> Reply { Reply(response: response) }

    /// A non-200 answer (faults only: 11번가's own errors come in a 200).
    static func statusError(_ status: Int) -> ServerResponse {
        ServerResponse(status: status, body: Array("<html><body><h1>\(status) \(ServerResponse.reason(for: status))</h1></body></html>".utf8),
                       contentType: "text/html")
    }

    // MARK: - Documents

    static let declaration = #"<?xml version="1.0" encoding="EUC-KR" standalone="yes"?>"#

    static func error(_ root: String, code: String, message: String) -> ServerResponse {
        document("<\(root)><Error><Code>\(code)</Code><Message>\(cdata(message))</Message></Error></\(root)>")
    }

    static func document(_ text: String) -> ServerResponse {
        ServerResponse(status: 200, body: encode(declaration + "\n" + text), contentType: "text/xml;charset=EUC-KR")
    }

    static func searchDocument(_ response: WireSearchResponse) -> ServerResponse {
        var text = "<ProductSearchResponse><Request><Arguments><Argument name=\"apiCode\" value=\"ProductSearch\"/></Arguments></Request>"
        text += "<Products><TotalCount>\(response.total)</TotalCount>"
        for item in response.items { text += product(item) }
        text += "</Products></ProductSearchResponse>"
        return document(text)
    }

    static func product(_ item: WireItem) -> String {
        let hash = emulatorHash(item.productId)
        let price = item.lprice.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let discounted = hash % 3 != 0
        let listPrice = price.map { discounted ? ($0 * 110 / 100 + 9) / 10 * 10 : $0 }
        let nick = hash % 7 == 3 ? "" : (item.mallName ?? "")
        var out = "<Product>"
        out += "<ProductCode>\(item.productId)</ProductCode>"
        out += "<ProductName>\(cdata(item.title))</ProductName>"
        out += "<ProductPrice>\(listPrice.map(String.init) ?? "")</ProductPrice>"
        out += "<SalePrice>\(discounted ? price.map(String.init) ?? "" : "")</SalePrice>"
        out += "<ProductImage>\(cdata(item.image ?? ""))</ProductImage>"
        out += "<ProductImage300>\(hash % 5 == 1 ? "" : cdata(item.image ?? ""))</ProductImage300>"
        out += "<SellerNick>\(cdata(nick))</SellerNick>"
        out += "<Seller>seller\(hash % 100_000)</Seller>"
        out += "<DetailPageUrl>\(cdata("http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=\(item.productId)"))</DetailPageUrl>"
        out += "<Delivery>\(cdata(hash % 2 == 0 ? "무료" : "2,500원"))</Delivery>"
        out += "<ReviewCount>\(hash % 4 == 0 ? "" : String(hash % 5000))</ReviewCount>"
        out += "<BuySatisfy>\(hash % 4 == 0 ? "" : String(80 + hash % 21))</BuySatisfy>"
        out += "<Rating>\(hash % 6 == 0 ? "" : String(hash % 6))</Rating>"
        out += "</Product>"
        return out
    }

    static func infoDocument(_ item: WireItem?) -> ServerResponse {
        guard let item else { return document("<ProductInfoResponse></ProductInfoResponse>") }
        let hash = emulatorHash(item.productId)
        let price = item.lprice.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let listPrice = price.map { ($0 * 110 / 100 + 9) / 10 * 10 }
        var out = "<ProductInfoResponse><Product>"
        out += "<ProductCode>\(item.productId)</ProductCode>"
        out += "<ProductName>\(cdata(item.title.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")))</ProductName>"
        out += "<ProductPrice><Price>\(listPrice.map(String.init) ?? "")</Price><LowestPrice>\(hash % 4 == 0 ? "0" : price.map(String.init) ?? "")</LowestPrice></ProductPrice>"
        out += "<BasicImage>\(cdata(item.image ?? ""))</BasicImage>"
        out += "<AddImage1></AddImage1><ImageL300>\(cdata(item.image ?? ""))</ImageL300>"
        out += "<Point>\(hash % 300)</Point><Chip>0</Chip><Installment>\(cdata("무이자 3개월"))</Installment><ShipFee>\(cdata("무료배송"))</ShipFee>"
        out += "<SellSatisfaction>\(90 + hash % 11)</SellSatisfaction><SellGrade>\(1 + hash % 5)</SellGrade>"
        out += "<ProductOption><Option>\(cdata("기본"))</Option><status>\(cdata("판매중"))</status></ProductOption>"
        out += "</Product></ProductInfoResponse>"
        return document(out)
    }

    /// Text in CDATA when EUC-KR has every character of it; else escaped character data, each
    /// character EUC-KR lacks written as a numeric reference.
    static func cdata(_ text: String) -> String {
        if EUCKR.encode(text) != nil && !text.contains("]]>") { return "<![CDATA[" + text + "]]>" }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default:
                if scalar.isASCII || EUCKR.encode(String(scalar)) != nil { out.unicodeScalars.append(scalar) } else { out += "&#\(scalar.value);" }
            }
        }
        return out
    }

    /// The document in EUC-KR (`cdata` left only encodable characters in it).
    static func encode(_ text: String) -> [UInt8] {
        EUCKR.encode(text) { "&#\($0.value);" } ?? Array(text.utf8)
    }
}
