import ShopYCore
import ShopYBase
/// Everything that can happen to the browse state: what the user does and what comes back.
public enum BrowseIntent: Equatable, Sendable {
    case start
    case key(Key)
    case paste(String)
    case resize(rows: Int, columns: Int)

    case homeKeywords(Result<[String], BrowseFailure>)
    case homeSection(index: Int, keyword: String, Result<SearchPage, BrowseFailure>)
    case page(generation: Int, skip: Int, Result<SearchPage, BrowseFailure>)
    case likesLoaded(Result<[Like], BrowseFailure>)
    case likeSaved(productId: String, likedAt: String?)
    case likeFailed(productId: String, BrowseFailure)
    case historyLoaded(Result<[HistoryEntry], BrowseFailure>)
    case historyRemoved(query: String, BrowseFailure?)
    case queryRecorded(BrowseFailure?)
    /// The outcome of `open` or `copy`: what to say in the status line.
    case linkDone(StatusMessage)
    case path(PathStatus)
    /// Detail's picture, fetched and decoded (or why not).
    case pictureLoaded(productId: String, url: String, Result<DecodedPicture, PictureFailure>)
    /// A liked product's price record and liked price, for Detail (nil: not tracked).
    case trackedLoaded(productId: String, record: PriceRecord?, likedPrice: Int?)
}

/// What the reducer asks the outside world to do; the effect runner does it through the
/// services and answers with intents.
public enum BrowseEffect: Equatable, Sendable {
    case monitorPath
    case loadHomeKeywords
    case loadHomeSection(index: Int, keyword: String)
    case searchPage(generation: Int, request: SearchRequest, skip: Int)
    case recordQuery(String)
    case loadLikes
    case like(Product)
    case unlike(productId: String)
    case loadHistory
    case removeHistory(String)
    case open(String)
    case copy(String)
    case loadPicture(productId: String, url: String)
    /// The picture being loaded is no longer shown (Detail was left): its fetch is aborted, its
    /// decode not started (or not waited for), its answer never sent.
    case dropPicture
    case loadTracked(productId: String)
    /// The screen's loads in flight (Search's pages, Home's sections) are no longer wanted (the
    /// screen was left, or a new search replaced them): cancelled, their answers never sent.
    case cancelLoads(BrowseTab)
}
