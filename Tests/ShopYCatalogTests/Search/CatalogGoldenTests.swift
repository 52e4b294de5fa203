import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// Search parity: the embedded catalog answers these requests exactly as it did before the
/// inverted index (the golden file was written by the scan-and-`range(of:)` search at 76c78eb).
/// Regenerate only on purpose: SHOPY_WRITE_GOLDEN=1 swift test --filter CatalogGoldenTests
final class CatalogGoldenTests: XCTestCase {
    static let goldenURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/catalog-search-golden.txt")

    static let queries = [
        "방충망", "모기장", "방충망 자석", "자석 방충망", "고양이", "강아지 쿠션", "애견", "아이패드", "apple", "APPLE",
        "Apple 아이패드", "wifi전용", "128gb,", "노트북", "lg", "LG그램", "그램 ai", "현관", "현관문 cctv", "창문 롤",
        "미세먼지 롤", "세제", "세탁세제", "섬유유연제", "p&g", "&", "다우니", "생활", "생활/건강", "반려동물", "태블릿pc",
        "모기", "고", "망", "1개", "90x210", "cm", "x", "에어팟", "운동화", "shoes", "코스트코 대용량", "차량용 방향제",
        "텐트 원터치", "  방충망   창문  ", "살림백서", "물먹는하마", "homeplus", "렌탈", "해외직구", "구매대행", "중고",
        "스크래쳐 고양이 숨숨집", "아이패드 11세대 wifi전용 128gb,", "프로", "s", "m",
    ]

    static func requests() -> [SearchRequest] {
        var out: [SearchRequest] = []
        for query in queries {
            for sort in SortOrder.allCases { out.append(SearchRequest(query: query, sort: sort, start: 1, display: 100)) }
            out.append(SearchRequest(query: query, sort: .sim, start: 3, display: 5))
            out.append(SearchRequest(query: query, sort: .asc, start: 2, display: 3, naverPayOnly: true))
            out.append(SearchRequest(query: query, sort: .date, start: 1, display: 10, exclude: [.used, .rental, .cbshop]))
            out.append(SearchRequest(query: query, sort: .dsc, start: 1, display: 10, exclude: [.cbshop]))
        }
        return out
    }

    /// One line per request: the request, total/start/display, then each item's id and bolded title.
    static func describe(_ request: SearchRequest, _ response: WireSearchResponse) -> String {
        let excl = request.exclude.sorted().map(\.rawValue).joined(separator: ":")
        var line = "\(request.query)|\(request.sort.rawValue)|\(request.start)|\(request.display)|\(request.naverPayOnly ? "np" : "")|\(excl)"
        line += " => \(response.total) \(response.start) \(response.display)"
        for item in response.items { line += "\t\(item.productId)=\(item.title)" }
        return line
    }

    static func transcript(_ catalog: Catalog) -> String {
        requests().map { describe($0, catalog.search($0)) }.joined(separator: "\n") + "\n"
    }

    func testEmbeddedSearchMatchesGolden() throws {
        let now = CatalogGoldenTests.transcript(.embedded)
        if ProcessInfo.processInfo.environment["SHOPY_WRITE_GOLDEN"] == "1" {
            try now.write(to: CatalogGoldenTests.goldenURL, atomically: true, encoding: .utf8)
            throw XCTSkip("wrote \(CatalogGoldenTests.goldenURL.path)")
        }
        let golden = try String(contentsOf: CatalogGoldenTests.goldenURL, encoding: .utf8)
        let a = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let b = now.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) where x != y { XCTFail("golden: \(x)\n   now: \(y)"); break }
        // The golden file holds matches, not only empty answers.
        XCTAssertGreaterThan(a.filter { !$0.hasSuffix("=> 0 1 0") }.count, 200)
    }
}
