// A likes listing whose likes come from 11번가 and Coupang (`11st:…`, `coupang:…`) is a
// listing like any other: its rows are saved, so `unlike 1` and `open 1` act on the first like
// printed, not on row 1 of an earlier search.

@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class NamespacedLikesListingTests: StoreDirectoryTestCase {
    func testLikedRowsTakeNamespacedIDs() throws {
        let rows = try XCTUnwrap(LikedRows(["coupang:27664441", "11st:6543210987", "80285861246"]))
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows.id(atRow: 1), "coupang:27664441")
        XCTAssertEqual(rows.row(of: "11st:6543210987"), 2)
        XCTAssertNotNil(LikedRows(joined: "11st:1,coupang:2,3"))
        for bad in ["11st:", "coupang:", "11st:1a", "naver:1", "11st:1:2", "11st:" + String(repeating: "9", count: 33), "coupang:1,", ":1"] {
            XCTAssertNil(LikedRows(joined: bad), bad)
        }
    }

    func testALikesListingOfNamespacedLikesBecomesTheLastListing() async throws {
        let store = SettingsStore(directory: directory)
        let liked = [Product(productId: "coupang:27664441", title: "롤화장지", price: 15600, link: "https://www.coupang.com/vp/products/27664441"),
                     Product(productId: "11st:6543210987", title: "방충망", price: 9900, link: "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=6543210987")]
        _ = try LikeChanges.like(products: liked, store: store, at: "2026-12-01T09:00:00Z")
        // An earlier listing whose row 1 is another product.
        ListingMemory(store: store, diagnostics: CollectedDiagnostics(), now: "2026-12-01T09:01:00Z")
            .remember("search 텐트", rows: [LastListing.Row(row: "1", product: Product(productId: "11111111", title: "텐트", price: 1))], query: nil)

        let environment = ["SHOPY_HOME": directory, "NO_COLOR": "1"]
        let likes = await Shell.run(["likes", "--format", "tsv"], environment: environment)
        XCTAssertEqual(likes.code, 0, likes.stderr)
        let printed = likes.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
        XCTAssertEqual(Set(printed), Set(liked.map(\.productId)))
        let listing = try XCTUnwrap(try store.read { $0.lastListing })
        XCTAssertEqual(listing.likedIDs?.id(atRow: 1), printed[0], "the likes listing is the last listing")

        let unlike = await Shell.run(["unlike", "1"], environment: environment)
        XCTAssertEqual(unlike.code, 0, unlike.stderr)
        XCTAssertTrue(unlike.stderr.contains("unliked: \(printed[0])"), unlike.stderr)
        XCTAssertEqual(try store.read { $0.likes.ids }, [printed[1]])
    }
}
