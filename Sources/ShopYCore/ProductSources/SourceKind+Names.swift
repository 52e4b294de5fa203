import ShopYBase
/// What the user reads and sets for each source: its name, its keys and its base.
extension SourceKind {
    /// The live sources, in the order a merged listing takes them (and `all` names them).
    public static let live: [SourceKind] = [.naver, .elevenst, .coupang]

    public var isLive: Bool { self != .catalog }

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .naver: return "Naver"
        case .elevenst: return "11번가"
        case .coupang: return "Coupang"
        case .catalog: return "the offline catalog"
        }
    }

    /// The variable that replaces the service's address (scheme, host and port), for tests and proxies.
    public var baseVariable: String? {
        switch self {
        case .naver: return "SHOPY_API_BASE"
        case .elevenst: return "SHOPY_11ST_BASE"
        case .coupang: return "SHOPY_COUPANG_BASE"
        case .catalog: return nil
        }
    }

    /// The service's own address.
    public var defaultBase: String? {
        switch self {
        case .naver: return RequestBuilder.defaultBase
        // HTTPS: the key travels in the query. Public clients call it so in 2026 (Fixtures/README.md).
        case .elevenst: return "https://openapi.11st.co.kr"
        case .coupang: return "https://api-gateway.coupang.com"
        case .catalog: return nil
        }
    }
}
