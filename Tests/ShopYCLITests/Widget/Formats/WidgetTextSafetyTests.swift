import XCTest
@testable import ShopYCLI

/// Bars read bytes, not Swift Characters: markup followed by a combining mark (one grapheme to
/// Swift, still `%{`, `#[`, `<`, `&` or `|` to the bar) must be made inert too.
final class WidgetTextSafetyTests: XCTestCase {
    let mark = "\u{301}"   // COMBINING ACUTE ACCENT: joins the scalar before it into one Character
    let selector = "\u{FE0F}"

    func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

    func testPolybarBreaksATagWhoseBraceCarriesACombiningMark() {
        for tail in [mark, selector] {
            let out = WidgetTextSafety.polybar("x %{\(tail)A1:rm -rf ~:}y%{\(tail)F#f00}")
            XCTAssertFalse(out.utf8.elementsEqual("%{".utf8) || Array(out.utf8).windows2.contains([0x25, 0x7B]), out)
        }
        XCTAssertEqual(WidgetTextSafety.polybar("50%"), "50% ")
        XCTAssertEqual(WidgetTextSafety.polybar("a%{F-}"), "a% {F-}")
    }

    func testTmuxDoublesEveryHashScalar() {
        let out = WidgetTextSafety.tmux("a#\(mark)[fg=red]#\(mark)(rm -rf ~)#{host}")
        XCTAssertEqual(out.unicodeScalars.filter { $0 == "#" }.count, 6, out)
        XCTAssertEqual(WidgetTextSafety.tmux("#"), "##")
    }

    func testPangoEscapesMarkupCarryingACombiningMark() {
        let out = WidgetTextSafety.pango("<\(mark)span foreground='red'>&\(mark)amp;\"\(mark)")
        XCTAssertFalse(out.unicodeScalars.contains("<"), out)
        XCTAssertFalse(out.unicodeScalars.contains(">"), out)
        XCTAssertFalse(out.unicodeScalars.contains("\""), out)
        XCTAssertFalse(out.unicodeScalars.contains("'"), out)
        let scalars = Array(out.unicodeScalars)
        for (i, s) in scalars.enumerated() where s == "&" {
            let rest = String(String.UnicodeScalarView(scalars[i...].prefix(6)))
            XCTAssertTrue(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains { rest.unicodeScalars.starts(with: $0.unicodeScalars) }, out)
        }
        XCTAssertTrue(out.hasPrefix("&lt;\(mark)"), out)
    }

    func testSwiftBarReplacesEveryBarAndLeadingDashScalar() {
        let out = WidgetTextSafety.swiftbar("-\(mark)-- a |\(mark) bash=/bin/rm")
        XCTAssertFalse(out.unicodeScalars.contains("|"), out)
        XCTAssertNotEqual(out.unicodeScalars.first, "-")
        XCTAssertFalse(out.unicodeScalars.dropFirst().starts(with: ["-"]), out)
        let link = WidgetTextSafety.parameterLink("https://example.com/a|\(mark)b")
        XCTAssertFalse(link?.unicodeScalars.contains("|") ?? false, link ?? "")
    }
}

private extension Array where Element == UInt8 {
    /// Adjacent pairs of bytes.
    var windows2: [[UInt8]] { count < 2 ? [] : (0..<(count - 1)).map { [self[$0], self[$0 + 1]] } }
}
