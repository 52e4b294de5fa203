// Tests for Sources/ShopYBase/Text/Suggest.swift: the edit distance behind "did you mean", the
// closest of the candidates, and its bound on the words it compares.

import XCTest
@testable import ShopYBase

final class SuggestTests: XCTestCase {
    func testEditDistance() {
        XCTAssertEqual(Suggest.editDistance("", ""), 0)
        XCTAssertEqual(Suggest.editDistance("", "abc"), 3)
        XCTAssertEqual(Suggest.editDistance("abc", ""), 3)
        XCTAssertEqual(Suggest.editDistance("abc", "abc"), 0)
        XCTAssertEqual(Suggest.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggest.editDistance("ab", "ba"), 1, "a transposition costs one")
        XCTAssertEqual(Suggest.editDistance("serach", "search"), 1)
        XCTAssertEqual(Suggest.editDistance("--srot", "--sort"), 1)
        XCTAssertEqual(Suggest.editDistance("ca", "abc"), 3, "optimal string alignment, not unrestricted Damerau")
        XCTAssertEqual(Suggest.editDistance("방충망", "방충밍"), 1, "over Characters, not bytes")
        XCTAssertEqual(Suggest.editDistance("e\u{301}", "é"), 0, "canonically equal Characters")
        // Symmetric.
        for (a, b) in [("search", "sarch"), ("flaw", "lawn"), ("--size", "--sort"), ("abcdef", "badcfe")] {
            XCTAssertEqual(Suggest.editDistance(a, b), Suggest.editDistance(b, a), "\(a) / \(b)")
        }
    }

    func testClosest() {
        XCTAssertEqual(Suggest.closest(to: "serach", among: ["search", "help"]), "search")
        XCTAssertEqual(Suggest.closest(to: "SEARCH", among: ["search", "help"]), "search")
        XCTAssertEqual(Suggest.closest(to: "--srot", among: ["--sort", "--size", "--page"]), "--sort")
        XCTAssertEqual(Suggest.closest(to: "--siz", among: ["--sort", "--size", "--page"]), "--size")
        XCTAssertEqual(Suggest.closest(to: "hlep", among: ["search", "help"]), "help")
        XCTAssertNil(Suggest.closest(to: "xyz", among: ["search", "help"]))
        XCTAssertNil(Suggest.closest(to: "nosuch", among: ["search"]))
        XCTAssertNil(Suggest.closest(to: "price", among: ["sim", "date", "asc", "dsc"]))
        XCTAssertNil(Suggest.closest(to: "anything", among: []))
        // A short word allows only one edit.
        XCTAssertEqual(Suggest.closest(to: "sm", among: ["sim"]), "sim")
        XCTAssertNil(Suggest.closest(to: "xy", among: ["sim"]))
    }

    func testSuggestClosestIsBoundedItself() {
        let near = String(repeating: "a", count: 255) + "b"
        XCTAssertEqual(near.utf8.count, Suggest.maxWordBytes)
        XCTAssertEqual(Suggest.closest(to: near, among: [String(repeating: "a", count: 256)]), String(repeating: "a", count: 256),
                       "a word of the limit still gets its suggestion")
        let over = String(repeating: "a", count: 256) + "b"
        XCTAssertNil(Suggest.closest(to: over, among: [String(repeating: "a", count: 257), "a"]))
        XCTAssertNil(Suggest.closest(to: String(repeating: "방", count: 100_000), among: ["search", "likes"]))
        // Multi-byte text counts in bytes: 86 Hangul syllables are 258 bytes.
        XCTAssertNil(Suggest.closest(to: String(repeating: "방", count: 86), among: [String(repeating: "방", count: 85)]))
        // A candidate over the limit is never computed against.
        XCTAssertEqual(Suggest.closest(to: "serach", among: [String(repeating: "s", count: 100_000), "search"]), "search")
    }
}
