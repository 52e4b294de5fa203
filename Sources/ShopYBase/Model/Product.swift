/// A product as shopy uses it: title cleaned, prices as integers or nil when unknown, empty
/// strings gone, categories without empties.
public struct Product: Equatable, Sendable, Codable {
    public var productId: String
    public var title: String
    public var price: Int?
    public var highPrice: Int?
    public var mall: String?
    public var brand: String?
    public var maker: String?
    public var categories: [String]
    public var productType: Int?
    public var link: String?
    public var image: String?
    /// Where a listing found it (nil for a stored like: its id's namespace says, `ProductID`).
    public var source: SourceKind?
    /// Coupang's rocket delivery and free shipping flags (nil elsewhere, and never stored).
    public var rocket: Bool?
    public var freeShipping: Bool?

    public init(productId: String, title: String, price: Int? = nil, highPrice: Int? = nil, mall: String? = nil,
                brand: String? = nil, maker: String? = nil, categories: [String] = [], productType: Int? = nil,
                link: String? = nil, image: String? = nil, source: SourceKind? = nil, rocket: Bool? = nil, freeShipping: Bool? = nil) {
        self.productId = productId
        self.title = title
        self.price = price
        self.highPrice = highPrice
        self.mall = mall
        self.brand = brand
        self.maker = maker
        self.categories = categories
        self.productType = productType
        self.link = link
        self.image = image
        self.source = source
        self.rocket = rocket
        self.freeShipping = freeShipping
    }
}

/// Where a listing came from: the Naver contract, 11번가's and Coupang Partners' Open APIs, or
/// the offline catalog (`ProductSources/SourceKind+Names.swift` has their names and keys).
public enum SourceKind: String, Sendable, CaseIterable, Codable {
    case naver, elevenst = "11st", coupang, catalog
}

/// A source of a merged listing that failed, and why (the others were still listed).
public struct SourceFailure: Sendable, Equatable {
    public var source: SourceKind
    public var error: any Error

    public init(source: SourceKind, error: any Error) {
        self.source = source
        self.error = error
    }

    public static func == (a: SourceFailure, b: SourceFailure) -> Bool {
        a.source == b.source && String(describing: a.error) == String(describing: b.error)
    }
}

/// One page of search results, ranked.
public struct SearchPage: Equatable, Sendable {
    public var query: String
    public var sort: SortOrder
    public var source: SourceKind
    public var total: Int
    public var start: Int
    public var display: Int
    public var items: [Product]
    /// Items of the answer the mapper left out (no usable productId): `--verbose` says how many.
    public var dropped: Int
    /// The sources asked (`source` is the first): several for a merged listing (`SourceMerge`).
    public var sources: [SourceKind]
    /// The sources of a merged listing that failed, each with its error (the others answered).
    public var failures: [SourceFailure]

    public init(query: String, sort: SortOrder, source: SourceKind, total: Int, start: Int, display: Int, items: [Product],
                dropped: Int = 0, sources: [SourceKind]? = nil, failures: [SourceFailure] = []) {
        self.query = query
        self.sort = sort
        self.source = source
        self.total = total
        self.start = start
        self.display = display
        self.items = items
        self.dropped = dropped
        self.sources = sources ?? [source]
        self.failures = failures
    }

    /// The absolute rank of `items[index]`; saturates instead of trapping (answers are checked
    /// by `AnswerCheck` first, so a real page never comes near).
    public func rank(of index: Int) -> Int { ListingArithmetic.rank(start: start, index: index) }
}

/// The one place where wire items become products.
///
/// Every text field is bounded (`FieldLimits`) before anything is listed or stored, and an item
/// without a productId its source may send (`keeps`) is left out of a page: the store would call
/// such an id damage.
public enum ProductMapper {
    public static func product(from item: WireItem) -> Product {
        Product(
            productId: item.productId.trimmingASCIIWhitespace(),
            title: FieldLimits.cut(TitleCleaner.clean(FieldLimits.cutRaw(item.title, to: FieldLimits.title)), to: FieldLimits.title),
            price: price(item.lprice),
            highPrice: price(item.hprice),
            mall: text(item.mallName),
            brand: text(item.brand),
            maker: text(item.maker),
            categories: [item.category1, item.category2, item.category3, item.category4].compactMap(text),
            productType: count(item.productType),
            link: plain(item.link),
            image: plain(item.image)
        )
    }

    /// The page's products, leaving out items without a usable productId (counted in `dropped`).
    public static func page(from response: WireSearchResponse, query: String, sort: SortOrder, source: SourceKind) -> SearchPage {
        var products: [Product] = []
        products.reserveCapacity(response.items.count)
        for item in response.items where keeps(item.productId, from: source) {
            products.append(product(from: item))
        }
        return SearchPage(query: query, sort: sort, source: source, total: response.total, start: response.start,
                          display: response.display, items: products, dropped: response.items.count - products.count)
    }

    /// Whether a page of `source` keeps an item with this productId: Naver's ids are bare digits
    /// (`ProductID.digits`); the catalog's are what an import keeps (`ProductID.usable`: bare, or
    /// namespaced like `11st:5`, told apart from a bare id by their exact bytes).
    static func keeps(_ productId: String, from source: SourceKind) -> Bool {
        switch source {
        case .catalog: ProductID.usable(productId) != nil
        case .naver, .elevenst, .coupang: ProductID.digits(productId) != nil
        }
    }

    /// "0", "" and anything that is not a positive integer mean unknown.
    static func price(_ text: String?) -> Int? {
        guard let text, let value = Int(text.trimmingASCIIWhitespace()), value > 0 else { return nil }
        return value
    }

    /// The product type (Naver's are 1 to 12): a negative or non-integer one means unknown, as the
    /// store reads no negative number.
    static func count(_ text: String?) -> Int? {
        guard let text, let value = Int(text.trimmingASCIIWhitespace()), value >= 0 else { return nil }
        return value
    }

    /// URLs are kept as sent; empty means absent, and so does one longer than
    /// `FieldLimits.url` bytes (a cut URL would point somewhere else).
    static func plain(_ raw: String?) -> String? {
        guard let raw, FieldLimits.keepsURL(raw.utf8) else { return nil }
        let trimmed = raw.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Shop texts may carry entities like titles do; empty means absent; cut to
    /// `FieldLimits.shopText` Characters.
    static func text(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let cleaned = FieldLimits.cut(TitleCleaner.clean(FieldLimits.cutRaw(raw, to: FieldLimits.shopText)), to: FieldLimits.shopText)
        return cleaned.isEmpty ? nil : cleaned
    }
}
