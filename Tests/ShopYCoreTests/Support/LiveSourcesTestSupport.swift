// The live sources' tests share these: the providers' recorded shapes, and a fake source.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport

/// The providers' recorded shapes in Fixtures/elevenst and Fixtures/coupang (Fixtures/README.md
/// says where each shape comes from).
enum LiveFixtures {
    static let directory = Repository.fixtures()

    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(path)))
    }
}

/// A fake source for the merge: a fixed page, or an error, after an optional delay.
struct FixedSource: ProductSource {
    var kind: SourceKind
    var outcome: Result<[Product], SourceError>
    var total: Int? = nil
    var delay: Duration = .zero
    var inFlight: InFlight? = nil

    func search(_ request: SearchRequest) async throws -> SearchPage {
        inFlight?.enter()
        defer { inFlight?.leave() }
        if delay > .zero { try await Task.sleep(for: delay) }
        let items = try outcome.get()
        return SearchPage(query: request.query, sort: request.sort, source: kind, total: total ?? items.count, start: request.start,
                          display: items.count, items: items)
    }
}

/// How many searches ran at once, at most.
final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0

    func enter() { lock.withLock { now += 1; most = max(most, now) } }
    func leave() { lock.withLock { now -= 1 } }
}
