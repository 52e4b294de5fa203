import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class KeyDecoderTests: XCTestCase {
    func decode(_ bytes: [UInt8], flush: Bool = true) -> [KeyEvent] {
        var decoder = KeyDecoder()
        var events = decoder.feed(bytes)
        if flush { events += decoder.flush() }
        return events
    }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testArrowsPagesHomeEndInCSIAndSS3Forms() {
        let cases: [(String, Key)] = [("\u{1B}[A", .up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
                                      ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
                                      ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
                                      ("\u{1B}[7~", .home), ("\u{1B}[8~", .end), ("\u{1B}OH", .home), ("\u{1B}OF", .end),
                                      ("\u{1B}[3~", .delete), ("\u{1B}[Z", .backTab), ("\u{1B}[1;5B", .down)]
        for (sequence, key) in cases {
            XCTAssertEqual(decode(bytes(sequence), flush: false), [.key(key)], sequence.debugDescription)
        }
    }

    func testControlKeysAndText() {
        XCTAssertEqual(decode([0x03, 0x0D, 0x09, 0x7F, 0x08, 0x15]),
                       [.key(.ctrl("c")), .key(.enter), .key(.tab), .key(.backspace), .key(.backspace), .key(.ctrl("u"))])
        XCTAssertEqual(decode(bytes("jk/?")), [.key(.char("j")), .key(.char("k")), .key(.char("/")), .key(.char("?"))])
    }

    func testHangulAndEmojiAsScalarsEvenWhenSplitAcrossReads() {
        var decoder = KeyDecoder()
        let text = bytes("방충망👍é")
        var events: [KeyEvent] = []
        for byte in text { events += decoder.feed([byte]) }
        XCTAssertEqual(events, "방충망👍é".unicodeScalars.map { .key(.char($0)) })
        XCTAssertFalse(decoder.hasPending)
        // Invalid UTF-8 and C1 controls are dropped, not passed on.
        XCTAssertEqual(decode([0xFF, 0xC2, 0x9B, 0x41]), [.key(.char("A"))])
    }

    func testEscapeWaitsThenIsEscAltIsEscPlusKey() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.hasPending)
        XCTAssertEqual(decoder.flush(), [.key(.escape)])
        XCTAssertEqual(decode(bytes("\u{1B}x"), flush: false), [.key(.alt("x"))])
        XCTAssertEqual(decode([0x1B, 0x1B]), [.key(.escape), .key(.escape)])
        // A sequence split across reads is still one key.
        var split = KeyDecoder()
        XCTAssertEqual(split.feed([0x1B, 0x5B]), [])
        XCTAssertEqual(split.feed([0x36]), [])
        XCTAssertEqual(split.feed([0x7E]), [.key(.pageDown)])
    }

    func testBracketedPasteIsOneEventWithItsBytesIntact() {
        let pasted = "\u{1B}[200~고양이\r\n모래 j q\u{1B}[201~"
        XCTAssertEqual(decode(bytes(pasted + "j"), flush: false), [.paste("고양이\r\n모래 j q"), .key(.char("j"))])
        var decoder = KeyDecoder()
        var events: [KeyEvent] = []
        for byte in bytes(pasted) { events += decoder.feed([byte]) }
        XCTAssertEqual(events, [.paste("고양이\r\n모래 j q")])
    }
}
