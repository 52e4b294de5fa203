import XCTest
@testable import ShopYCore

/// The bounded XML reader: what it reads, and the hostile documents it refuses.
final class XMLReaderTests: XCTestCase {
    func parse(_ text: String, limits: XMLLimits = XMLLimits()) throws -> XMLReader.Element {
        try XMLReader.parse(Array(text.utf8), limits: limits)
    }

    func failure(_ text: String, limits: XMLLimits = XMLLimits()) -> XMLError? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch let error as XMLError {
            return error
        } catch {
            return XMLError(offset: -1, reason: "\(error)")
        }
    }

    func testElementsTextCDATAAndReferences() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment before the root -->
            <a x="1" y='&amp;'><b>one &lt;two&gt; &amp; &quot;three&quot; &apos;four&apos; &#xAC00;&#44032;</b><c><![CDATA[<b>bold</b> &amp; raw]]></c><d/><?pi here?><!-- in --><e>  </e></a>
            """)
        XCTAssertEqual(root.name, "a")
        XCTAssertEqual(root.children.map(\.name), ["b", "c", "d", "e"])
        XCTAssertEqual(root.child("b")?.text, "one <two> & \"three\" 'four' 가가")
        XCTAssertEqual(root.child("c")?.text, "<b>bold</b> &amp; raw", "CDATA is taken as it is")
        XCTAssertEqual(root.child("d")?.text, "")
        XCTAssertEqual(root.children(named: "e").count, 1)
        XCTAssertEqual(XMLReader.declaredEncoding(Array(#"<?xml version="1.0" encoding="EUC-KR"?><a/>"#.utf8)[...]), "EUC-KR")
        XCTAssertEqual(XMLReader.declaredEncoding(Array("<?xml version='1.0' encoding = 'euc-kr' ?><a/>".utf8)[...]), "euc-kr")
        XCTAssertNil(XMLReader.declaredEncoding(Array("<a/>".utf8)[...]))
    }

    func testControlCharactersAreKeptForTheSanitizer() throws {
        let root = try parse("<a>\u{1B}[31mred&#27;&#x9B;</a>")
        XCTAssertEqual(root.text, "\u{1B}[31mred\u{1B}\u{9B}")
    }

    /// Where `literal` first starts in `bytes`.
    static func offset(of literal: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(literal.utf8)
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func testDTDsAreRefusedFastWhateverTheyDeclare() throws {
        let bytes = try LiveFixtures.bytes("elevenst/hostile-billion-laughs.xml")
        let doctype = try XCTUnwrap(XMLReaderTests.offset(of: "<!DOCTYPE", in: bytes))
        XCTAssertThrowsError(try XMLReader.parse(bytes)) { error in
            XCTAssertTrue("\(error)".contains("declares a DTD"), "\(error)")
            // At its first byte: nothing of the DTD is read, so nothing is expanded.
            XCTAssertEqual((error as? XMLError)?.offset, doctype, "refused at once, nothing expanded")
        }
        XCTAssertNotNil(failure("<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a>&xxe;</a>"))
        XCTAssertNotNil(failure("<a><!DOCTYPE a></a>"))
    }

    func testUnknownAndBrokenReferences() {
        XCTAssertTrue(failure("<a>&nbsp;</a>")?.reason.contains("entity '&nbsp;'") ?? false)
        XCTAssertNotNil(failure("<a>&#0;</a>"), "NUL")
        XCTAssertNotNil(failure("<a>&#xD800;</a>"), "a surrogate")
        XCTAssertNotNil(failure("<a>&#x110000;</a>"), "past U+10FFFF")
        XCTAssertNotNil(failure("<a>&#12345678901;</a>"))
        XCTAssertNotNil(failure("<a>&#xZZ;</a>"))
        XCTAssertNotNil(failure("<a>AT&T</a>"), "a bare ampersand")
        XCTAssertNotNil(failure("<a>\u{0}</a>"), "a raw NUL")
    }

    func testStructureErrors() {
        XCTAssertNotNil(failure(""))
        XCTAssertNotNil(failure("not xml"))
        XCTAssertNotNil(failure("<a><b></a></b>"))
        XCTAssertNotNil(failure("<a>"))
        XCTAssertNotNil(failure("<a></a><b></b>"), "two roots")
        XCTAssertNotNil(failure("<a></a>trailing"))
        XCTAssertNotNil(failure("<a><![CDATA[never ends</a>"))
        XCTAssertNotNil(failure("<a><!-- never ends</a>"))
        XCTAssertNotNil(failure("<a x=1></a>"), "an unquoted attribute")
        XCTAssertNotNil(failure("<a x=\"<\"></a>"))
        XCTAssertNotNil(failure("<></>"))
        XCTAssertNotNil(try? parse("<a>text</a>\n<!-- after -->\n"))
    }

    func testBounds() {
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        XCTAssertTrue(failure(deep)?.reason.contains("deeper than 32") ?? false)
        // Far deeper than any stack would take: refused at the bound, not a crash.
        let abyss = String(repeating: "<a>", count: 200_000)
        XCTAssertNotNil(failure(abyss))
        var few = XMLLimits()
        few.maxElements = 10
        XCTAssertTrue(failure("<a>" + String(repeating: "<b/>", count: 20) + "</a>", limits: few)?.reason.contains("more than 10 elements") ?? false)
        XCTAssertNotNil(failure("<a " + (0..<40).map { "k\($0)=\"v\"" }.joined(separator: " ") + "/>"))
        XCTAssertNotNil(failure("<" + String(repeating: "n", count: 200) + "/>"))
        var small = XMLLimits()
        small.maxBytes = 16
        XCTAssertNotNil(failure("<a>" + String(repeating: "x", count: 32) + "</a>", limits: small))
        // A document over the cap is refused as a whole: the message names the cap, no position.
        XCTAssertEqual(failure("<a>" + String(repeating: "x", count: 8 << 20) + "</a>")?.description, "the XML is larger than 8 MiB")
        XCTAssertNotNil(try? XMLReader.parse([0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)), "a UTF-8 BOM")
        XCTAssertNotNil(failure(String(decoding: [0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E], as: UTF8.self)).map { _ in true } ?? true)
        XCTAssertThrowsError(try XMLReader.parse([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]), "not UTF-8")
    }
}
