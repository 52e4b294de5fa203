import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// What Coupang's terms shape: a like keeps only what the user chose to keep, the last
/// listing's Coupang rows are used for an hour, and the tracking link is nowhere.
final class CoupangTermsTests: StoreDirectoryTestCase {
    let coupangProduct = Product(productId: "coupang:27664441", title: "탐사 소프트 3겹 롤화장지", price: 15600, categories: ["생활용품"],
                                 link: "https://www.coupang.com/vp/products/27664441", image: "https://ads-partners.coupang.com/image1/a.jpg",
                                 source: .coupang, rocket: true, freeShipping: true)

    func listing(savedAt: String) throws -> SettingsStore {
        let store = SettingsStore(directory: directory)
        try store.update([.state]) { settings in
            settings.lastListing = LastListing(command: "search 화장지", savedAt: savedAt,
                                               rows: [LastListing.Row(row: "1", product: coupangProduct),
                                                      LastListing.Row(row: "2", product: Product(productId: "11st:1", title: "x", price: 1, source: .elevenst))])
        }
        return store
    }

    func testALikeKeepsWhatTheUserChose() throws {
        let store = try listing(savedAt: "2026-12-01T09:00:00Z")
        let changes = try LikeChanges.like([.row("1")], store: store, at: "2026-12-01T09:30:00Z")
        XCTAssertEqual(changes.first?.kind, .liked)
        let like = try XCTUnwrap(try store.read { try $0.likes.like("coupang:27664441") })
        XCTAssertEqual(like.product, Product(productId: "coupang:27664441", title: "탐사 소프트 3겹 롤화장지", price: 15600,
                                             link: "https://www.coupang.com/vp/products/27664441", image: "https://ads-partners.coupang.com/image1/a.jpg"))
        XCTAssertEqual(like.likedPrice, 15600)
    }

    func testTheListingsCoupangRowsAreUsedForAnHour() throws {
        let store = try listing(savedAt: "2026-12-01T08:00:00Z")
        XCTAssertThrowsError(try LikeChanges.like([.row("1")], store: store, at: "2026-12-01T09:30:00Z")) { error in
            XCTAssertTrue((error as? SelectionError)?.message.contains("over an hour ago") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try LikeChanges.like([.id("coupang:27664441")], store: store, at: "2026-12-01T09:30:00Z"))
        // Other sources' rows of the same listing are not Coupang's data.
        XCTAssertEqual(try LikeChanges.like([.row("2")], store: store, at: "2026-12-01T09:30:00Z").first?.kind, .liked)
        // Unliking needs none of Coupang's data.
        XCTAssertEqual(try LikeChanges.unlike([.row("2")], store: store).first?.kind, .unliked)
        XCTAssertEqual(CoupangSource.listingCutoff(likedAt: "2026-12-01T09:30:00Z"), "2026-12-01T08:30:00Z")
        XCTAssertNil(CoupangSource.listingCutoff(likedAt: "yesterday"))
    }
}
