/// Where products come from: the Naver API (or a server that speaks its contract) or the
/// offline catalog. Both answer with the same `SearchPage`.
import ShopYBase
import ShopYCatalog

public protocol ProductSource: Sendable {
    var kind: SourceKind { get }
    func search(_ request: SearchRequest) async throws -> SearchPage
}

/// The built-in catalog of recorded items: no network, no keys.
public struct CatalogSource: ProductSource {
    public let catalog: Catalog
    public var kind: SourceKind { .catalog }

    public init(catalog: Catalog = .embedded) {
        self.catalog = catalog
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try catalog.page(request)
    }

    /// The notice printed once on stderr when a command runs on the catalog because no keys are
    /// set (not when the catalog was asked for): why, and how to reach live results.
    public static func notice(environment: [String: String]) -> String {
        var text = "searching the offline catalog (\(Catalog.embedded.count) items recorded in 2025). Naver retired its shopping search API on 2026-07-31;"
        let id = !(environment["NAVER_CLIENT_ID"] ?? "").isEmpty, secret = !(environment["NAVER_CLIENT_SECRET"] ?? "").isEmpty
        if id != secret {
            text += " NAVER_CLIENT_\(id ? "SECRET" : "ID") is not set (NAVER_CLIENT_\(id ? "ID" : "SECRET") is);"
        }
        text += " for live results point SHOPY_API_BASE at a compatible server (or a local shopy-emulator) and set NAVER_CLIENT_ID and NAVER_CLIENT_SECRET."
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
        let page = ProductMapper.page(from: response, query: request.query, sort: request.sort, source: .naver)
        record?(response.items)
        if page.dropped > 0 {
            client.trace("dropped \(page.dropped) of \(response.items.count) items without a usable productId (start \(request.start))")
        }
        return page
    }
}
