import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// Namespaced ids: `11st:…` and `coupang:…` beside Naver's bare digits, in the rule and the store.
final class ProductIDNamespaceTests: StoreDirectoryTestCase {
    func testTheRule() {
        XCTAssertEqual(ProductID.usable(" 11st:6543210987 "), "11st:6543210987")
        XCTAssertEqual(ProductID.usable("coupang:27664441"), "coupang:27664441")
        XCTAssertEqual(ProductID.usable("81813683218"), "81813683218")
        for bad in ["11st:", "11st:12a", "coupang:-1", "naver:123", "catalog:1", "11st:" + String(repeating: "1", count: 33), "11ST:1", "coupang:१२"] {
            XCTAssertNil(ProductID.usable(bad), bad)
        }
        XCTAssertNil(ProductID.digits("11st:123"), "what a source sends is bare digits")
        XCTAssertEqual(ProductID.namespace(of: "11st:1"), .elevenst)
        XCTAssertEqual(ProductID.namespace(of: "coupang:1"), .coupang)
        XCTAssertNil(ProductID.namespace(of: "123"))
        XCTAssertEqual(ProductID.namespaced("9", in: .elevenst), "11st:9")
        XCTAssertEqual(ProductID.namespaced("9", in: .naver), "9")
        XCTAssertEqual(ProductID.bare("coupang:9"), "9")
    }

    func testNamespacedLikesRoundTripThroughTheStore() throws {
        let store = SettingsStore(directory: directory)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for id in ["11st:6543210987", "coupang:27664441", "81813683218"] { _ = likes.add(like(id)) }
            settings.likes = likes
        }
        let ids = try store.read { try $0.allLikes().map(\.product.productId) }
        XCTAssertEqual(Set(ids), ["11st:6543210987", "coupang:27664441", "81813683218"])
        try store.update([.likes]) { settings in
            var likes = settings.likes
            XCTAssertTrue(likes.remove("coupang:27664441"))
            settings.likes = likes
        }
        XCTAssertEqual(Set(try store.read { try $0.allLikes().map(\.product.productId) }), ["11st:6543210987", "81813683218"])
        // And back from the file, as a fresh process reads it.
        XCTAssertEqual(Set(try SettingsStore(directory: directory).read { try $0.allLikes().map(\.product.productId) }), ["11st:6543210987", "81813683218"])
    }
}
