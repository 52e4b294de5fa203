// Tests for Catalog.bold (Sources/ShopYCatalog/Search): the catalog marks the query's words in
// its titles as the API does, entities and the cleaned title respected.

import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

final class CatalogBoldTests: XCTestCase {
    func testBold() {
        XCTAssertEqual(Catalog.bold("방충망 미세먼지 롤", terms: ["방충망"]), "<b>방충망</b> 미세먼지 롤")
        XCTAssertEqual(Catalog.bold("Nike NIKE nike", terms: ["nike"]), "<b>Nike</b> <b>NIKE</b> <b>nike</b>")
        XCTAssertEqual(Catalog.bold("방충망 자석 방충망", terms: ["방충망", "자석"]), "<b>방충망</b> <b>자석</b> <b>방충망</b>")
        XCTAssertEqual(Catalog.bold("abc", terms: ["x"]), "abc")
        XCTAssertEqual(Catalog.bold("abc", terms: []), "abc")
        XCTAssertEqual(Catalog.bold("", terms: ["a"]), "")
        XCTAssertEqual(Catalog.bold("ab", terms: ["abc"]), "ab")
        // Overlapping and adjacent matches merge into one tag.
        XCTAssertEqual(Catalog.bold("자석방충망", terms: ["자석", "석방"]), "<b>자석방</b>충망")
        XCTAssertEqual(Catalog.bold("자석방충망", terms: ["자석", "방충망"]), "<b>자석방충망</b>")
    }

    func testBoldRespectsEntities() {
        // A term never cuts into an entity.
        XCTAssertEqual(Catalog.bold("P&amp;G 다우니", terms: ["amp"]), "P&amp;G 다우니")
        XCTAssertEqual(Catalog.bold("P&amp;G 다우니", terms: ["p"]), "<b>P</b>&amp;G 다우니")
        XCTAssertEqual(Catalog.bold("P&amp;G 다우니", terms: ["g"]), "P&amp;<b>G</b> 다우니")
        XCTAssertEqual(Catalog.bold("a &lt;b&gt; c", terms: ["lt", "gt"]), "a &lt;b&gt; c")
        XCTAssertEqual(Catalog.bold("Tom&#39;s", terms: ["39"]), "Tom&#39;s")
        // The typed form of an escaped character matches its entity whole.
        XCTAssertEqual(Catalog.bold("P&amp;G 다우니", terms: ["p&g"]), "<b>P&amp;G</b> 다우니")
        XCTAssertEqual(Catalog.bold("P&amp;G", terms: ["&"]), "P<b>&amp;</b>G")
        XCTAssertEqual(Catalog.bold("a &lt;b&gt; c", terms: ["<b>"]), "a <b>&lt;b&gt;</b> c")
        // A bare & that is no entity is still text.
        XCTAssertEqual(Catalog.bold("AT&T amp", terms: ["amp"]), "AT&T <b>amp</b>")
    }

    /// Property: bolding any terms never changes what the title says once cleaned, and every
    /// tag it adds is balanced.
    func testBoldKeepsTheCleanedTitle() {
        let terms = [["a"], ["p"], ["g"], ["&"], ["amp"], ["p&g"], ["방"], ["1"], ["l"], ["방충망", "자석"], ["x", "l", "c"], [";"], ["#"], ["<"]]
        for item in Catalog.embedded.items {
            let clean = TitleCleaner.clean(item.title)
            for set in terms {
                let bolded = Catalog.bold(item.title, terms: set)
                XCTAssertEqual(TitleCleaner.clean(bolded), clean, "\(item.title) \(set) -> \(bolded)")
                XCTAssertEqual(bolded.components(separatedBy: "<b>").count, bolded.components(separatedBy: "</b>").count, bolded)
            }
        }
    }

    func testCatalogSearchBoldsTitles() {
        let response = Catalog.embedded.search(SearchRequest(query: "방충망", display: 100))
        XCTAssertEqual(response.total, 21)
        XCTAssertEqual(response.items.count, 21)
        XCTAssertEqual(response.display, 21)
        for item in response.items where TitleCleaner.clean(item.title).contains("방충망") {
            XCTAssertTrue(item.title.contains("<b>방충망</b>"), item.title)
        }
        let page = Catalog.embedded.search(SearchRequest(query: "방충망", start: 21, display: 5))
        XCTAssertEqual(page.start, 21)
        XCTAssertEqual(page.display, 1)
        XCTAssertEqual(page.total, 21)
        XCTAssertEqual(Catalog.embedded.search(SearchRequest(query: "   ")).total, 0)
    }
}
