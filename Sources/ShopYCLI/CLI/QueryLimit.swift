import ShopYCore
import ShopYBase
/// How long a search query (search, rank keyword, popular section) may be.
///
/// Real queries are a few words; the API's servers answer 431 to request lines of several
/// kilobytes. shopy refuses (64) a query over `maxBytes` UTF-8 bytes before anything is sent:
/// percent-encoded that is at most 3,000 characters of URL.
public enum QueryLimit {
    public static let maxBytes = 1000

    /// Throws when `query` is over the limit; `what` names it in the message (`the query`).
    public static func check(_ query: String, what: String) throws(UsageError) {
        let bytes = query.utf8.count
        guard bytes <= maxBytes else {
            throw UsageError("\(what) is \(Money.grouped(bytes)) bytes long; at most \(Money.grouped(maxBytes)) bytes (UTF-8) are sent",
                             hint: "shorten it to a few words")
        }
    }
}
