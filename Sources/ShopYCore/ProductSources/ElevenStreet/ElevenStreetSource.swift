import ShopYBase
/// 11번가 as a source: keyword search with its sorts and pages, and a product looked up by its
/// code (`ProductInfo`, what `likes refresh` asks for an 11번가 like).
///
/// Mapping (docs/sources.md): productId ← `11st:` + ProductCode (digits, else the item is left
/// out), title ← ProductName cleaned as Naver's titles are, price ← SalePrice when a positive
/// number, else ProductPrice, mall ← SellerNick, else Seller, link ← DetailPageUrl, image ←
/// ProductImage300, else ProductImage. Every field is bounded as Naver's are (`ProductMapper`).
public struct ElevenStreetSource: ProductSource {
    public let client: ElevenStreetClient
    public let timeout: Double
    public var kind: SourceKind { .elevenst }

    public init(client: ElevenStreetClient, timeout: Double) {
        self.client = client
        self.timeout = timeout
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        do {
            return try await searchUnnamed(request)
        } catch {
            throw NamedSourceError.wrap(error, source: kind)
        }
    }

    func searchUnnamed(_ request: SearchRequest) async throws -> SearchPage {
        try check(request)
        guard let sortCode = ElevenStreetClient.sortCode(request.sort) else { throw SourceError.unsupported(source: kind, what: "sort by date", can: "sort sim, asc and dsc") }
        let size = max(1, min(request.display, ElevenStreetClient.maxPageSize))
        let start = max(1, request.start)
        // 11번가 pages by number: a start on a page boundary is one request; another (rank's last
        // page starts at 1,000) takes the two pages around it.
        let first = (start - 1) / size + 1
        let offset = (start - 1) % size
        var answer = try await client.search(keyword: request.query, sortCode: sortCode, pageNum: first, pageSize: size, timeout: timeout)
        var products = Array(answer.products.prefix(size))
        if offset > 0 {
            products = Array(products.dropFirst(offset))
            if answer.products.count >= size {
                let next = try await client.search(keyword: request.query, sortCode: sortCode, pageNum: first + 1, pageSize: size, timeout: timeout)
                products += next.products.prefix(size)
                answer.totalCount = max(answer.totalCount, next.totalCount)
            }
        }
        products = Array(products.prefix(request.display))
        var items: [Product] = []
        items.reserveCapacity(products.count)
        for product in products {
            if let mapped = Self.product(from: product) { items.append(mapped) }
        }
        let page = SearchPage(query: request.query, sort: request.sort, source: kind, total: answer.totalCount, start: start,
                              display: items.count, items: items, dropped: products.count - items.count)
        if page.dropped > 0 { client.trace("[11st] dropped \(page.dropped) of \(products.count) products without a usable ProductCode") }
        return page
    }

    /// The product an answer describes, or nil without a usable ProductCode.
    public static func product(from p: ElevenStreetAnswer.Product) -> Product? {
        guard let code = p.code.flatMap(ProductID.digits) else { return nil }
        let price = ElevenStreetAnswer.price(p.salePrice) ?? ElevenStreetAnswer.price(p.price)
        let item = WireItem(title: p.name ?? "", link: p.detailPageUrl, image: nonEmpty(p.image300) ?? p.image, lprice: price.map(String.init),
                            mallName: nonEmpty(p.sellerNick) ?? p.seller, productId: code)
        var product = ProductMapper.product(from: item)
        product.productId = ProductID.namespaced(code, in: .elevenst)
        product.source = .elevenst
        return product
    }

    /// The product with that id (`11st:…` or bare digits) as 11번가 has it now: LowestPrice when
    /// positive, else Price; nil when 11번가 has no product by that code.
    public func lookup(_ id: String) async throws -> Product? {
        let code = ProductID.bare(id)
        do {
            guard ProductID.digits(code) == code else { throw SourceError.badResponse("'\(Sanitizer.clean(id))' is not an 11번가 product code") }
            guard let info = try await client.info(code: code, timeout: timeout) else { return nil }
            // An answer about another product is no answer about this one.
            if let answered = info.code.flatMap(ProductID.digits), answered != code {
                throw SourceError.impossibleAnswer("ProductInfo for \(code) answered about product \(Sanitizer.clean(answered))")
            }
            let price = ElevenStreetAnswer.price(info.lowestPrice) ?? ElevenStreetAnswer.price(info.price)
            var product = ProductMapper.product(from: WireItem(title: info.name ?? "", image: info.image, lprice: price.map(String.init), productId: code))
            product.productId = ProductID.namespaced(code, in: .elevenst)
            product.source = .elevenst
            return product
        } catch {
            throw NamedSourceError.wrap(error, source: kind)
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingASCIIWhitespace().isEmpty else { return nil }
        return text
    }
}
