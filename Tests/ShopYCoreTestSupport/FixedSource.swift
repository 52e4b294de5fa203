// A product source for the tests of what merges sources: its answer is fixed.

import ShopYBase
import ShopYCore
import ShopYTestSupport

/// A fake source for the merge: a fixed page, or an error; with a `meeting`, it answers only
/// once every source of the meeting is being asked.
public struct FixedSource: ProductSource {
    public var kind: SourceKind
    public var outcome: Result<[Product], SourceError>
    public var total: Int?
    public var meeting: Meeting?

    public init(kind: SourceKind, outcome: Result<[Product], SourceError>, total: Int? = nil, meeting: Meeting? = nil) {
        self.kind = kind
        self.outcome = outcome
        self.total = total
        self.meeting = meeting
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        await meeting?.arrive()
        let items = try outcome.get()
        return SearchPage(query: request.query, sort: request.sort, source: kind, total: total ?? items.count, start: request.start,
                          display: items.count, items: items)
    }
}
