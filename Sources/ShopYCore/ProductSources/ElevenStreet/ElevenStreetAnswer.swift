import ShopYBase
/// 11번가 Open API's answers as the wire has them (Fixtures/elevenst, Fixtures/README.md):
///
///     <?xml version="1.0" encoding="EUC-KR"?>
///     <ProductSearchResponse><Request>…</Request><Products><TotalCount>2</TotalCount>
///       <Product><ProductCode>…</ProductCode><ProductName><![CDATA[…]]></ProductName>
///         <ProductPrice>…</ProductPrice><SalePrice>…</SalePrice><ProductImage>…</ProductImage>
///         <ProductImage300>…</ProductImage300><SellerNick><![CDATA[…]]></SellerNick><Seller>…</Seller>
///         <DetailPageUrl><![CDATA[…]]></DetailPageUrl><Delivery>…</Delivery>
///         <ReviewCount>…</ReviewCount><BuySatisfy>…</BuySatisfy><Rating>…</Rating></Product>…
///     </Products></ProductSearchResponse>
///
///     <ProductInfoResponse><Product><ProductCode>…</ProductCode><ProductName>…</ProductName>
///       <ProductPrice><Price>…</Price><LowestPrice>…</LowestPrice></ProductPrice>
///       <BasicImage>…</BasicImage>…</Product></ProductInfoResponse>
///
/// Errors come in a 200: `<ProductSearchResponse><Error><Code>003</Code><Message>…</Message>
/// </Error></ProductSearchResponse>`; public clients also read `<ErrorCode>`/`<ErrorMessage>`,
/// so both shapes are errors here.
public enum ElevenStreetAnswer {
    /// The most an answer may be, as UTF-8 (after decoding from EUC-KR, which grows a Hangul
    /// syllable from 2 bytes to 3): a page of 200 products is about 150 KB. A larger one is
    /// refused before it is decoded or parsed.
    public static let maxAnswerBytes = 8 << 20

    /// One product of a search, every field as sent (nil when absent, "" when empty).
    public struct Product: Equatable, Sendable {
        public var code: String?
        public var name: String?
        public var price: String?
        public var salePrice: String?
        public var image: String?
        public var image300: String?
        public var sellerNick: String?
        public var seller: String?
        public var detailPageUrl: String?
        public var delivery: String?
        public var reviewCount: String?
        public var buySatisfy: String?
        public var rating: String?
    }

    public struct Search: Equatable, Sendable {
        public var totalCount: Int
        public var products: [Product]
    }

    /// A product found by `ProductInfo`.
    public struct Info: Equatable, Sendable {
        public var code: String?
        public var name: String?
        public var price: String?
        public var lowestPrice: String?
        public var image: String?
    }

    /// The body as a document: decoded from the encoding its declaration names (EUC-KR,
    /// strictly; or UTF-8), whatever the Content-Type said, then read with `XMLReader`.
    static func document(_ body: [UInt8]) throws(SourceError) -> XMLReader.Element {
        var start = 0
        while start < body.count, body[start] == 0x20 || body[start] == 0x0A || body[start] == 0x0D || body[start] == 0x09 { start += 1 }
        guard start < body.count else { throw .badResponse("the answer is empty") }
        guard body.count <= maxAnswerBytes else { throw .badResponse(overCap(body.count)) }
        guard body[start] == UInt8(ascii: "<") || body[start...].starts(with: [0xEF, 0xBB, 0xBF]) else {
            throw .badResponse("the answer is not XML (it starts with '\(RetryingRequest.snippet(Array(body[start..<min(body.count, start + 24)])) ?? "")')")
        }
        let utf8: [UInt8]
        let encoding = XMLReader.declaredEncoding(body[start...])?.uppercased()
        switch encoding {
        case "EUC-KR"?, "EUCKR"?, "KS_C_5601-1987"?:
            do {
                utf8 = try EUCKR.decode(body[start...])
            } catch {
                throw .badResponse("the answer declares EUC-KR, but byte \(start + error.offset + 1) \(error.reason)")
            }
            guard utf8.count <= maxAnswerBytes else { throw .badResponse(overCap(utf8.count, decoded: true)) }
        case nil, "UTF-8"?:
            utf8 = Array(body[start...])
        case let other?:
            throw .badResponse("the answer declares the encoding '\(Sanitizer.clean(String(other.prefix(40))))', which shopy does not read")
        }
        var limits = XMLLimits()
        limits.maxBytes = maxAnswerBytes
        do {
            return try XMLReader.parse(utf8, limits: limits)
        } catch {
            throw .badResponse(error.description)
        }
    }

    /// Said as Coupang's over-size answer is: its size, and the cap.
    static func overCap(_ bytes: Int, decoded: Bool = false) -> String {
        "the answer is \(Money.grouped(bytes)) bytes\(decoded ? " once decoded from EUC-KR" : ""), more than an 11번가 answer ever is (at most \(maxAnswerBytes >> 20) MiB)"
    }

    /// The error an answer carries, if any: its code and message.
    static func error(in root: XMLReader.Element) -> (code: String, message: String?)? {
        if let error = root.child("Error") {
            let code = error.child("Code")?.text.trimmingASCIIWhitespace() ?? ""
            return (code.isEmpty ? "?" : code, error.child("Message").map { $0.text.trimmingASCIIWhitespace() })
        }
        if let code = root.child("ErrorCode") {
            let text = code.text.trimmingASCIIWhitespace()
            return (text.isEmpty ? "?" : text, root.child("ErrorMessage").map { $0.text.trimmingASCIIWhitespace() })
        }
        return nil
    }

    /// An error in a 200 as the area's error: 003 (an unregistered key) and any message about
    /// the key is the key refused (77); any other code is 11번가's own words (1).
    static func failure(code: String, message: String?) -> SourceError {
        let shownCode = KeyRedaction.serverText(code, keys: [], limit: 16)
        let shown = message.map { KeyRedaction.serverText($0, keys: []) }
        let aboutKey = message.map { $0.uppercased().contains("KEY") || $0.contains("인증") } ?? false
        if code == "003" || aboutKey { return .elevenStreetKeyRefused(code: shownCode, message: shown) }
        return .elevenStreetError(code: shownCode, message: shown)
    }

    /// A `ProductSearch` answer.
    public static func search(_ body: [UInt8]) throws(SourceError) -> Search {
        let root = try document(body)
        if let (code, message) = error(in: root) { throw failure(code: code, message: message) }
        guard root.name == "ProductSearchResponse" else {
            throw .badResponse("the answer is <\(Sanitizer.clean(String(root.name.prefix(40))))>, not <ProductSearchResponse>")
        }
        guard let products = root.child("Products") else {
            throw .badResponse("the answer has no <Products>")
        }
        let items = products.children(named: "Product").map { p in
            Product(code: p.child("ProductCode")?.text, name: p.child("ProductName")?.text, price: p.child("ProductPrice")?.text,
                    salePrice: p.child("SalePrice")?.text, image: p.child("ProductImage")?.text, image300: p.child("ProductImage300")?.text,
                    sellerNick: p.child("SellerNick")?.text, seller: p.child("Seller")?.text, detailPageUrl: p.child("DetailPageUrl")?.text,
                    delivery: p.child("Delivery")?.text, reviewCount: p.child("ReviewCount")?.text, buySatisfy: p.child("BuySatisfy")?.text,
                    rating: p.child("Rating")?.text)
        }
        let total: Int
        if let text = products.child("TotalCount")?.text.trimmingASCIIWhitespace() {
            guard let value = wholeNumber(text) else {
                throw .impossibleAnswer("<TotalCount> is '\(Sanitizer.clean(String(text.prefix(24))))', not a count")
            }
            total = value
        } else {
            total = items.count
        }
        return Search(totalCount: total, products: items)
    }

    /// A `ProductInfo` answer: the product, or nil when 11번가 has none by that code (an answer
    /// without a <Product>).
    public static func info(_ body: [UInt8]) throws(SourceError) -> Info? {
        let root = try document(body)
        if let (code, message) = error(in: root) { throw failure(code: code, message: message) }
        guard root.name == "ProductInfoResponse" else {
            throw .badResponse("the answer is <\(Sanitizer.clean(String(root.name.prefix(40))))>, not <ProductInfoResponse>")
        }
        guard let product = root.child("Product") else { return nil }
        let price = product.child("ProductPrice")
        return Info(code: product.child("ProductCode")?.text, name: product.child("ProductName")?.text,
                    price: price?.child("Price")?.text, lowestPrice: price?.child("LowestPrice")?.text,
                    image: product.child("BasicImage")?.text)
    }

    /// ASCII digits (surrounding spaces allowed) as a non-negative Int; nil for anything else
    /// (a sign, a decimal point, a separator, an overflow).
    static func wholeNumber(_ text: String) -> Int? {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 18, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(trimmed)
    }

    /// A price: a positive whole number of won, else nil (empty, 0, negative, not a number).
    static func price(_ text: String?) -> Int? {
        guard let text, let value = wholeNumber(text), value > 0 else { return nil }
        return value
    }
}
