/// The top of a query by relevance (its first `count` items): what a popular section, browse's
/// Home sections and the widget's popular and history items show, fetched one way.
import ShopYBase

package enum TopItems {
    package static func request(_ query: String, count: Int) -> SearchRequest {
        SearchRequest(query: query, sort: .sim, start: 1, display: count)
    }

    package static func fetch(_ query: String, count: Int, from source: any ProductSource) async throws -> SearchPage {
        try await source.search(request(query, count: count))
    }
}
