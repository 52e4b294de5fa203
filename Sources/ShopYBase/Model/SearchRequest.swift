/// What a search asks of a product source, already validated against the contract.
public struct SearchRequest: Equatable, Sendable {
    public static let maxStart = 1000
    public static let maxDisplay = 100
    /// The deepest rank the API can reach: start 1000 with display 100.
    public static let maxRank = maxStart + maxDisplay - 1

    public var query: String
    public var sort: SortOrder
    public var start: Int
    public var display: Int
    public var naverPayOnly: Bool
    public var exclude: Set<ExcludeKind>

    public init(query: String, sort: SortOrder = .sim, start: Int = 1, display: Int = 20, naverPayOnly: Bool = false,
                exclude: Set<ExcludeKind> = []) {
        self.query = query
        self.sort = sort
        self.start = start
        self.display = display
        self.naverPayOnly = naverPayOnly
        self.exclude = exclude
    }
}
