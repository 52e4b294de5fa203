// The end of a text that fits a width (`DisplayWidth.suffix`), cut once, by width, from the end
// that is kept, whatever its length: what keeps the end of a long query in view in browse's `/`
// prompt (ShopYCLITests/Browse/BrowseRenderTests).

import XCTest
@testable import ShopYBase
import ShopYTestSupport

final class DisplayWidthSuffixTests: XCTestCase {
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

}
