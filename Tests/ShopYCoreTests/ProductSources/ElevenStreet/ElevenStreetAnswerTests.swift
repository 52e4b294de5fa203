import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// 11번가's answers, golden: the fixtures are shaped as the service answers (EUC-KR XML, CDATA,
/// empty optional fields, entities) and map to exactly these products.
final class ElevenStreetAnswerTests: XCTestCase {
    func search(_ fixture: String) throws -> ElevenStreetAnswer.Search {
        try ElevenStreetAnswer.search(LiveFixtures.bytes("elevenst/" + fixture))
    }

    func error(_ body: () throws -> Void) -> SourceError? {
        do {
            try body()
            return nil
        } catch let error as SourceError {
            return error
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testSearchMapsToProducts() throws {
        let answer = try search("search-airpods.xml")
        XCTAssertEqual(answer.totalCount, 1843)
        XCTAssertEqual(answer.products.count, 3)
        XCTAssertEqual(answer.products[1].salePrice, "", "an empty optional field is empty, not absent")
        XCTAssertEqual(answer.products[1].sellerNick, "")
        let products = answer.products.compactMap(ElevenStreetSource.product)
        XCTAssertEqual(products, [
            Product(productId: "11st:6543210987", title: "애플 에어팟 프로 2세대 USB-C 정품 & 케이스 무료배송", price: 289000, mall: "애플공식인증점",
                    link: "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=6543210987",
                    image: "http://cdn.011st.com/11dims/resize/300x300/11src/pd/v2/1/2/3/4/5/6/abcde/6543210987_L300.jpg", source: .elevenst),
            // SalePrice empty: ProductPrice; SellerNick empty: Seller; ProductImage300 empty: ProductImage.
            Product(productId: "11st:5012345678", title: "[호환] 에어팟 실리콘 케이스 (3세대용)", price: 12900, mall: "caseking",
                    link: "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=5012345678",
                    image: "http://cdn.011st.com/11dims/resize/200x200/11src/pd/v2/9/8/7/5012345678_B.jpg", source: .elevenst),
            // Numeric and predefined references outside CDATA; SalePrice 0: ProductPrice.
            Product(productId: "11st:4123456789", title: "에어팟 이어팁 <3쌍> \"S/M/L\" 교체용", price: 8000, mall: "소리나라",
                    link: "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=4123456789",
                    image: "http://cdn.011st.com/11dims/resize/300x300/11src/pd/v2/4/1/2/4123456789_L300.jpg", source: .elevenst),
        ])
        XCTAssertEqual(try search("search-empty.xml"), ElevenStreetAnswer.Search(totalCount: 0, products: []))
    }

    func testProductInfo() throws {
        let info = try XCTUnwrap(try ElevenStreetAnswer.info(LiveFixtures.bytes("elevenst/info-airpods.xml")))
        XCTAssertEqual(info.code, "6543210987")
        XCTAssertEqual(info.price, "359000")
        XCTAssertEqual(info.lowestPrice, "279000")
        XCTAssertEqual(info.name, "애플 에어팟 프로 2세대 USB-C 정품")
        let noLowest = try XCTUnwrap(try ElevenStreetAnswer.info(LiveFixtures.bytes("elevenst/info-no-lowest.xml")))
        XCTAssertEqual(noLowest.lowestPrice, "")
        XCTAssertEqual(ElevenStreetAnswer.price(noLowest.lowestPrice) ?? ElevenStreetAnswer.price(noLowest.price), 12900)
        XCTAssertNil(try ElevenStreetAnswer.info(LiveFixtures.bytes("elevenst/info-gone.xml")), "no <Product>: 11번가 has none by that code")
    }

    func testErrorsInside200() throws {
        XCTAssertEqual(error { _ = try search("error-003.xml") }, .elevenStreetKeyRefused(code: "003", message: "등록되지 않은 KEY 입니다."))
        XCTAssertEqual(error { _ = try search("error-200.xml") }, .elevenStreetError(code: "200", message: "일시적인 오류가 발생했습니다."))
        // The other shape public clients read.
        let other = Array("<ProductSearchResponse><ErrorCode>003</ErrorCode><ErrorMessage>KEY error</ErrorMessage></ProductSearchResponse>".utf8)
        XCTAssertEqual(error { _ = try ElevenStreetAnswer.search(other) }, .elevenStreetKeyRefused(code: "003", message: "KEY error"))
    }

    func testHostileDocumentsAreBadData() throws {
        for fixture in ["hostile-billion-laughs.xml", "hostile-utf8-declared-euckr.xml", "hostile-cp949-extension.xml", "hostile-unknown-entity.xml"] {
            guard case .badResponse(let detail)? = error({ _ = try search(fixture) }) else { return XCTFail("\(fixture) should be bad data") }
            XCTAssertFalse(detail.isEmpty)
        }
        let json = Array(#"{"rCode":"0"}"#.utf8)
        guard case .badResponse(let detail)? = error({ _ = try ElevenStreetAnswer.search(json) }) else { return XCTFail("JSON is not the answer") }
        XCTAssertTrue(detail.contains("not XML"), detail)
        XCTAssertNotNil(error { _ = try ElevenStreetAnswer.search(Array(#"<?xml version="1.0" encoding="Shift_JIS"?><a/>"#.utf8)) })
        XCTAssertNotNil(error { _ = try ElevenStreetAnswer.search(Array("<ProductInfoResponse/>".utf8)) }, "another answer's root")
        let negative = Array("<ProductSearchResponse><Products><TotalCount>-3</TotalCount></Products></ProductSearchResponse>".utf8)
        guard case .impossibleAnswer? = error({ _ = try ElevenStreetAnswer.search(negative) }) else { return XCTFail("a negative count") }
    }

    /// An answer over the cap (a page of 200 products is about 150 KB) is refused before it is
    /// decoded or parsed, and the message names the cap, not a position.
    func testAnAnswerOverTheCapNamesTheCap() throws {
        XCTAssertEqual(ElevenStreetAnswer.maxAnswerBytes, 8 << 20)
        let head = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ProductSearchResponse><Products><TotalCount>1</TotalCount>".utf8)
        let tail = Array("</Products></ProductSearchResponse>".utf8)
        let padding = ElevenStreetAnswer.maxAnswerBytes - head.count - tail.count
        let atTheCap = head + [UInt8](repeating: 0x20, count: padding) + tail
        XCTAssertEqual(try ElevenStreetAnswer.search(atTheCap).totalCount, 1, "an answer of exactly 8 MiB is read")
        let over = head + [UInt8](repeating: 0x20, count: padding + 1) + tail
        XCTAssertEqual(error { _ = try ElevenStreetAnswer.search(over) },
                       .badResponse("the answer is 8,388,609 bytes, more than an 11번가 answer ever is (at most 8 MiB)"))
        // EUC-KR grows when decoded (a Hangul syllable: 2 bytes, then 3): the cap is on the text read.
        let eucHead = Array("<?xml version=\"1.0\" encoding=\"EUC-KR\"?><ProductSearchResponse><Products><TotalCount>1</TotalCount><X>".utf8)
        let eucTail = Array("</X></Products></ProductSearchResponse>".utf8)
        let syllables = (ElevenStreetAnswer.maxAnswerBytes - eucHead.count - eucTail.count) / 3 + 1
        let grows = eucHead + Array(repeating: [0xB0, 0xA1], count: syllables).flatMap { $0 } + eucTail  // 가
        XCTAssertLessThan(grows.count, ElevenStreetAnswer.maxAnswerBytes)
        guard case .badResponse(let detail)? = error({ _ = try ElevenStreetAnswer.search(grows) }) else { return XCTFail("over the cap once decoded") }
        XCTAssertTrue(detail.hasSuffix("bytes once decoded from EUC-KR, more than an 11번가 answer ever is (at most 8 MiB)"), detail)
        XCTAssertFalse(detail.contains("at byte"), detail)
    }

    func testHostileFieldsAreBoundedAndCleaned() throws {
        let answer = try search("hostile-fields.xml")
        let products = answer.products.compactMap(ElevenStreetSource.product)
        XCTAssertEqual(products.map(\.productId), ["11st:7001", "11st:7002"], "ids that are not digits are left out")
        XCTAssertNil(products[0].price, "-500 and abc are no prices")
        XCTAssertNil(products[1].price, "an overflowing price and 1,000 are no prices")
        for product in products {
            for text in [product.title, product.mall ?? ""] {
                XCTAssertEqual(Sanitizer.clean(text), Sanitizer.clean(Sanitizer.clean(text)))
                XCTAssertFalse(Sanitizer.clean(text).contains("\u{1B}"), text)
            }
        }
        XCTAssertEqual(products[1].link, "javascript:alert(1)", "kept as sent; open and copy refuse anything but http(s)")
    }
}
