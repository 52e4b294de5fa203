// Browse's `/` prompt keeps the end of a long query in view: the text is cut once, by width,
// from the end that is kept (`DisplayWidth.suffix`), whatever its length.

import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class PromptLineTests: XCTestCase {
    /// The old way, one Character at a time from the front: right, but quadratic.
    func reference(_ text: String, _ width: Int) -> String {
        var shown = text
        while DisplayWidth.of(shown) > width { shown.removeFirst() }
        return shown
    }

    func testTheSuffixIsTheLongestThatFits() {
        XCTAssertEqual(DisplayWidth.suffix("abcdef", toWidth: 3), "def")
        XCTAssertEqual(DisplayWidth.suffix("abc", toWidth: 10), "abc")
        XCTAssertEqual(DisplayWidth.suffix("abc", toWidth: 0), "")
        XCTAssertEqual(DisplayWidth.suffix("", toWidth: 5), "")
        // A wide Character that does not fit whole is left out.
        XCTAssertEqual(DisplayWidth.suffix("가나다", toWidth: 5), "나다")
        XCTAssertEqual(DisplayWidth.suffix("가나다", toWidth: 1), "")
        // Clusters stay whole: combining marks, flags, ZWJ sequences.
        XCTAssertEqual(DisplayWidth.suffix("ae\u{301}e\u{301}", toWidth: 1), "e\u{301}")
        XCTAssertEqual(DisplayWidth.suffix("🇰🇷🇯🇵", toWidth: 3), "🇯🇵")
        XCTAssertEqual(DisplayWidth.suffix("x👨‍👩‍👧", toWidth: 2), "👨‍👩‍👧")
    }

    func testTheSuffixAgreesWithCuttingFromTheFront() {
        var generator = SeededGenerator(seed: 9)
        let pieces = ["a", "가", "é", "e\u{301}", "🇰🇷", "👨‍👩‍👧", " ", "\u{0600}x", "ｗ", "😀", "\u{200B}"]
        for round in 0..<500 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let width = Int.random(in: 0...30, using: &generator)
            XCTAssertEqual(String(DisplayWidth.suffix(text, toWidth: width)), reference(text, width), "round \(round): '\(text)' at \(width)")
        }
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
