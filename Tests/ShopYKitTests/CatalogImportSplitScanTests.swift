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

    /// Whether the byte path took the array's second half from the split scan.
    func splitTaken(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            return try CatalogImportParsing.parseRaw(Array(text.utf8), name: "f.json", store: CatalogByteStore()).splitTaken
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return false
        }
    }

    /// Where the second half would start, as an offset in the text's UTF-8.
    func guess(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { CatalogImportParsing.SplitScan.guess($0) }
    }

    func items(_ count: Int, title: (Int) -> String = { "item \($0)" }, separator: String = ",") -> [String] {
        (0..<count).map { #"{"productId":"\#(1000 + $0)","title":"\#(title($0))","lprice":"\#(100 + $0)","category1":"생활/건강"}"# }
            .enumerated().map { $0.element + ($0.offset + 1 < count ? separator : "") }
    }

    func testOrdinaryItemsParseAsOneScan() {
        for count in [2, 3, 10, 501] {
            for text in ["[" + items(count).joined() + "]", "[\n  " + items(count, separator: ",\n  ").joined() + "\n]\n", "\u{FEFF}[" + items(count).joined() + "]"] {
                assertSameParse(text)
                // Two items: the middle may fall past the only boundary.
                if count > 2 { XCTAssertTrue(splitTaken(text), "\(count) items: the second half is taken") }
            }
        }
        assertSameParse("[" + items(1).joined() + "]")
        XCTAssertFalse(splitTaken("[" + items(1).joined() + "]"), "one item: no element starts past the middle")
        assertSameParse(CatalogImportFastPathTests.varied)
        CatalogImportParsing.splitScanAtLeast = 1 << 30
        XCTAssertFalse(splitTaken("[" + items(501).joined() + "]"), "below the size, one scan")
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
        // Titles holding what looks like an element boundary, or whole fake items, everywhere:
        // the guess lands inside a title (the byte before it is the boundary's own comma or space).
        let fake = #"a},{\"productId\":\"9\",\"title\":\"fake\"},{\"productId\":\"10"#
        var insideTitles = 0
        for title in [fake, "x},{y", "x} , {\\\"title\\\":1}"] {
            for count in 200..<212 {
                let text = "[" + items(count, title: { _ in title }).joined() + "]"
                guard let at = guess(text) else { XCTFail("no guess"); continue }
                // At an item the brace opens `{"productId"`; inside a title it is followed by `y` or `\`.
                let atAnItem = Array(text.utf8)[at + 1] == UInt8(ascii: "\"")
                if !atAnItem { insideTitles += 1 }
                assertSameParse(text)
                XCTAssertEqual(splitTaken(text), atAnItem, "\(title), \(count) items")
            }
        }
        XCTAssertGreaterThan(insideTitles, 5, "some guesses land inside a title")
        // Item-like objects nested in an item: the second half parses them and stops at the
        // nested array's end, which is no element start of the first half's.
        let nested = "[" + (0..<200).map { #"{"productId":"\#(1000 + $0)","title":"n","x":[{"productId":"9"},{"productId":"8"}]}"# }.joined(separator: ",") + "]"
        assertSameParse(nested)
        XCTAssertFalse(splitTaken(nested))
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
        for (at, damage) in [(30, #"{"productId":"1","title":"x" "#), (150, #"{"productId":"1","title""#), (270, #"{"productId":"1","title":"x" "#), (299, #"{"productId":"1","title":"x"}}"#)] {
            let saved = all[at]
            all[at] = damage + (at < 299 ? "," : "")
            assertSameParse("[" + all.joined() + "]")
            all[at] = saved
        }
        assertSameParse("[" + items(300).joined() + "] trailing")
        assertSameParse("[" + items(300).joined())
        assertSameParse("[" + items(300).joined() + ",]")
        // Bytes that are not UTF-8 in the second half: the file fails as one scan fails it.
        var bytes = Array(("[" + items(300).joined() + "]").utf8)
        bytes[bytes.count * 3 / 4] = 0xFF
        let raw = Result { () throws(CatalogImportError) in try CatalogImportParsing.parseRaw(bytes, name: "f.json", store: CatalogByteStore()) }
        let one = Result { () throws(CatalogImportError) in try CatalogImportParsing.parse(bytes, name: "f.json") }
        switch (raw, one) {
        case (.failure(let a), .failure(let b)): XCTAssertEqual(a.description, b.description)
        default: XCTFail("not UTF-8: both paths fail the file")
        }
    }
}
