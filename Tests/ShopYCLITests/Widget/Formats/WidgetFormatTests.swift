import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Every widget format parses as its protocol wants, small and medium, with hostile titles.
final class WidgetFormatTests: XCTestCase {
    static let hostile = "<b>Bad</b> & title\nsecond | bash=/bin/rm %{F#ff0000}red%{F-} #[fg=red]#(rm -rf ~)#{host} ---x \u{1B}[31m\u{202E}end %"

    func state(_ items: [WidgetItem]) -> WidgetState {
        WidgetState(entry: WidgetEntry(date: Date(timeIntervalSince1970: 1_800_000_000), items: items),
                    selection: WidgetSelection(shown: [], isDefault: false, overflow: [], missing: []), policy: .atEnd, timeline: nil, due: nil)
    }

    var hostileItems: [WidgetItem] {
        let product = Product(productId: "1", title: Self.hostile, price: 1000, highPrice: nil, mall: nil, brand: nil, maker: nil,
                              categories: [], productType: nil, link: "https://example.com/a|b\"c", image: nil)
        return [
            WidgetItem(optionID: "status", kind: .status, short: "● online", line: "● online", tone: .good),
            WidgetItems.popular("---" + Self.hostile, [product, product]),
            WidgetItems.history(Self.hostile, product),
            WidgetItem(optionID: "x", kind: .status, short: Self.hostile, line: Self.hostile, link: "javascript:alert(1)", tone: .bad),
        ]
    }

    func render(_ format: WidgetFormat, _ family: WidgetFamily, color: Bool = true) -> String {
        format.encoder.encode(WidgetRendering(state: state(hostileItems), family: family, color: color, name: "default"))
    }

    func lines(_ text: String) -> [String] {
        XCTAssertTrue(text.hasSuffix("\n"))
        return text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func testNoControlsInAnyFormat() {
        for format in WidgetFormat.allCases {
            for family in WidgetFamily.allCases {
                let out = render(format, family)
                XCTAssertFalse(out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x0D }, "\(format) \(family)")
            }
        }
    }

    func testWaybarIsOneJSONObjectPerLineWithTheFiveKeys() throws {
        for family in WidgetFamily.allCases {
            let out = lines(render(.waybar, family))
            XCTAssertEqual(out.count, 1, "\(family)")
            let object = try XCTUnwrap(JSONParser.parse(out[0]).objectValue)
            XCTAssertEqual(Set(object.keys), ["text", "tooltip", "class", "alt", "percentage"])
            let text = try XCTUnwrap(object["text"]?.stringValue)
            XCTAssertFalse(text.contains("\n"))
            XCTAssertFalse(text.contains("<b>"), "Pango markup from the network is escaped")
            let tooltip = try XCTUnwrap(object["tooltip"]?.stringValue)
            XCTAssertEqual(tooltip.split(separator: "\n").count, 4, "one tooltip line an item")
            XCTAssertFalse(tooltip.contains("<b>"))
            XCTAssertNotNil(object["percentage"]?.intValue)
        }
    }

    func testI3blocksIsThreeLines() {
        for family in WidgetFamily.allCases {
            let out = lines(render(.i3blocks, family))
            XCTAssertEqual(out.count, 3, "full_text, short_text, color")
            XCTAssertTrue(out[2].isEmpty || out[2].range(of: "^#[0-9a-f]{6}$", options: .regularExpression) != nil, out[2])
        }
    }

    func testPolybarHasOnlyItsOwnColourTags() {
        for family in WidgetFamily.allCases {
            let plain = lines(render(.polybar, family, color: false))
            XCTAssertEqual(plain.count, 1)
            XCTAssertFalse(plain[0].contains("%{"))
            let colored = lines(render(.polybar, family, color: true))
            XCTAssertEqual(colored.count, 1)
            XCTAssertTrue(colored[0].contains("%{F#a6e3a1}"))
            let stripped = colored[0].replacingOccurrences(of: "%\\{F(#[0-9a-f]{6}|-)\\}", with: "", options: .regularExpression)
            XCTAssertFalse(stripped.contains("%{"), stripped)
        }
    }

    func testTmuxHasOnlyItsOwnStyles() {
        for family in WidgetFamily.allCases {
            let out = lines(render(.tmux, family))
            XCTAssertEqual(out.count, 1)
            XCTAssertTrue(out[0].contains("#[fg=#a6e3a1]"))
            let stripped = out[0].replacingOccurrences(of: "#\\[(fg=#[0-9a-f]{6}|default)\\]", with: "", options: .regularExpression)
            // What is left from the network has every # doubled: no #[, #( or #{ tmux would read.
            XCTAssertFalse(stripped.replacingOccurrences(of: "##", with: "").contains("#"), stripped)
        }
    }

    /// A stale entry says a refresh is due, not that one runs: with SHOPY_WIDGET_BACKGROUND=off
    /// nothing does.
    func testSwiftBarSaysARefreshIsDueNotRunning() {
        var stale = state(hostileItems)
        stale.entry.stale = true
        let out = SwiftBarWidgetEncoder.encode(WidgetRendering(state: stale, family: .small, color: false, name: "default"))
        XCTAssertTrue(out.contains("Updated 2027-01-15T08:00:00Z (a refresh is due) | disabled=true"), out)
        XCTAssertFalse(out.contains("refreshing"), out)
    }

    func testSwiftBarStructure() {
        for family in WidgetFamily.allCases {
            let out = lines(render(.swiftbar, family))
            XCTAssertEqual(out[1], "---", "the bar line, then ---")
            XCTAssertEqual(out.filter { $0 == "---" }.count, 2)
            XCTAssertEqual(out.last, "Refresh | refresh=true")
            for line in out where line != "---" {
                XCTAssertEqual(line.filter { $0 == "|" }.count, 1, "one parameter separator: \(line)")
                XCTAssertFalse(line.hasPrefix("--"), "no injected submenu or separator: \(line)")
                XCTAssertFalse(line.split(separator: "|").last!.contains("bash="), "network text never reaches the parameters: \(line)")
            }
            let hrefs = out.filter { $0.contains("href=") }
            XCTAssertEqual(hrefs.count, 2, "only the http(s) links: \(out)")
            XCTAssertTrue(hrefs.allSatisfy { $0.contains("href=https://example.com/a%7Cb%22c") })
        }
    }

    func testPlainSmallIsOneLineAndMediumOneAnItem() {
        XCTAssertEqual(lines(render(.plain, .small)).count, 1)
        XCTAssertEqual(lines(render(.plain, .medium)).count, 4)
    }

    func testJSONKeepsTheErrorClassOfADamagedStore() throws {
        let failure = WidgetState(entry: .failure(.damaged(path: "/x/preferences.json", problem: "bad"), at: Date()),
                                  selection: WidgetSelection(shown: [], isDefault: true, overflow: [], missing: []), policy: .atEnd, timeline: nil, due: nil)
        let json = JSONWidgetEncoder.encode(WidgetRendering(state: failure, family: .small, color: false, name: "default"))
        let object = try XCTUnwrap(JSONParser.parse(json).objectValue)
        XCTAssertEqual(object["error"]?["class"]?.stringValue, "store-damaged")
        XCTAssertEqual(PlainWidgetEncoder.encode(WidgetRendering(state: failure, family: .small, color: false, name: "default")),
                       "shopy: store damaged — run shopy doctor\n")
    }
}
