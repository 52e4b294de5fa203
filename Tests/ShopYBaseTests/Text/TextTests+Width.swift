// Text (continued): display width, the sanitizer, money.

import XCTest
@testable import ShopYBase

extension TextTests {
    // MARK: - DisplayWidth

    func testDisplayWidthBasics() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("방충망"), 6)
        XCTAssertEqual(DisplayWidth.of("P&G 다우니"), 10)
        XCTAssertEqual(DisplayWidth.of("\u{E9}"), 1)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("👨‍👩‍👧"), 2)
        XCTAssertEqual(DisplayWidth.of("🇰🇷"), 2)
        XCTAssertEqual(DisplayWidth.of("\u{FF71}"), 1)  // halfwidth katakana ｱ
        XCTAssertEqual(DisplayWidth.of("\u{FF21}"), 2)  // fullwidth Ａ
        XCTAssertEqual(DisplayWidth.of("\u{200B}"), 0)
        XCTAssertEqual(DisplayWidth.of(""), 0)
    }

    func testDisplayWidthScalars() {
        func w(_ v: UInt32) -> Int { DisplayWidth.of(Unicode.Scalar(v)!) }
        XCTAssertEqual(w(0x41), 1)
        XCTAssertEqual(w(0x00), 0)
        XCTAssertEqual(w(0x1B), 0)
        XCTAssertEqual(w(0x7F), 0)
        XCTAssertEqual(w(0x9B), 0)     // C1 control
        XCTAssertEqual(w(0xAD), 1)     // soft hyphen
        XCTAssertEqual(w(0x301), 0)    // combining acute
        XCTAssertEqual(w(0x20DD), 0)   // Me
        XCTAssertEqual(w(0x200D), 0)   // ZWJ (Cf)
        XCTAssertEqual(w(0xFEFF), 0)   // BOM (Cf)
        XCTAssertEqual(w(0xFE0F), 0)
        XCTAssertEqual(w(0xE0100), 0)  // variation selector supplement
        XCTAssertEqual(w(0x1100), 2)   // Hangul leading consonant
        XCTAssertEqual(w(0x1161), 0)   // medial vowel
        XCTAssertEqual(w(0x11A8), 0)   // final consonant
        XCTAssertEqual(w(0xD7B0), 0)
        XCTAssertEqual(w(0xD7FB), 0)
        XCTAssertEqual(w(0xAC00), 2)
        XCTAssertEqual(w(0xD7A3), 2)
        XCTAssertEqual(w(0x3131), 2)   // compatibility jamo ㄱ
        XCTAssertEqual(w(0x4E00), 2)
        XCTAssertEqual(w(0x3000), 2)   // ideographic space
        XCTAssertEqual(w(0x3099), 0)   // combining kana mark: Mn beats W
        XCTAssertEqual(w(0x1F600), 2)
        XCTAssertEqual(w(0x2026), 1)   // … is ambiguous: 1
        XCTAssertEqual(w(0xB7), 1)
        XCTAssertEqual(w(0x20000), 2)
        XCTAssertEqual(w(0x2EBF0), 2)  // CJK Ext. I (newer than the table's Unicode): default W
        XCTAssertEqual(w(0x1FAE8), 2)  // emoji newer than the table's Unicode
        XCTAssertEqual(w(0x10FFFF), 1)
        XCTAssertEqual(w(0xE000), 1)   // private use
        XCTAssertEqual(w(0x378), 1)    // unassigned
        XCTAssertEqual(w(0xE0080), 1)  // unassigned
        XCTAssertEqual(w(0x50000), 1)  // unassigned, plane 5
    }

    func testDisplayWidthTableIsSorted() {
        let steps = DisplayWidth.widthSteps
        XCTAssertEqual(steps.first, 0)
        for i in 1..<steps.count {
            XCTAssertLessThan(steps[i - 1] >> 2, steps[i] >> 2)
            XCTAssertNotEqual(steps[i - 1] & 3, steps[i] & 3)
            XCTAssertLessThanOrEqual(steps[i] & 3, 2)
        }
    }

    func testDisplayWidthCharacters() {
        XCTAssertEqual(DisplayWidth.of(Character("\u{1100}\u{1161}\u{11A8}")), 2)  // 각 from jamo
        XCTAssertEqual(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}"), 2)
        XCTAssertEqual(DisplayWidth.of(Character("\u{2764}\u{FE0F}")), 2)          // ❤️
        XCTAssertEqual(DisplayWidth.of(Character("\u{2764}")), 1)                   // ❤ text style
        XCTAssertEqual(DisplayWidth.of(Character("#\u{FE0F}\u{20E3}")), 2)         // keycap
        XCTAssertEqual(DisplayWidth.of(Character("👍🏽")), 2)                        // skin tone modifier
        XCTAssertEqual(DisplayWidth.of(Character("\u{1F1F0}")), 1)                  // lone regional indicator
        XCTAssertEqual(DisplayWidth.of(Character("\r\n")), 0)
        XCTAssertEqual(DisplayWidth.of(Character("\u{301}")), 0)
        XCTAssertEqual(DisplayWidth.of("🇰🇷🇯🇵"), 4)
        XCTAssertEqual(DisplayWidth.of("가\u{11A8}a"), 3)  // syllable + final jamo is one Character
        XCTAssertEqual(DisplayWidth.of("a\u{301}\u{302}b"), 2)
        XCTAssertEqual(DisplayWidth.of("방충망 (DIY) 100×150cm"), 22)  // × is ambiguous: 1
        XCTAssertEqual(DisplayWidth.of("a\tb"), 2)
    }

    func testSimpleWidthAgreesWithCharacterSum() {
        var rng = XorShift(seed: 42)
        let pieces = ["a", " ", "~", "가", "힣", "각", "\u{11A8}", "\u{1161}", "\u{1100}", "é", "e\u{301}", "中",
                      "😀", "\u{FE0F}", "\u{200D}", "🇰", "🇷", "\t", "ｱ", "\u{AD}"]
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 12) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let characterSum = s.reduce(0) { $0 + DisplayWidth.of($1) }
            XCTAssertEqual(DisplayWidth.of(s), characterSum, s.debugDescription)
        }
    }

    func testTruncate() {
        XCTAssertEqual(DisplayWidth.truncate("방충망 모기장", toWidth: 7), "방충망…")
        XCTAssertEqual(DisplayWidth.of(DisplayWidth.truncate("방충망 모기장", toWidth: 7)), 7)
        XCTAssertEqual(DisplayWidth.truncate("방충망 모기장", toWidth: 7, ellipsis: false), "방충망 ")
        XCTAssertEqual(DisplayWidth.truncate("방충망 모기장", toWidth: 6), "방충…")
        XCTAssertEqual(DisplayWidth.truncate("방충망 모기장", toWidth: 13), "방충망 모기장")
        XCTAssertEqual(DisplayWidth.truncate("방충망 모기장", toWidth: 12), "방충망 모기…")
        XCTAssertEqual(DisplayWidth.truncate("방충망", toWidth: 0), "")
        XCTAssertEqual(DisplayWidth.truncate("방충망", toWidth: -3), "")
        XCTAssertEqual(DisplayWidth.truncate("방충망", toWidth: 1), "…")
        XCTAssertEqual(DisplayWidth.truncate("방충망", toWidth: 1, ellipsis: false), "")
        XCTAssertEqual(DisplayWidth.truncate("abc", toWidth: 3), "abc")
        XCTAssertEqual(DisplayWidth.truncate("abcd", toWidth: 3), "ab…")
        XCTAssertEqual(DisplayWidth.truncate("", toWidth: 3), "")
        XCTAssertEqual(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2), "e\u{301}…")
        XCTAssertEqual(DisplayWidth.truncate("👨‍👩‍👧👨‍👩‍👧", toWidth: 3), "👨‍👩‍👧…")

        var rng = XorShift(seed: 7)
        let pieces = ["a", "가", "e\u{301}", "👨‍👩‍👧", "🇰🇷", " ", "\u{200B}", "ｱ"]
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 10) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let width = Int(rng.next() % 12)
            for ellipsis in [true, false] {
                let t = DisplayWidth.truncate(s, toWidth: width, ellipsis: ellipsis)
                XCTAssertLessThanOrEqual(DisplayWidth.of(t), width)
                if width == 0 {
                    XCTAssertEqual(t, "")
                } else if DisplayWidth.of(s) <= width {
                    XCTAssertEqual(t, s)
                } else {
                    let body = ellipsis && !t.isEmpty ? String(t.dropLast()) : t
                    if ellipsis && width > 0 { XCTAssertEqual(t.last, "…") }
                    XCTAssertTrue(s.hasPrefix(body))
                    // Whole Characters: the kept prefix ends on a Character boundary of `s`.
                    XCTAssertEqual(Array(s.prefix(body.count)), Array(body))
                }
            }
        }
    }

    func testPad() {
        XCTAssertEqual(DisplayWidth.pad("방충망", toWidth: 8), "방충망  ")
        XCTAssertEqual(DisplayWidth.pad("방충망", toWidth: 8, alignRight: true), "  방충망")
        XCTAssertEqual(DisplayWidth.pad("abc", toWidth: 3), "abc")
        XCTAssertEqual(DisplayWidth.pad("방충망 모기장", toWidth: 6), "방충… ")
        XCTAssertEqual(DisplayWidth.pad("방충망 모기장", toWidth: 6, alignRight: true), " 방충…")
        XCTAssertEqual(DisplayWidth.pad("", toWidth: 2), "  ")
        XCTAssertEqual(DisplayWidth.pad("abc", toWidth: 0), "")
        for width in 0..<15 {
            XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad("방충망 모기장 👨‍👩‍👧", toWidth: width)), width)
            XCTAssertEqual(DisplayWidth.of(DisplayWidth.pad("방충망 모기장 👨‍👩‍👧", toWidth: width, alignRight: true)), width)
        }
    }

    // MARK: - Sanitizer

    func testSanitizer() {
        XCTAssertEqual(Sanitizer.clean("\u{1B}[31mred"), "\u{FFFD}[31mred")
        XCTAssertEqual(Sanitizer.clean("ding\u{7}"), "ding\u{FFFD}")
        XCTAssertEqual(Sanitizer.clean("\u{9B}31m"), "\u{FFFD}31m")
        XCTAssertEqual(Sanitizer.clean("a\tb\nc\rd"), "a b c d")
        XCTAssertEqual(Sanitizer.clean("a\r\nb"), "a  b")
        XCTAssertEqual(Sanitizer.clean("a\u{0B}\u{0C}b"), "a  b")
        XCTAssertEqual(Sanitizer.clean("a\u{85}b"), "a b")
        XCTAssertEqual(Sanitizer.clean("\u{0}\u{1F}\u{7F}\u{80}\u{9F}"), "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
        XCTAssertEqual(Sanitizer.clean("\u{202E}abc"), "abc")
        XCTAssertEqual(Sanitizer.clean("\u{202A}\u{202B}\u{202C}\u{202D}a\u{2066}\u{2067}\u{2068}\u{2069}b\u{200E}\u{200F}\u{61C}c"),
                       "abc")
        // Neighbours of the removed/replaced ranges stay.
        let untouched = "\u{A0}\u{A9}\u{2029}\u{202F}\u{2065}\u{200D}\u{200C}\u{200A}\u{205F}\u{61B}\u{61D}é한😀 ~"
        XCTAssertEqual(Sanitizer.clean(untouched), untouched)
        XCTAssertFalse(Sanitizer.needsCleaning(untouched))
    }

    func testSanitizerRemovesInvisibleFormatCharacters() {
        // A BOM inside a title, as some shops' feeds carry it.
        XCTAssertEqual(Sanitizer.clean("\u{FEFF}방충망\u{FEFF} 모기장"), "방충망 모기장")
        XCTAssertTrue(Sanitizer.needsCleaning("방충망\u{FEFF}"))
        let invisible: [UInt32] = [0x200B, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x206A, 0x206B, 0x206C, 0x206D, 0x206E, 0x206F,
                                   0xFEFF, 0xFFF9, 0xFFFA, 0xFFFB, 0xE0001, 0xE0020, 0xE0041, 0xE007E, 0xE007F]
        for value in invisible {
            let scalar = Unicode.Scalar(value)!
            XCTAssertEqual(scalar.properties.generalCategory, .format, String(value, radix: 16))
            XCTAssertEqual(Sanitizer.clean("a\(scalar)b"), "ab", String(value, radix: 16))
            XCTAssertTrue(Sanitizer.needsCleaning("가\(scalar)"), String(value, radix: 16))
        }
        // Text can hide in tags: they go unless they spell a subdivision flag.
        XCTAssertEqual(Sanitizer.clean("ok\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}"), "ok")
        let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        XCTAssertEqual(Sanitizer.clean("깃발 \(scotland) 끝"), "깃발 \(scotland) 끝")
        XCTAssertFalse(Sanitizer.needsCleaning(scotland + scotland))
        XCTAssertEqual(Sanitizer.clean("\u{1F3F4}\u{E0067}\u{E0062}"), "\u{1F3F4}", "no cancel tag: not a flag")
        XCTAssertEqual(Sanitizer.clean("\u{1F3F4}\u{E007F}"), "\u{1F3F4}", "no tag before the cancel tag")
        let tooLong = "\u{1F3F4}" + String(repeating: "\u{E0061}", count: 8) + "\u{E007F}"
        XCTAssertEqual(Sanitizer.clean(tooLong), "\u{1F3F4}")
        XCTAssertEqual(Sanitizer.clean("\u{1F3F4}\u{E0001}\u{E0067}\u{E007F}"), "\u{1F3F4}")
        // The Hangul fillers draw nothing (a blank-looking mall name); the noncharacters show.
        XCTAssertEqual(Sanitizer.clean("몰\u{3164}\u{3164}|\u{115F}\u{1160}|\u{FFA0}끝"), "몰||끝")
        XCTAssertEqual(Sanitizer.clean("a\u{FFFE}b\u{FFFF}"), "a\u{FFFD}b\u{FFFD}")
        XCTAssertFalse(Sanitizer.needsCleaning("ᄀ하ᅡ 、「」ㄱ ﾡ 방충망"), "jamo, CJK punctuation and other Hangul near the fillers stay")
        // The format characters that shape text or that terminals draw stay.
        let kept = "👨\u{200D}👩\u{200D}👧 می\u{200C}خواهم \u{AD}\u{600}1 \u{180E}\u{1F3F4}"
        XCTAssertEqual(Sanitizer.clean(kept), kept)
        XCTAssertFalse(Sanitizer.needsCleaning(kept))
    }

    func testSanitizerReturnsInputWhenClean() {
        let korean = "P&G 다우니 울트라 섬유유연제 에이프릴 프레쉬, 5.03L, 1개"
        XCTAssertEqual(Sanitizer.clean(korean), korean)
        XCTAssertFalse(Sanitizer.needsCleaning(korean))
        XCTAssertFalse(Sanitizer.needsCleaning(""))
        XCTAssertTrue(Sanitizer.needsCleaning("a\nb"))
        XCTAssertTrue(Sanitizer.needsCleaning("끝\u{202E}"))
        // Same storage, not a rebuilt copy.
        let big = String(repeating: "방충망 미세먼지 롤 ", count: 1000)
        let cleaned = Sanitizer.clean(big)
        big.utf8.withContiguousStorageIfAvailable { a in
            cleaned.utf8.withContiguousStorageIfAvailable { b in
                XCTAssertEqual(a.baseAddress, b.baseAddress)
            }
        }
    }

    func testSanitizerAgreesWithNeedsCleaning() {
        var rng = XorShift(seed: 99)
        let pieces = ["a", "한", "\t", "\u{1B}", "\u{85}", "\u{9B}", "\u{A0}", "\u{202E}", "\u{2069}", "\u{61C}",
                      "\u{200E}", "\u{7F}", "é", "😀", "\u{2028}", "\u{FEFF}", "\u{200B}", "\u{2060}", "\u{FFFB}", "Ａ",
                      "\u{1F3F4}", "\u{E0067}", "\u{E007F}", "\u{E0001}"]
        for _ in 0..<2_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 8) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let cleaned = Sanitizer.clean(s)
            XCTAssertEqual(cleaned != s, Sanitizer.needsCleaning(s), s.debugDescription)
            XCTAssertFalse(Sanitizer.needsCleaning(cleaned), s.debugDescription)
        }
    }

    // MARK: - Money

    func testMoney() {
        XCTAssertEqual(Money.won(19800), "19,800원")
        XCTAssertEqual(Money.won(nil), "-")
        XCTAssertEqual(Money.won(0), "-")
        XCTAssertEqual(Money.won(450), "450원")
        XCTAssertEqual(Money.won(-1500), "-1,500원")
        XCTAssertEqual(Money.grouped(5061752), "5,061,752")
        XCTAssertEqual(Money.grouped(-1234), "-1,234")
        XCTAssertEqual(Money.grouped(0), "0")
        XCTAssertEqual(Money.grouped(999), "999")
        XCTAssertEqual(Money.grouped(1000), "1,000")
        XCTAssertEqual(Money.grouped(-999), "-999")
        XCTAssertEqual(Money.grouped(100_000), "100,000")
        XCTAssertEqual(Money.grouped(Int.max), "9,223,372,036,854,775,807")
        XCTAssertEqual(Money.grouped(Int.min), "-9,223,372,036,854,775,808")
    }

    func testPadAfterAPrependCharacter() {
        for text in ["\u{111C2}", "a\u{111C2}", "\u{0600}", "방\u{111C3}"] {
            let padded = DisplayWidth.pad(text, toWidth: 6)
            XCTAssertEqual(DisplayWidth.of(padded), 6, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            XCTAssertEqual(DisplayWidth.of(padded), DisplayWidth.of(text) + padded.utf8.count - text.utf8.count)
        }
        XCTAssertEqual(DisplayWidth.of(Character("\u{111C2}x")), 2, "a Prepend is drawn as its own glyph")
    }
}
