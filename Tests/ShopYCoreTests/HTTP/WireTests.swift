// Tests for Sources/ShopYCore/Model (Wire.swift, Product.swift) against recorded-style bodies of
// the Naver Shopping search API in Fixtures/contract/, and for how NaverClient maps the
// contract's error answers (through a stub transport, no network).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport

/// Fixture bodies of the contract (Fixtures/contract/*.json).
enum ContractFixture {
    static let directory = Repository.root()
        .appendingPathComponent("Fixtures/contract")

    static func bytes(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail("missing fixture \(url.path)", file: file, line: line)
            return []
        }
        return [UInt8](data)
    }
}

/// Answers each request with the next canned response; records what was asked.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var responses: [Result<HTTPResponse, TransportError>]
    private(set) var requests: [HTTPRequest] = []

    init(_ responses: [Result<HTTPResponse, TransportError>]) {
        self.responses = responses
    }

    convenience init(status: Int, body: [UInt8], headers: [String: String] = [:]) {
        self.init([.success(HTTPResponse(status: status, headers: headers, body: body))])
    }

    var requestCount: Int { lock.lock(); defer { lock.unlock() }; return requests.count }

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        let next: Result<HTTPResponse, TransportError> = {
            lock.lock()
            defer { lock.unlock() }
            requests.append(request)
            return responses.count > 1 ? responses.removeFirst() : responses[0]
        }()
        return try next.get()
    }
}

final class WireTests: XCTestCase {

    func response(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> WireSearchResponse {
        do {
            return try WireSearchResponse(body: ContractFixture.bytes(name, file: file, line: line))
        } catch {
            XCTFail("\(name) does not decode: \(error)", file: file, line: line)
            throw error
        }
    }

    func decodingError(_ body: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> WireDecodingError? {
        do throws(WireDecodingError) {
            let decoded = try WireSearchResponse(body: body)
            XCTFail("should not decode: \(decoded)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func decodingError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> WireDecodingError? {
        decodingError(Array(text.utf8), file: file, line: line)
    }

    // MARK: - 200 bodies

    func testCurrentResponse() throws {
        let wire = try response("search-current.json")
        XCTAssertEqual(wire.lastBuildDate, "Tue, 27 Apr 2021 07:31:39 +0900")
        XCTAssertEqual(wire.total, 5_061_752)
        XCTAssertEqual(wire.start, 1)
        XCTAssertEqual(wire.display, 3)
        XCTAssertEqual(wire.items.count, 3)
        let first = wire.items[0]
        XCTAssertEqual(first.productId, "81813683218")
        XCTAssertEqual(first.title, "남성 오버핏 기모 <b>후드티</b> 빅사이즈")
        XCTAssertEqual(first.lprice, "19800")
        XCTAssertEqual(first.hprice, "")
        XCTAssertEqual(first.productType, "2")
        XCTAssertEqual(first.brand, "")
        XCTAssertEqual(first.category4, "")
        XCTAssertEqual(first.mallName, "서번트")

        let page = ProductMapper.page(from: wire, query: "후드티", sort: .sim, source: .naver)
        XCTAssertEqual(page.query, "후드티")
        XCTAssertEqual(page.sort, .sim)
        XCTAssertEqual(page.source, .naver)
        XCTAssertEqual(page.total, 5_061_752)
        XCTAssertEqual(page.start, 1)
        XCTAssertEqual(page.display, 3)
        XCTAssertEqual(page.items[0], Product(
            productId: "81813683218", title: "남성 오버핏 기모 후드티 빅사이즈", price: 19800, highPrice: nil, mall: "서번트",
            brand: nil, maker: nil, categories: ["패션의류", "남성의류", "티셔츠"], productType: 2,
            link: "https://search.shopping.naver.com/gate.nhn?id=81813683218",
            image: "https://shopping-phinf.pstatic.net/main_8181368/81813683218.20.jpg"))
        XCTAssertEqual(page.items[1], Product(
            productId: "27364551122", title: "나이키 클럽 플리스 후드티 BV2654-010", price: 45900, highPrice: 89000, mall: "네이버",
            brand: "나이키", maker: "나이키코리아", categories: ["패션의류", "남성의류", "티셔츠", "후드티"], productType: 1,
            link: "https://search.shopping.naver.com/catalog/27364551122",
            image: "https://shopping-phinf.pstatic.net/main_2736455/27364551122.20210401.jpg"))
        // The same productId twice in one result set is kept, as the API sends it.
        XCTAssertEqual(page.items.count, 3)
        XCTAssertEqual(page.items[2], page.items[0])
        XCTAssertEqual((0..<3).map(page.rank(of:)), [1, 2, 3])
    }

    func testPre2019ResponseWithoutBrandMakerCategories() throws {
        let wire = try response("search-pre2019.json")
        XCTAssertEqual(wire.total, 1532)
        XCTAssertEqual(wire.start, 11)
        XCTAssertEqual(wire.display, 2)
        XCTAssertEqual(wire.items.count, 2)
        for item in wire.items {
            XCTAssertNil(item.brand)
            XCTAssertNil(item.maker)
            XCTAssertNil(item.category1)
            XCTAssertNil(item.category2)
            XCTAssertNil(item.category3)
            XCTAssertNil(item.category4)
            XCTAssertEqual(item.categories, [])
        }
        XCTAssertEqual(wire.items[0].link, "http://shopping.naver.com/gate.nhn?id=10428375921")

        let page = ProductMapper.page(from: wire, query: "자석 방충망", sort: .date, source: .naver)
        XCTAssertEqual(page.sort, .date)
        XCTAssertEqual(page.items[0], Product(
            productId: "10428375921", title: "자석 방충망 현관용", price: 12900, highPrice: nil, mall: "모기싹",
            brand: nil, maker: nil, categories: [], productType: 2,
            link: "http://shopping.naver.com/gate.nhn?id=10428375921",
            image: "http://shopping.phinf.naver.net/main_1042837/10428375921.jpg"))
        XCTAssertEqual(page.items[1].title, "창문 방충망 보수 테이프")
        XCTAssertEqual(page.items[1].price, 3500)
        XCTAssertEqual(page.items[1].highPrice, 4200)
        XCTAssertEqual(page.items[1].mall, "네이버")
        XCTAssertNil(page.items[1].image, "an empty image is absent")
        XCTAssertEqual(page.items[1].productId, "9876543210")
        XCTAssertEqual(page.rank(of: 0), 11)
        XCTAssertEqual(page.rank(of: 1), 12)
    }

    func testZeroAndEmptyPricesAndEmptyStrings() throws {
        let wire = try response("search-zero-prices.json")
        XCTAssertEqual(wire.items[0].lprice, "0")
        XCTAssertEqual(wire.items[0].hprice, "0")
        let page = ProductMapper.page(from: wire, query: "예약", sort: .asc, source: .naver)
        let first = page.items[0]
        XCTAssertNil(first.price, "lprice \"0\" means unknown")
        XCTAssertNil(first.highPrice, "hprice \"0\" means unknown")
        XCTAssertEqual(first.productType, 11)
        XCTAssertEqual(first.categories, ["디지털/가전"])
        XCTAssertNil(first.brand)
        XCTAssertNil(first.maker)
        XCTAssertEqual(first.title, "가격 미정 예약 상품")

        let second = page.items[1]
        XCTAssertEqual(second.productId, "30000000002")
        XCTAssertEqual(second.title, "공백 많은 예약 상품")
        XCTAssertNil(second.price, "lprice \"\" means unknown")
        XCTAssertNil(second.highPrice, "hprice \"\" means unknown")
        XCTAssertNil(second.mall)
        XCTAssertNil(second.brand, "a blank brand is absent")
        XCTAssertNil(second.maker)
        XCTAssertNil(second.link, "a blank link is absent")
        XCTAssertNil(second.image)
        XCTAssertNil(second.productType, "productType \"\" is unknown")
        XCTAssertEqual(second.categories, ["생활/건강", "욕실용품"], "categories without empties, in order")
    }

    func testNumbersInsteadOfStrings() throws {
        let wire = try response("search-numbers.json")
        XCTAssertEqual(wire.total, 5_061_752, "total sent as a string")
        XCTAssertEqual(wire.start, 1)
        XCTAssertEqual(wire.display, 2)
        XCTAssertEqual(wire.items[0].lprice, "19800")
        XCTAssertEqual(wire.items[0].productId, "81813683218")
        XCTAssertEqual(wire.items[0].productType, "2")
        XCTAssertEqual(wire.items[1].productId, "123456789012345678901234567890", "a long id is kept digit for digit")
        XCTAssertNil(wire.items[1].link, "null is absent")

        let page = ProductMapper.page(from: wire, query: "후드티", sort: .sim, source: .naver)
        XCTAssertEqual(page.items[0].price, 19800)
        XCTAssertEqual(page.items[0].highPrice, 25000)
        XCTAssertEqual(page.items[0].productType, 2)
        XCTAssertEqual(page.items[0].productId, "81813683218")
        XCTAssertEqual(page.items[0].title, "숫자로 온 후드티")
        XCTAssertEqual(page.items[1].productId, "123456789012345678901234567890")
        XCTAssertEqual(page.items[1].price, 7000)
        XCTAssertNil(page.items[1].highPrice)
        XCTAssertNil(page.items[1].productType)
        XCTAssertNil(page.items[1].link)
        XCTAssertNil(page.items[1].image)
        XCTAssertEqual(page.items[1].categories, [])
        XCTAssertEqual(page.items[1].mall, "네이버")
    }

    func testEscapedLinksAndEntitiesInTitles() throws {
        let wire = try response("search-escaped.json")
        let item = wire.items[0]
        XCTAssertEqual(item.link, "https://smartstore.naver.com/main/products/4886291452", "\\/ decodes to /")
        XCTAssertEqual(item.title, "P&amp;G 다우니 <b>섬유유연제</b> &quot;대용량&quot; 5.03L &lt;1+1&gt; Tom&#39;s")
        let product = ProductMapper.product(from: item)
        XCTAssertEqual(product.title, "P&G 다우니 섬유유연제 \"대용량\" 5.03L <1+1> Tom's")
        XCTAssertEqual(product.link, "https://smartstore.naver.com/main/products/4886291452")
        XCTAssertEqual(product.image, "https://shopping-phinf.pstatic.net/main_8277/82770551290.jpg")
        XCTAssertEqual(product.mall, "P&G 공식몰")
        XCTAssertEqual(product.maker, "P&G")
        XCTAssertEqual(product.brand, "다우니")
        XCTAssertEqual(product.categories, ["생활/건강", "세탁세제", "섬유유연제", "고농축 섬유유연제"])
        XCTAssertEqual(product.price, 21900)
        XCTAssertNil(product.highPrice)
    }

    func testPriceMapping() {
        let cases: [(String?, Int?)] = [("19800", 19800), (" 19800 ", 19800), ("0", nil), ("", nil), (nil, nil), ("-5", nil),
                                        ("abc", nil), ("12.5", nil), ("00042", 42)]
        for (text, expected) in cases {
            XCTAssertEqual(ProductMapper.price(text), expected, "price(\(String(describing: text)))")
        }
    }

    func testWireRoundTripThroughJSON() throws {
        let wire = try response("search-current.json")
        let again = try WireSearchResponse(body: JSONWriter.serialize(wire.json))
        XCTAssertEqual(again, wire)
        let old = try response("search-pre2019.json")
        // Written back, absent fields become "" as the API writes them today; the product is the same.
        let reread = try WireSearchResponse(body: JSONWriter.serialize(old.json))
        XCTAssertEqual(reread.items.map(ProductMapper.product(from:)), old.items.map(ProductMapper.product(from:)))
    }

    // MARK: - Error bodies

    func testErrorBodies() {
        let cases: [(String, String, String)] = [
            ("error-401-024.json", "024", "Not Exist Client ID : Authentication failed. (존재하지 않는 클라이언트 아이디입니다.)"),
            ("error-404-SE05.json", "SE05", "Invalid search api (존재하지 않는 검색 api 입니다.)"),
            ("error-429-010.json", "010", "{count/quota=10039/10000} : Query limit exceeded."),
            ("error-429-012.json", "012", "Rate limit exceeded."),
            ("error-500-SE99.json", "SE99", "System Error"),
        ]
        for (name, code, message) in cases {
            let body = WireErrorBody(body: ContractFixture.bytes(name))
            XCTAssertEqual(body, WireErrorBody(errorMessage: message, errorCode: code), name)
            // An error body is not a search response.
            XCTAssertNotNil(decodingError(ContractFixture.bytes(name)), name)
        }
        XCTAssertNil(WireErrorBody(body: ContractFixture.bytes("search-current.json")), "a 200 body is no error body")
        XCTAssertNil(WireErrorBody(body: Array("<html>Bad Gateway</html>".utf8)))
        XCTAssertNil(WireErrorBody(body: []))
        XCTAssertNil(WireErrorBody(body: Array("[]".utf8)))
        XCTAssertEqual(WireErrorBody(body: Array(#"{"errorCode":"SE01"}"#.utf8)), WireErrorBody(errorMessage: "", errorCode: "SE01"))
    }

}
