import ShopYBase
import ShopYCatalog

/// Where products come from: the Naver API (or a server that speaks its contract), 11번가's
/// and Coupang Partners' Open APIs, the offline catalog, or several of them merged into one
/// listing (`SourceMerge`). All answer with the same `SearchPage`.
public protocol ProductSource: Sendable {
    /// The source (the first one of a merge).
    var kind: SourceKind { get }
    /// Every source asked (one, or a merge's).
    var kinds: [SourceKind] { get }
    func search(_ request: SearchRequest) async throws -> SearchPage
    /// Throws `SourceError.unsupported` for a sort, page or filter this source cannot do, before
    /// anything is sent (`SourceCapabilities`).
    func check(_ request: SearchRequest) throws
}

extension ProductSource {
    public var kinds: [SourceKind] { [kind] }
    public func check(_ request: SearchRequest) throws {
        try SourceCapabilities.check(request, for: kind)
    }
}

/// The built-in catalog of recorded items: no network, no keys.
public struct CatalogSource: ProductSource {
    public let catalog: Catalog
    public var kind: SourceKind { .catalog }

    public init(catalog: Catalog = .embedded) {
        self.catalog = catalog
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try catalog.page(request).stamped(.catalog)
    }

    /// The notice printed once on stderr when a command runs on the catalog because no keys are
    /// set (not when the catalog was asked for): why, and how to reach live results.
    public static func notice(environment: [String: String]) -> String {
        var text = "searching the offline catalog (\(Catalog.embedded.count) items recorded in 2025). Naver retired its shopping search API on 2026-07-31;"
        let id = !(environment["NAVER_CLIENT_ID"] ?? "").isEmpty, secret = !(environment["NAVER_CLIENT_SECRET"] ?? "").isEmpty
        if id != secret {
            text += " NAVER_CLIENT_\(id ? "SECRET" : "ID") is not set (NAVER_CLIENT_\(id ? "ID" : "SECRET") is);"
        }
        text += " for live results set ELEVENST_API_KEY (11번가) or COUPANG_ACCESS_KEY and COUPANG_SECRET_KEY (Coupang Partners), see docs/sources.md,"
        text += " or point SHOPY_API_BASE at a compatible server (or a local shopy-emulator) and set NAVER_CLIENT_ID and NAVER_CLIENT_SECRET."
        text += " '--source catalog' (or 'shopy config set source catalog') leaves this notice out."
        return text
    }

    public static var notice: String { notice(environment: [:]) }
}

/// The Naver Shopping search API, or a compatible server at SHOPY_API_BASE.
public struct NaverSource: ProductSource {
    public let client: NaverClient
    public let timeout: Double
    public var kind: SourceKind { .naver }
    /// Called with each answer's items when `catalog.record` is on (see `CatalogRecording`).
    public var record: (@Sendable ([WireItem]) -> Void)?

    public init(client: NaverClient, timeout: Double) {
        self.client = client
        self.timeout = timeout
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        var response = try await client.search(request, timeout: timeout)
        // Impossible start/display/total: bad data, before any arithmetic uses them.
        if let problem = AnswerCheck.problem(in: response, for: request) { throw SourceError.impossibleAnswer(problem) }
        // A server that sends more than was asked for does not get to print more.
        if response.items.count > request.display { response.items = Array(response.items.prefix(request.display)) }
        let page = ProductMapper.page(from: response, query: request.query, sort: request.sort, source: .naver).stamped(.naver)
        record?(response.items)
        if page.dropped > 0 {
            client.trace("dropped \(page.dropped) of \(response.items.count) items without a usable productId (start \(request.start))")
        }
        return page
    }
}

extension SearchPage {
    /// The page with every item marked as found at `source` (what listings show as "source").
    func stamped(_ source: SourceKind) -> SearchPage {
        var page = self
        for i in page.items.indices { page.items[i].source = source }
        return page
    }
}
