import ShopYCore
import ShopYBase
/// The screens Tab cycles through (`1`–`4`); Detail is pushed on top of one of them.
public enum BrowseTab: Int, CaseIterable, Sendable {
    case home = 1, search, likes, history

    public var title: String {
        switch self {
        case .home: return "Home"
        case .search: return "Search"
        case .likes: return "Likes"
        case .history: return "History"
        }
    }
}

/// A selection in a list and the first row shown.
public struct ListCursor: Equatable, Sendable {
    public var selection = 0
    public var scroll = 0
    public init(selection: Int = 0, scroll: Int = 0) {
        self.selection = selection
        self.scroll = scroll
    }
}

/// Something that failed, in the words the subcommands use (`ShopyError.message`).
public struct BrowseFailure: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// One popular section of Home.
public struct HomeSection: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        case loading
        case loaded(total: Int, items: [Product])
        case failed(String)
    }
    public var keyword: String
    public var content: Content
    public init(keyword: String, content: Content) {
        self.keyword = keyword
        self.content = content
    }
}

public struct HomeState: Equatable, Sendable {
    public var sections: [HomeSection] = []
    /// Sections held back while the network is down (or not yet known).
    public var waitingForNetwork = false
    /// True while the keywords themselves are being read.
    public var loading = false
    public var requested = false
    public var cursor = ListCursor()

    /// Whether a load is out: the keywords, or a section sent for (not one held for the network).
    public var inFlight: Bool { loading || (!waitingForNetwork && sections.contains { $0.content == .loading }) }
}

/// A search result row: its absolute rank and the product.
public struct RankedProduct: Equatable, Sendable {
    public var rank: Int
    public var product: Product
    public init(rank: Int, product: Product) {
        self.rank = rank
        self.product = product
    }
}

public struct SearchState: Equatable, Sendable {
    public var query = ""
    public var sort: SortOrder = .sim
    public var size = 20
    public var items: [RankedProduct] = []
    /// The total the source reported (nil before the first page).
    public var total: Int?
    /// The last rank requested and answered (a page may hold fewer items than its span).
    public var loadedThrough = 0
    /// The generation of the request in flight, if any; answers of other generations are stale.
    public var loading: Int?
    public var generation = 0
    public var error: String?
    public var cursor = ListCursor()
    /// A move past the last row while the next page loads: taken once it has come.
    public var advanceOnLoad = false
    /// A page held back while the network is down (or not yet known): sent when the path is up.
    public var waitingForNetwork = false
    /// A page cancelled when Search was left: asked for again on coming back.
    public var interrupted = false

    /// How deep the list can go: min(total, 1,099).
    public var limit: Int { min(total ?? 0, SearchRequest.maxRank) }
    public var canLoadMore: Bool { total != nil && loadedThrough < limit }
}

public struct LikesState: Equatable, Sendable {
    /// Sorted by `sort`, as `shopy likes` sorts them.
    public var likes: [Like] = []
    public var sort: LikesCommand.Sort = .recent
    public var loaded = false
    public var loading = false
    public var error: String?
    public var cursor = ListCursor()
}

public struct HistoryState: Equatable, Sendable {
    public var entries: [HistoryEntry] = []
    public var loaded = false
    public var loading = false
    public var error: String?
    public var cursor = ListCursor()
}

/// The item Detail shows, with where it came from.
public struct DetailState: Equatable, Sendable {
    public var product: Product
    public var rank: Int?
    public var scroll = 0
    /// The product's picture (`BrowsePictures`).
    public var picture = DetailPicture.none
    /// A liked product's tracked prices (`likes refresh`), once read.
    var tracked: ProductCard.Tracked?
    public init(product: Product, rank: Int? = nil) {
        self.product = product
        self.rank = rank
    }
}

/// The path as the monitor last reported it; unknown until its first reading.
public enum NetworkState: Equatable, Sendable {
    case unknown
    case online
    case offline(reason: String)

    public var isOffline: Bool { if case .offline = self { return true } else { return false } }
}

/// A line for the status bar: information, or an error (shown in red).
public struct StatusMessage: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// Everything the view draws, as one value.
public struct BrowseState: Equatable, Sendable {
    public var tab: BrowseTab
    public var detail: DetailState?
    public var home = HomeState()
    public var search = SearchState()
    public var likes = LikesState()
    public var history = HistoryState()
    /// productId → likedAt of every like (♥ in every list), changed at once by `l`.
    public var liked: [String: String] = [:]
    /// Likes and unlikes written but not yet confirmed: productId → the state before.
    public var pendingLikes: [String: String?] = [:]
    /// The search prompt's text while it is open.
    public var prompt: String?
    public var network: NetworkState = .unknown
    public var message: StatusMessage?
    public var showHelp = false
    public var source: SourceKind
    /// How Detail draws pictures on this terminal, or why it does not (set by the command).
    public var graphics: Result<GraphicsChoice, PictureFailure> = .failure(.off("pictures are off"))
    /// Terminal size as last reported (rows, columns); the reducer pages by it.
    public var rows = 24
    public var columns = 80
    public var quit = false

    public init(source: SourceKind, tab: BrowseTab = .home, query: String? = nil, sort: SortOrder = .sim, size: Int = 20) {
        self.source = source
        self.tab = tab
        search.sort = sort
        search.size = size
        if let query { search.query = query }
    }

    /// Requests that need the network are not sent while it is down (the catalog needs none),
    /// nor before the path monitor's first reading.
    public var networkBlocked: Bool { source == .naver && network != .online }
}
