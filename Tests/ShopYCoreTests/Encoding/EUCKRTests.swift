import XCTest
@testable import ShopYCore
@testable import ShopYCatalog

/// EUC-KR through iconv: round trips, and strictness (what is not EUC-KR is an error, never a
/// replacement character).
final class EUCKRTests: XCTestCase {
    func testKnownBytes() throws {
        // KS X 1001: 한 = C7 D1, 글 = B1 DB, 가 = B0 A1, ㄱ = A4 A1 (Python's euc_kr codec agrees).
        XCTAssertEqual(EUCKR.encode("한글"), [0xC7, 0xD1, 0xB1, 0xDB])
        XCTAssertEqual(EUCKR.encode("가ㄱ"), [0xB0, 0xA1, 0xA4, 0xA1])
        XCTAssertEqual(String(decoding: try EUCKR.decode([0xC7, 0xD1, 0xB1, 0xDB]), as: UTF8.self), "한글")
    }

    func testRoundTrips() throws {
        for text in ["에어팟 프로 2세대", "방충망 미세먼지 롤 창문 모기장 DIY 100cmx10cm", "", "ASCII only <b>&amp;</b>",
                     "[무료배송] 탐사 3겹 롤화장지 30m×30롤", "등록되지 않은 KEY 입니다.", "①②③ ㈜ ※ ☆ ♥"] {
            let encoded = try XCTUnwrap(EUCKR.encode(text), text)
            XCTAssertEqual(String(decoding: try EUCKR.decode(encoded), as: UTF8.self), text)
        }
        // Every one of the catalog's titles (Hangul, Latin, digits and signs).
        for item in Catalog.embedded.items {
            guard let encoded = EUCKR.encode(item.title) else { continue }
            XCTAssertEqual(String(decoding: try EUCKR.decode(encoded), as: UTF8.self), item.title)
        }
    }

    func testCharactersWithoutAnEUCKRForm() {
        XCTAssertNil(EUCKR.encode("똠방각하"), "똠 is a CP949 (UHC) extension, not EUC-KR")
        XCTAssertNil(EUCKR.encode("emoji 😀"))
        XCTAssertEqual(EUCKR.encode("a😀b") { "&#\($0.value);" }, Array("a&#128512;b".utf8))
    }

    func testStrictDecoding() {
        func failure(_ bytes: [UInt8]) -> EUCKR.DecodingError? {
            do {
                _ = try EUCKR.decode(bytes)
                return nil
            } catch {
                return error
            }
        }
        // A CP949 extension (똠 = 8C 63): glibc alone would read U+008C 'c'.
        XCTAssertEqual(failure([0x41, 0x8C, 0x63])?.offset, 1)
        // C1 bytes and 0xFF are no EUC-KR lead bytes.
        XCTAssertNotNil(failure([0x80]))
        XCTAssertNotNil(failure([0xFF, 0xA1]))
        // A lead byte cut off at the end, and a trail byte out of range.
        XCTAssertEqual(failure([0xC7, 0xD1, 0xC7])?.reason, "starts a sequence that the answer cuts off")
        XCTAssertNotNil(failure([0xC7, 0x41]))
        // An unassigned pair (the user-defined area C9 A1).
        XCTAssertNotNil(failure([0xC9, 0xA1]))
        // UTF-8 Hangul read as EUC-KR: refused, not garbled.
        XCTAssertNotNil(failure(Array("에어팟".utf8)))
        XCTAssertNil(failure([]))
        XCTAssertNil(failure(Array("plain ASCII \u{1B}[31m".utf8)), "ASCII (controls too) is EUC-KR; the sanitizer handles controls")
    }
}
