import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// Coupang Partners' answers, golden: shaped as the partners guide's example (product 27664441)
/// and recorded answers; the tracking link never reaches a product.
final class CoupangAnswerTests: XCTestCase {
    func items(_ fixture: String) throws -> [CoupangAnswer.Item] {
        try CoupangAnswer.items(LiveFixtures.bytes("coupang/" + fixture))
    }

    func testSearchMapsToProductsWithThePlainLink() throws {
        let products = try items("search-tissue.json").compactMap(CoupangSource.product)
        XCTAssertEqual(products, [
            Product(productId: "coupang:27664441", title: "탐사 소프트 3겹 롤화장지, 30m, 30개입, 1팩", price: 15600,
                    link: "https://www.coupang.com/vp/products/27664441", image: "https://ads-partners.coupang.com/image1/rX9Xh5c0WtW7cQx0a1.jpg",
                    source: .coupang, rocket: true, freeShipping: true),
            Product(productId: "coupang:6012345678", title: "깨끗한나라 순수 3겹 데코 & 엠보싱 화장지 27m x 30롤", price: 18900,
                    link: "https://www.coupang.com/vp/products/6012345678", image: "https://ads-partners.coupang.com/image1/Yk0pL2q9.jpg",
                    source: .coupang, rocket: false, freeShipping: true),
            Product(productId: "coupang:7123456789", title: "무형광 천연펄프 두루마리 휴지 30롤", price: 9900,
                    link: "https://www.coupang.com/vp/products/7123456789", source: .coupang, rocket: true, freeShipping: false),
        ])
        for product in products {
            XCTAssertNil(product.mall)
            XCTAssertFalse("\(product)".contains("link.coupang.com"), "the tracking link is never kept")
        }
        XCTAssertEqual(try items("search-limit-over-10.json"), [])
        // What the cache keeps: the same items, no tracking link.
        for fixture in ["search-tissue.json", "bestcategories-1016.json"] {
            let body = try LiveFixtures.bytes("coupang/" + fixture)
            let kept = try XCTUnwrap(CoupangAnswer.withoutTrackingLinks(body))
            XCTAssertFalse(String(decoding: kept, as: UTF8.self).contains("link.coupang.com"))
            XCTAssertEqual(try CoupangAnswer.items(kept), try CoupangAnswer.items(body))
        }
    }

    func testRankings() throws {
        let best = try items("bestcategories-1016.json").compactMap(CoupangSource.product)
        XCTAssertEqual(best.map(\.productId), ["coupang:8123456701", "coupang:8123456702"])
        XCTAssertEqual(best[0].categories, ["가전디지털"])
        XCTAssertEqual(best[1].price, 1899000)
        let deals = try items("goldbox.json").compactMap(CoupangSource.product)
        XCTAssertEqual(deals.first?.title, "[오늘의 딜] 곰곰 무농약 신선 대추방울토마토, 1kg")
    }

    func testErrors() throws {
        XCTAssertThrowsError(try items("error-business-400.json")) { error in
            XCTAssertEqual(error as? SourceError, .coupangRefused(code: "400", message: "url convert failed"))
        }
        XCTAssertEqual(CoupangAnswer.gatewayMessage(try LiveFixtures.bytes("coupang/error-401-expired.json")), "Specified signature is expired.")
        XCTAssertEqual(SourceError.coupangAuthentication(status: 401, message: "Specified signature is expired.").hint?.contains("clock"), true)
        XCTAssertThrowsError(try CoupangAnswer.items(Array("<html>502</html>".utf8)))
        XCTAssertThrowsError(try CoupangAnswer.items(Array(#"{"rCode":"0","data":"x"}"#.utf8)))
        XCTAssertThrowsError(try CoupangAnswer.items(Array(#"{"data":[]}"#.utf8)), "no rCode")
        XCTAssertThrowsError(try CoupangAnswer.items(Array(String(repeating: "[", count: 10_000).utf8)), "nesting is bounded")
    }

    func testHostileFields() throws {
        let products = try items("hostile-fields.json").compactMap(CoupangSource.product)
        XCTAssertEqual(products.map(\.productId), ["coupang:123", "coupang:124", "coupang:125"], "ids that are not digits are left out")
        XCTAssertEqual(products.map(\.price), [nil, nil, nil], "negative, text and decimal prices are unknown")
        XCTAssertNil(products[0].rocket, "\"yes\" is no boolean")
        for product in products {
            XCTAssertFalse(Sanitizer.clean(product.title).contains("\u{1B}"))
            XCTAssertFalse(Sanitizer.clean(product.title).contains("\u{202E}"))
            XCTAssertTrue(product.link?.hasPrefix("https://www.coupang.com/vp/products/") ?? false)
        }
    }
}
