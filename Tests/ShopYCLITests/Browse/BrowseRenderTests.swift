import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// The view: frames at 40, 80 and 132 columns with Hangul, emoji and combining marks.
final class BrowseRenderTests: XCTestCase {
    static let titles = ["자석 방충망 미세먼지 창문 모기장 대형 사이즈 맞춤 제작", "👨‍👩‍👧 가족 🇰🇷 태극기 세트 ❤️", "Cafe\u{301} ame\u{301}lioré e\u{301}dition", "\u{1B}[31mred\u{07} 고양이\u{202E}txt"]

    func state(columns: Int, rows: Int = 24) -> BrowseState {
        var s = BrowseState(source: .catalog, tab: .search, query: "방충망", sort: .asc)
        s.rows = rows
        s.columns = columns
        s.search.total = 1234
        s.search.loadedThrough = 40
        s.search.items = (1...40).map { n in
            RankedProduct(rank: n, product: Product(productId: String(80_000_000 + n), title: Self.titles[n % 4], price: 12_300 * n,
                                                    mall: n % 2 == 0 ? "네이버 스마트스토어" : "mall\u{1B}]0;x", link: "https://example.com/\(n)"))
        }
        s.liked["80000002"] = "2026-12-01T00:00:00Z"
        s.search.cursor = ListCursor(selection: 25, scroll: 20)
        return s
    }

    /// Every line is exactly `columns` wide, every wide cell is followed by its continuation and
    /// nothing else, and no control character reaches a cell.
    func assertWellFormed(_ frame: Frame, file: StaticString = #filePath, line: UInt = #line) {
        for (r, cells) in frame.lines.enumerated() {
            XCTAssertEqual(cells.count, frame.columns, "row \(r)", file: file, line: line)
            var width = 0
            for (c, cell) in cells.enumerated() {
                if cell.isContinuation {
                    XCTAssertTrue(c > 0 && DisplayWidth.of(cells[c - 1].character) == 2, "orphan continuation at \(r),\(c)", file: file, line: line)
                    continue
                }
                let w = DisplayWidth.of(cell.character)
                XCTAssertTrue(w == 1 || w == 2, "cell \(r),\(c) has width \(w)", file: file, line: line)
                if w == 2 { XCTAssertTrue(c + 1 < cells.count && cells[c + 1].isContinuation, "broken wide cell at \(r),\(c)", file: file, line: line) }
                XCTAssertFalse(cell.character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value == 0x202E },
                               "control in cell \(r),\(c)", file: file, line: line)
                width += w
            }
            XCTAssertEqual(width, frame.columns, "row \(r): \(frame.text(r))", file: file, line: line)
        }
    }

    func testSearchAtThreeWidths() {
        for columns in [40, 80, 132] {
            let frame = BrowseRender.render(state(columns: columns), rows: 24, columns: columns)
            assertWellFormed(frame)
            let text = frame.plainText
            XCTAssertTrue(text[0].hasPrefix("ShopY "), text[0])
            XCTAssertEqual(text[1], "Search: 방충망")
            XCTAssertTrue(text[2].hasPrefix("  21 "), "rows numbered by absolute rank: \(text[2])")
            XCTAssertEqual(text[23], "21–40 of 1,234 · sort asc · catalog")
            // The selected row (rank 26) is drawn in reverse video.
            XCTAssertTrue(frame.lines[7].allSatisfy { $0.style.reverse }, "\(columns): \(text[7])")
            XCTAssertTrue(text[7].hasPrefix("  26 "))
            XCTAssertFalse(text.joined().contains("\u{1B}"))
            if columns >= 80 { XCTAssertTrue(text.contains { $0.contains("네이버 스마") }, "the mall column at \(columns)") }
        }
    }

    func testLikedRowsShowAHeartAndEveryGlyphSurvives() {
        var s = state(columns: 132)
        s.search.cursor = ListCursor(selection: 0, scroll: 0)
        let text = BrowseRender.render(s, rows: 24, columns: 132).plainText
        XCTAssertTrue(text[3].hasPrefix("   2 ♥ "), text[3])
        XCTAssertTrue(text[3].contains("Cafe\u{301} ame\u{301}lioré"), text[3])
        XCTAssertTrue(text[2].contains("👨‍👩‍👧 가족 🇰🇷 태극기 세트 ❤️"), text[2])
        XCTAssertTrue(text[2].contains("mall\u{FFFD}]0;x"), text[2])
        XCTAssertTrue(text[4].contains("\u{FFFD}[31mred\u{FFFD} 고양이txt"), "sanitized: \(text[4])")
    }

    func testStatusLineCountsTheVisibleRows() {
        var s = state(columns: 80)
        s.search.cursor = ListCursor(selection: 0, scroll: 0)
        XCTAssertEqual(BrowseRender.render(s, rows: 24, columns: 80).plainText[23], "1–21 of 1,234 · sort asc · catalog")
        s.search.loading = 0
        s.search.cursor = ListCursor(selection: 39, scroll: 20)
        let frame = BrowseRender.render(s, rows: 24, columns: 80)
        XCTAssertEqual(frame.plainText[22], "  loading…")
    }

    func testPromptShowsTheCursorAfterTheText() {
        var s = state(columns: 40)
        s.prompt = "고양이 모래"
        let frame = BrowseRender.render(s, rows: 24, columns: 40)
        XCTAssertEqual(frame.plainText[1], "/ 고양이 모래")
        XCTAssertEqual(frame.cursor?.row, 1)
        XCTAssertEqual(frame.cursor?.column, 2 + DisplayWidth.of("고양이 모래"))
        XCTAssertNil(BrowseRender.render(state(columns: 40), rows: 24, columns: 40).cursor, "no cursor outside the prompt")
    }

    func testTooSmall() {
        let frame = BrowseRender.render(state(columns: 39), rows: 24, columns: 39)
        XCTAssertTrue(frame.plainText[0].hasPrefix("terminal too small: 39×24"), frame.plainText[0])
        XCTAssertTrue(BrowseRender.render(state(columns: 80), rows: 9, columns: 80).plainText.joined(separator: " ").contains("at least 40×10"))
        assertWellFormed(BrowseRender.render(state(columns: 40), rows: 10, columns: 40))
    }

    func testOfflineBannerErrorsAndHelp() {
        var s = state(columns: 80)
        s.network = .offline(reason: "no interface with a default route")
        s.message = StatusMessage("the request timed out after 10 seconds", isError: true)
        var frame = BrowseRender.render(s, rows: 24, columns: 80)
        assertWellFormed(frame)
        XCTAssertTrue(frame.plainText[1].hasPrefix(" offline — no interface with a default route · the offline catalog"), frame.plainText[1])
        XCTAssertEqual(frame.plainText[23], "the request timed out after 10 seconds")
        XCTAssertEqual(frame.lines[23][0].style.color, CellStyle.red)
        s.showHelp = true
        frame = BrowseRender.render(s, rows: 24, columns: 40)
        assertWellFormed(frame)
        let text = frame.plainText.joined(separator: "\n")
        for (key, _) in BrowseHelp.keys { XCTAssertTrue(text.contains(key), key) }
    }

    func testDetailShowsTheWholeItem() {
        var s = state(columns: 40)
        let product = Product(productId: "80000002", title: "자석 방충망 미세먼지 창문 모기장 대형 사이즈 맞춤 제작 👨‍👩‍👧", price: 12_300, highPrice: 20_000,
                              mall: "네이버", brand: "브랜드", maker: "제조사", categories: ["생활/건강", "생활용품", "방충망"], productType: 5,
                              link: "https://search.shopping.naver.com/catalog/80000002?with=a-very-long-query-string-that-wraps", image: "https://img/x.jpg")
        s.detail = DetailState(product: product, rank: 2)
        let frame = BrowseRender.render(s, rows: 24, columns: 40)
        assertWellFormed(frame)
        let text = frame.plainText.joined(separator: "\n")
        for part in ["12,300원 (high 20,000원)", "생활/건강 › 생활용품 › 방충망", "5 — used, unmatched item", "80000002", "브랜드", "제조사",
                     "https://img/x.jpg", "yes, since", "link      https://search.shopping.naver", ".com/catalog/80000002?with=a-"] {
            XCTAssertTrue(text.contains(part), part + "\n" + text)
        }
        XCTAssertTrue(frame.plainText[2].hasPrefix("자석 방충망"), "the title wraps: \(frame.plainText[2])")
    }

    func testHomeLikesAndHistory() {
        var s = BrowseState(source: .catalog)
        s.home.sections = [HomeSection(keyword: "고양이", content: .loaded(total: 42, items: [Product(productId: "1", title: "고양이 모래 🐱")])),
                           HomeSection(keyword: "세제", content: .failed("the request timed out after 10 seconds")),
                           HomeSection(keyword: "방충망", content: .loading)]
        var text = BrowseRender.render(s, rows: 24, columns: 80).plainText
        XCTAssertEqual(Array(text[2...8]), ["1. 고양이  ·  42 results", "  1.1              -  –             고양이 모래 🐱", "", "2. 세제",
                                           "  the request timed out after 10 seconds", "", "3. 방충망"])
        s.tab = .history
        s.history.entries = [HistoryEntry(query: "세제\u{1B}[2J", at: "bad")]
        s.history.loaded = true
        text = BrowseRender.render(s, rows: 24, columns: 80).plainText
        XCTAssertEqual(text[2], " 1  bad  세제\u{FFFD}[2J")
        s.tab = .likes
        s.likes.loaded = true
        XCTAssertEqual(BrowseRender.render(s, rows: 24, columns: 80).plainText[2], "  no likes yet: l on any row likes it")
    }

    func testOverlapBreaksWideCharactersCleanly() {
        var frame = Frame(rows: 1, columns: 6)
        frame.put("가나다", row: 0, column: 0)
        frame.put("x", row: 0, column: 1)
        XCTAssertEqual(frame.text(0), " x나다")
        frame.put("라", row: 0, column: 5)
        XCTAssertEqual(frame.text(0), " x나  ", "writing over half of 다 blanks it; 라 does not fit in the last column")
        XCTAssertFalse(frame.lines[0][5].isContinuation)
    }

    /// The prompt line shows the end of a long paste, and the cursor after it.
    func testThePromptShowsTheEndOfALongPaste() {
        var s = BrowseState(source: .catalog, tab: .search, query: nil, sort: .sim, size: 20)
        s.rows = 24
        s.columns = 80
        s.prompt = String(repeating: "방충망 ", count: 2_000) + "끝"
        let frame = BrowseRender.render(s, rows: 24, columns: 80)
        let line = frame.lines.map { $0.map { $0.isContinuation ? "" : String($0.character) }.joined() }.first { $0.hasPrefix("/ ") }
        let text = try? XCTUnwrap(line)
        XCTAssertTrue(text?.trimmingCharacters(in: .whitespaces).hasSuffix("방충망 끝") == true, text ?? "no prompt line")
        XCTAssertEqual(frame.cursor?.column, DisplayWidth.of(text?.trimmingCharacters(in: .whitespaces) ?? ""))
    }
}
