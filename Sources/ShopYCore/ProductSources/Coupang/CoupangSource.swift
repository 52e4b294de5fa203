import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Coupang Partners as a source: keyword search (at most 10 items, its own order, page 1 only;
/// `asc`/`dsc` sort those items here), best sellers per category and today's deals (goldbox).
///
/// Mapping (docs/sources.md): productId ← `coupang:` + productId, title ← productName (cleaned
/// as every title), price ← productPrice, mall none, link ← the plain product page
/// `https://www.coupang.com/vp/products/{productId}` — never the affiliate tracking link the
/// answer carries (opening one's own link is a self-click, which Coupang's terms forbid; it is
/// neither shown nor stored anywhere), image ← productImage, rocket and freeShipping.
public struct CoupangSource: ProductSource {
    public let client: CoupangClient
    public let timeout: Double
    public var kind: SourceKind { .coupang }

    public init(client: CoupangClient, timeout: Double) {
        self.client = client
        self.timeout = timeout
    }

    /// The partner disclosure Coupang's terms ask results to carry.
    public static let disclosure = "이 포스팅은 쿠팡 파트너스 활동의 일환으로, 이에 따른 일정액의 수수료를 제공받습니다."

    /// How long Coupang's data may be kept by an app (its terms): the cache's life, and how long
    /// the last listing's Coupang rows are used for `like ROW`, `open ROW` and `copy ROW`.
    public static let keptFor: TimeInterval = 3600

    /// The `savedAt` before which a listing's Coupang rows are no longer used.
    public static func listingCutoff(now: Date) -> String { Like.timestamp(now.addingTimeInterval(-keptFor)) }

    /// The cutoff for a like made at `likedAt` (`2026-12-01T09:30:05Z`), or nil for another form.
    public static func listingCutoff(likedAt: String) -> String? {
        LocalTime.parseUTC(likedAt).flatMap { listingCutoff(now: $0) }
    }

    /// What a Coupang like keeps: what the user chose to keep (id, title, plain link, image, the
    /// price when liked), nothing more of Coupang's data.
    public static func kept(_ product: Product) -> Product {
        Product(productId: product.productId, title: product.title, price: product.price, link: product.link, image: product.image)
    }

    /// The plain product page of a productId.
    public static func productPage(_ id: String) -> String { "https://www.coupang.com/vp/products/" + id }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        do {
            try check(request)
        } catch {
            // Page 2 and on of a merged listing: Coupang contributes to page 1 only (the command
            // line refuses such a page outright; browse and scans go on without Coupang).
            guard request.start > 1, case SourceError.unsupported = error else { throw NamedSourceError.wrap(error, source: kind) }
            return SearchPage(query: request.query, sort: request.sort, source: kind, total: 0, start: request.start, display: 0, items: [])
        }
        let limit = max(1, min(request.display, SourceCapabilities.coupangSearchLimit))
        let answer: [CoupangAnswer.Item]
        do {
            answer = try await client.search(keyword: request.query, limit: limit, timeout: timeout)
        } catch {
            throw NamedSourceError.wrap(error, source: kind)
        }
        let page = page(answer.prefix(limit), query: request.query, sort: request.sort)
        if page.dropped > 0 { client.trace("[coupang] dropped \(page.dropped) items without a usable productId") }
        return page
    }

    /// A category's best sellers (`limit` 1–100).
    public func bestSellers(category: Int, name: String, limit: Int) async throws -> SearchPage {
        do {
            let answer = try await client.bestSellers(category: category, limit: limit, timeout: timeout)
            return page(answer.prefix(limit), query: name, sort: .sim)
        } catch {
            throw NamedSourceError.wrap(error, source: kind)
        }
    }

    /// Today's deals.
    public func goldbox(limit: Int) async throws -> SearchPage {
        do {
            let answer = try await client.goldbox(timeout: timeout)
            return page(answer.prefix(limit), query: "goldbox", sort: .sim)
        } catch {
            throw NamedSourceError.wrap(error, source: kind)
        }
    }

    func page(_ answer: ArraySlice<CoupangAnswer.Item>, query: String, sort: ShopYBase.SortOrder) -> SearchPage {
        var items = answer.compactMap(Self.product)
        if sort == .asc || sort == .dsc { items = PriceOrder.sorted(items, ascending: sort == .asc) }
        return SearchPage(query: query, sort: sort, source: kind, total: items.count, start: 1, display: items.count, items: items,
                          dropped: answer.count - items.count)
    }

    /// The product an item describes, or nil without a usable productId.
    public static func product(from item: CoupangAnswer.Item) -> Product? {
        guard let id = item.productId else { return nil }
        let wire = WireItem(title: item.productName ?? "", link: productPage(id), image: item.productImage,
                            lprice: item.productPrice.map(String.init), productId: id, category1: item.categoryName)
        var product = ProductMapper.product(from: wire)
        product.productId = ProductID.namespaced(id, in: .coupang)
        product.source = .coupang
        product.rocket = item.isRocket
        product.freeShipping = item.isFreeShipping
        return product
    }
}
