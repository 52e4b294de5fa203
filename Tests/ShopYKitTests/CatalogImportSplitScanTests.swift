import XCTest
@testable import ShopYCore

/// A large array's scan split in two (`CatalogImportParsing.SplitScan`): whatever the guessed
/// place holds, the same items, skips and errors as one scan. Every array here is split (the
/// size from which it is lowered to one byte).
final class CatalogImportSplitScanTests: XCTestCase {
    private var saved = 0

    override func setUp() {
        super.setUp()
        saved = CatalogImportParsing.splitScanAtLeast
        CatalogImportParsing.splitScanAtLeast = 1
    }

    override func tearDown() {
        CatalogImportParsing.splitScanAtLeast = saved
        super.tearDown()
    }

    /// One scan's answer against the string path's, as the fast path's own tests compare them.
    func assertSameParse(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        CatalogImportFastPathTests.assertSameParse(text, file: file, line: line)
    }

    func items(_ count: Int, title: (Int) -> String = { "item \($0)" }, separator: String = ",") -> [String] {
        (0..<count).map { #"{"productId":"\#(1000 + $0)","title":"\#(title($0))","lprice":"\#(100 + $0)","category1":"생활/건강"}"# }
            .enumerated().map { $0.element + ($0.offset + 1 < count ? separator : "") }
    }

    func testOrdinaryItemsParseAsOneScan() {
        for count in [1, 2, 3, 10, 501] {
            assertSameParse("[" + items(count).joined() + "]")
            assertSameParse("[\n  " + items(count, separator: ",\n  ").joined() + "\n]\n")
        }
        assertSameParse(CatalogImportFastPathTests.varied)
    }

    func testTheSecondHalfTakesEveryItemFromAnElementStart() throws {
        let text = "[" + items(400).joined() + "]"
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let from = try XCTUnwrap(CatalogImportParsing.SplitScan.guess(buffer))
            XCTAssertGreaterThanOrEqual(from, bytes.count / 2)
            XCTAssertEqual(bytes[from], UInt8(ascii: "{"))
            let split = try XCTUnwrap(CatalogImportParsing.SplitScan.start(buffer, capacity: 0))
            let later = try XCTUnwrap(split.join(), "every element after the guess is an ordinary item")
            XCTAssertEqual(later.end, bytes.count, "it ends past the closing bracket")
            let before = text.utf8.prefix(from).filter { $0 == UInt8(ascii: "{") }.count
            XCTAssertEqual(later.items.count, 400 - before)
            XCTAssertNotNil(split.join(), "a second join returns at once")
        }
    }

    func testAGuessInsideAStringIsNotTaken() {
        // Titles holding what looks like an element boundary, and whole fake items, around the middle.
        let fake = #"a},{\"productId\":\"9\",\"title\":\"fake\"},{\"productId\":\"10"#
        assertSameParse("[" + items(200, title: { $0 % 7 == 3 ? fake : "t\($0)" }).joined() + "]")
        assertSameParse("[" + items(200, title: { _ in "x},{y" }).joined() + "]")
        assertSameParse("[" + items(200, title: { _ in "x} , {\\\"title\\\":1}" }).joined() + "]")
    }

    func testAnUnusualElementInTheSecondHalfLeavesItToTheFirst() {
        var all = items(300)
        all[250] = #"{"product\u0049d":"12","title":"escaped key: the slow path"},"#
        all[260] = #"{"productId":"77","title":"a boolean","lprice":true},"#
        all[270] = #"{"productId":"","title":"no id"},"#
        assertSameParse("[" + all.joined() + "]")
    }

    func testDamageInEitherHalfFailsAsOneScanFails() {
        var all = items(300)
        for (at, damage) in [(30, #"{"productId":"1","title":"x"}"#), (270, #"{"productId":"1","title":"x"}"#), (270, #"{"productId":"1","title":"x" "#), (299, #"{"productId":"1","title":"x"}}"#)] {
            let saved = all[at]
            all[at] = damage + (at < 299 ? "," : "")
            assertSameParse("[" + all.joined() + "]")
            all[at] = saved
        }
        assertSameParse("[" + items(300).joined() + "] trailing")
        assertSameParse("[" + items(300).joined())
        assertSameParse("[" + items(300).joined() + ",]")
    }
}
