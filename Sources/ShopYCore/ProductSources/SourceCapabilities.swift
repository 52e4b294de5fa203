import ShopYBase
/// What each source can do with a search, checked before anything is sent: a sort, page or
/// filter a source cannot do is refused (`SourceError.unsupported`, exit 64) for the whole
/// command, even when another source could do it, so that a listing never silently means
/// something else than what was asked.
///
/// - naver and the catalog: everything the contract has.
/// - 11st: `sim` (its popularity order, sortCd=CP), `asc` (L) and `dsc` (H); any page. No
///   `date`, no `--naverpay`, no `--exclude` (Naver's filters).
/// - coupang: its relevance order, at most 10 items, page 1 only; `asc`/`dsc` sort those 10
///   locally. No `date`, no filters.
public enum SourceCapabilities {
    /// Coupang's search answers at most this many items (more asked: 10 are asked).
    public static let coupangSearchLimit = 10

    public static func check(_ request: SearchRequest, for kind: SourceKind) throws(SourceError) {
        switch kind {
        case .naver, .catalog:
            return
        case .elevenst:
            if request.sort == .date { throw .unsupported(source: kind, what: "sort by date", can: "sort sim, asc and dsc") }
            try checkFilters(request, kind)
        case .coupang:
            if request.sort == .date {
                throw .unsupported(source: kind, what: "sort by date", can: "list its own order (sim) and sort its 10 items by price: asc, dsc")
            }
            if request.start > 1 {
                throw .unsupported(source: kind, what: "list page 2 or later", can: "list page 1, at most \(coupangSearchLimit) items")
            }
            try checkFilters(request, kind)
        }
    }

    static func checkFilters(_ request: SearchRequest, _ kind: SourceKind) throws(SourceError) {
        if request.naverPayOnly { throw .unsupported(source: kind, what: "keep Naver Pay items only (--naverpay is Naver's filter)", can: "list without it") }
        if !request.exclude.isEmpty { throw .unsupported(source: kind, what: "leave out used, rental or cbshop items (--exclude is Naver's filter)", can: "list without it") }
    }
}
