// Tests for Sources/ShopYCatalog/CatalogSummary.swift with a large local catalog: the help
// after "no results" does not decode it (a million items took 6 s); it says how many it holds
// and where their categories are listed.

import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class NoResultsLargeCatalogTests: XCTestCase {
    func items(_ count: Int, category: String) -> [WireItem] {
        (0..<count).map { WireItem(title: "상품 \($0)", link: "", image: "", lprice: "1000", hprice: "", mallName: "몰",
                                   productId: String(70_000_000_000 + $0), productType: "2", category1: category, category2: category) }
    }

    func testALargeLocalCatalogIsCountedNotDecoded() {
        let size = NoResultsHelp.categoriesCountedUpTo + 1
        let catalog = Catalog(parts: [Catalog.embedded.parts[0], CatalogPart(items: items(size, category: "대용량"))])
        let line = NoResultsHelp.lines(for: catalog)[0]
        XCTAssertTrue(line.hasPrefix("the offline catalog holds \(Money.grouped(340 + size)) items (340 recorded in 2025, the others in the local catalog): 생활용품 153"), line)
        XCTAssertTrue(line.hasSuffix(" · and \(Money.grouped(size)) more in the local catalog (`shopy catalog` lists their categories)"), line)
        XCTAssertFalse(line.contains("대용량"), "the large part's categories are not read")
    }

    func testASmallLocalCatalogIsBrokenDownByCategory() {
        let catalog = Catalog(parts: [Catalog.embedded.parts[0], CatalogPart(items: items(200, category: "소량"))])
        let line = NoResultsHelp.lines(for: catalog)[0]
        XCTAssertTrue(line.hasPrefix("the offline catalog holds 540 items (340 recorded in 2025, the others in the local catalog): 소량 200 · 생활용품 153"), line)
        XCTAssertFalse(line.contains("more in the local catalog"))
    }

    func testTheEmbeddedCatalogAloneIsAsBefore() {
        XCTAssertTrue(NoResultsHelp.lines(for: .embedded)[0].hasPrefix("the offline catalog holds 340 items recorded in 2025: 생활용품 153 · 반려동물 100"))
    }
}
