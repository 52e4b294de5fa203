// Tests for Context.catalogLookup (Sources/ShopYCLI/Commands/Context.swift, OpenedOnce.swift):
// one command's lookups open the catalog once, at the first id, and find what it holds.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYCatalog

final class CatalogLookupOnceTests: XCTestCase {
    final class Opens: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        func add() { lock.withLock { count += 1 } }
    }

    func testTheCatalogIsOpenedOnceForSeveralIdsAndNotBeforeTheFirst() {
        let opens = Opens()
        let home = NSTemporaryDirectory() + "shopy-lookup-\(UUID().uuidString.prefix(8))"
        let context = Context(io: IO.capture(environment: ["SHOPY_HOME": home]), store: SettingsStore(directory: home),
                              catalog: { opens.add(); return Catalog.embedded })
        let lookup = context.catalogLookup
        XCTAssertEqual(opens.count, 0, "nothing is opened before an id is looked up")
        let ids = Catalog.embedded.items.prefix(3).map(\.productId)
        for id in ids { XCTAssertEqual(lookup(id)?.productId, id) }
        XCTAssertNil(lookup("0000000000000"))
        XCTAssertEqual(opens.count, 1, "four lookups, one catalog")
    }
}
