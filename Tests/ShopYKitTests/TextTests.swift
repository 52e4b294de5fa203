// Tests for Sources/ShopYCore/Text: TitleCleaner, DisplayWidth, Sanitizer, Money.
//
// TitleCleaner speed (testTitleCleanerThroughput, release build, this 2-core Linux machine,
// `swift test -c release -Xswiftc -enable-testing --filter TextTests.testTitleCleanerThroughput`):
//   API-style titles with <b>…</b> and an entity (60–90 chars, Korean): ~10.7–11.2 million titles/s
//   already-clean titles (fast path, input returned as is):             ~31 million titles/s
// (shopy-bench compares the cleaner with Python's html.unescape(re.sub(...)); see README.)
// The test only prints these; it asserts nothing about speed, so it cannot fail on a slow CI.

import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class TextTests: XCTestCase {

    // MARK: - TitleCleaner

    func testTitleCleanerRealTitles() {
        let cases: [(String, String)] = [
            ("P&amp;G 다우니 울트라 섬유유연제 에이프릴 프레쉬, 5.03L, 1개", "P&G 다우니 울트라 섬유유연제 에이프릴 프레쉬, 5.03L, 1개"),
            ("<b>방충망</b> 미세먼지 롤", "방충망 미세먼지 롤"),
            ("  a   <b>b</b>\t c  ", "a b c"),
            ("5<10", "5<10"),
            ("abc <b def", "abc <b def"),
            ("&#xZZ;", "&#xZZ;"),
            ("&#39;quoted&#x27;", "'quoted'"),
            ("&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"),
            ("<span class=\"x\">a</span>&nbsp;b", "a b"),
            ("Tom &amp Jerry", "Tom &amp Jerry"),
            ("&#99999999999999999999;", "\u{FFFD}"),
        ]
        for (raw, expected) in cases {
            XCTAssertEqual(TitleCleaner.clean(raw), expected, "clean(\(raw.debugDescription))")
        }
    }

    func testTitleCleanerTags() {
        XCTAssertEqual(TitleCleaner.clean("a < b"), "a < b")
        XCTAssertEqual(TitleCleaner.clean("a<>b"), "a<>b")
        XCTAssertEqual(TitleCleaner.clean("<"), "<")
        XCTAssertEqual(TitleCleaner.clean("x<"), "x<")
        XCTAssertEqual(TitleCleaner.clean("<B>굵게</B>"), "굵게")
        XCTAssertEqual(TitleCleaner.clean("a<br/>b"), "ab")
        XCTAssertEqual(TitleCleaner.clean("a<!-- note -->b"), "ab")
        XCTAssertEqual(TitleCleaner.clean("<?xml version=\"1.0\"?>a"), "a")
        XCTAssertEqual(TitleCleaner.clean("<b>a</b> <b>b</b>"), "a b")
        XCTAssertEqual(TitleCleaner.clean("<b>a</b><b>b</b>"), "ab")
        XCTAssertEqual(TitleCleaner.clean("<b>a</b> <b"), "a <b")
        XCTAssertEqual(TitleCleaner.clean("<1>"), "<1>")
        XCTAssertEqual(TitleCleaner.clean("<b 한글 속성>값</b>"), "값")
        // Tags are stripped before entities are decoded.
        XCTAssertEqual(TitleCleaner.clean("&am<b>p;"), "&")
        XCTAssertEqual(TitleCleaner.clean("&#60;b&#62;x"), "<b>x")
    }

    func testTitleCleanerEntities() {
        XCTAssertEqual(TitleCleaner.clean("AT&T"), "AT&T")
        XCTAssertEqual(TitleCleaner.clean("&"), "&")
        XCTAssertEqual(TitleCleaner.clean("a & b"), "a & b")
        XCTAssertEqual(TitleCleaner.clean("&&amp;&"), "&&&")
        XCTAssertEqual(TitleCleaner.clean("&unknown;"), "&unknown;")
        XCTAssertEqual(TitleCleaner.clean("&amp;lt;"), "&lt;")  // decoded once only
        XCTAssertEqual(TitleCleaner.clean("&quot;x&quot; &apos;y&apos;"), "\"x\" 'y'")
        XCTAssertEqual(TitleCleaner.clean("&AMP;&LT;&GT;&QUOT;"), "&<>\"")
        XCTAssertEqual(TitleCleaner.clean("&Amp;"), "&Amp;")  // names are case-sensitive
        XCTAssertEqual(TitleCleaner.clean("&#65;&#x42;&#X43;&#x1F600;"), "ABC😀")
        XCTAssertEqual(TitleCleaner.clean("&#;"), "&#;")
        XCTAssertEqual(TitleCleaner.clean("&#x;"), "&#x;")
        XCTAssertEqual(TitleCleaner.clean("&#65"), "&#65")
        XCTAssertEqual(TitleCleaner.clean("&#65 ;"), "&#65 ;")
        XCTAssertEqual(TitleCleaner.clean("&#0;"), "\u{FFFD}")
        XCTAssertEqual(TitleCleaner.clean("&#xD800;"), "\u{FFFD}")
        XCTAssertEqual(TitleCleaner.clean("&#xDFFF;"), "\u{FFFD}")
        XCTAssertEqual(TitleCleaner.clean("&#x10FFFF;"), "\u{10FFFF}")
        XCTAssertEqual(TitleCleaner.clean("&#x110000;"), "\u{FFFD}")
        XCTAssertEqual(TitleCleaner.clean("&#x" + String(repeating: "F", count: 40) + ";"), "\u{FFFD}")
        XCTAssertEqual(TitleCleaner.clean("&#150;"), "–")  // windows-1252, as in HTML5
        XCTAssertEqual(TitleCleaner.clean("&#x81;"), "\u{81}")  // undefined in windows-1252: kept
        XCTAssertEqual(TitleCleaner.clean("&middot;&times;&hellip;&trade;&reg;&deg;&frac12;&star;&hearts;"),
                       "·×…™®°½☆♥")
        XCTAssertEqual(TitleCleaner.clean("&abcdefghij;"), "&abcdefghij;")
        // Decoded whitespace collapses like literal whitespace.
        XCTAssertEqual(TitleCleaner.clean("a&nbsp;&nbsp; &#9;b&#10;"), "a b")
        XCTAssertEqual(TitleCleaner.clean("&nbsp;"), "")
    }

    func testTitleCleanerNamedTableIsSortedAndFitsInPlace() {
        let names = TitleCleaner.namedEntities.map { $0.name.description }
        XCTAssertEqual(names, names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(Set(names).count, names.count)
        for required in ["amp", "lt", "gt", "quot", "apos", "nbsp", "middot", "times", "divide", "hellip",
                         "laquo", "raquo", "lsquo", "rsquo", "ldquo", "rdquo", "sbquo", "bdquo", "ndash",
                         "mdash", "bull", "trade", "reg", "copy", "deg", "plusmn", "micro", "para", "sect",
                         "cent", "pound", "yen", "euro", "frac12", "frac14", "frac34", "sup2", "sup3",
                         "larr", "rarr", "uarr", "darr", "hearts", "star"] {
            XCTAssertTrue(names.contains(required), required)
        }
        // The cleaner writes into a buffer as long as its input: every entity must be at least as
        // long as the UTF-8 of what it decodes to.
        for (name, scalar) in TitleCleaner.namedEntities {
            let utf8 = String(Unicode.Scalar(scalar)!).utf8.count
            XCTAssertLessThanOrEqual(utf8, name.utf8CodeUnitCount + 2, name.description)
            XCTAssertEqual(TitleCleaner.clean("x&\(name);y"),
                           TitleCleaner.isWhitespace(scalar) ? "x y" : "x\(Unicode.Scalar(scalar)!)y")
        }
    }

    func testTitleCleanerWhitespace() {
        XCTAssertEqual(TitleCleaner.clean(""), "")
        XCTAssertEqual(TitleCleaner.clean(" "), "")
        XCTAssertEqual(TitleCleaner.clean(" \t\r\n "), "")
        XCTAssertEqual(TitleCleaner.clean("a\u{00A0}\u{3000}\u{2003}\u{202F}\u{205F}\u{1680}\u{2028}\u{85}b"), "a b")
        XCTAssertEqual(TitleCleaner.clean("\u{3000}방충망\u{3000}"), "방충망")
        XCTAssertEqual(TitleCleaner.clean("a\u{200B}b"), "a\u{200B}b")  // not White_Space
        XCTAssertEqual(TitleCleaner.clean("a  b"), "a b")
        XCTAssertEqual(TitleCleaner.clean("a b "), "a b")
        XCTAssertEqual(TitleCleaner.clean(" a b"), "a b")
    }

    func testTitleCleanerReturnsCleanInputUnchanged() {
        for title in ["방충망 미세먼지 롤 창문 모기장 DIY 100cmx10cm", "a", "a b", "「신상」 방충망", "x\u{1}y"] {
            XCTAssertEqual(TitleCleaner.clean(title), title)
        }
    }

    /// Random soup of the pieces the parser cares about: nothing may crash or hang, and the
    /// output is always trimmed with single spaces and no tag left.
    func testTitleCleanerRandomized() {
        let pieces = ["<", ">", "&", "#", "x", "X", ";", "b", "/", "amp", "lt", "nbsp", "0", "1", "9", "65",
                      "F", "99999999999", "방충망", "한", " ", "  ", "\t", "\n", "\u{00A0}", "\u{3000}", "!", "?",
                      "<b>", "</b>", "&#", "&#x", "a", "é", "😀", "\u{0}"]
        var rng = XorShift(seed: 0x5EED_1234_ABCD_0042)
        for _ in 0..<20_000 {
            var raw = ""
            for _ in 0..<Int(rng.next() % 24) { raw += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let cleaned = TitleCleaner.clean(raw)
            XCTAssertFalse(cleaned.hasPrefix(" ") || cleaned.hasSuffix(" "), raw.debugDescription)
            XCTAssertFalse(cleaned.contains("  "), raw.debugDescription)
            XCTAssertFalse(cleaned.unicodeScalars.contains { $0 != " " && $0.properties.isWhitespace },
                           raw.debugDescription)
            XCTAssertLessThanOrEqual(cleaned.utf8.count, raw.utf8.count, raw.debugDescription)
            // Without `&`, no entity can produce a `<`, so no tag may survive.
            if !raw.contains("&") {
                XCTAssertFalse(cleaned.contains("<b>") || cleaned.contains("</b>"), raw.debugDescription)
            }
        }
    }

    func testTitleCleanerLinearOnHostileInput() {
        // Quadratic behaviour would take seconds here.
        let unclosed = String(repeating: "<a", count: 200_000)
        XCTAssertEqual(TitleCleaner.clean(unclosed), unclosed)
        let ampersands = String(repeating: "&#1111111111", count: 50_000)
        XCTAssertEqual(TitleCleaner.clean(ampersands), ampersands)
        let long = String(repeating: "<b>방충망</b>&amp; ", count: 50_000)
        XCTAssertEqual(TitleCleaner.clean(long).utf8.count, 50_000 * "방충망& ".utf8.count - 1)
    }

    /// Random soup of the pieces the cleaner cares about, compared with `ReferenceTitleCleaner` (the
    /// spec written out plainly). Long inputs too, so that specials land on every lane of the
    /// 16-byte chunks, across chunk ends and in the last, overlapping chunk.
    func testTitleCleanerMatchesReferenceOnRandomInput() {
        let pieces = ["<", ">", "&", "#", "x", "X", ";", "b", "/", "amp", "lt", "nbsp", "0", "1", "9", "65",
                      "F", "99999999999", "방충망", "한", " ", "  ", "\t", "\n", "\r", "\u{0B}", "\u{0C}",
                      "\u{00A0}", "\u{3000}", "\u{2003}", "\u{2028}", "\u{1680}", "\u{85}", "\u{200B}", "!", "?",
                      "<b>", "</b>", "<B>", "<br/>", "<!-- c -->", "<1>", "&#", "&#x", "a", "é", "😀", "\u{0}", "\u{1}",
                      "·", "×", "…", "「", "」", "ㄱ", "あ", "中", "™", "&amp;", "&quot;", "&nbsp;", "&lt;b&gt;",
                      "&#150;", "&#x20;", "&#32;", "&#0;", "&#x85;", "&#xD800;", "&#0065;", "&middot;", "&hellip;",
                      "방충망 미세먼지 롤 창문 모기장", " DIY 100cmx10cm ", "P&amp;G 다우니", "<b>방충망</b> "]
        // Mostly text that only tags make unclean, for the fast path: where spaces meet or end up
        // at an end once tags are gone, literal `<`, `>` and `&`, entities split by tags.
        let tagsOnly = ["가", "a", "방충망", " ", " ", "<b>", "</b>", "<br/>", "<", ">", "·", "\u{1}", "&", "&am",
                        "p;", "&#6", "5;"]
        var rng = XorShift(seed: 0xC1EA_4E42_0BAD_F00D)
        for round in 0..<30_000 {
            let alphabet = round % 3 == 0 ? tagsOnly : pieces
            var raw = ""
            let count = Int(rng.next() % (round % 8 == 0 ? 60 : 14))
            for _ in 0..<count { raw += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            XCTAssertEqual(TitleCleaner.clean(raw), ReferenceTitleCleaner.clean(raw), raw.debugDescription)
        }
    }

    /// One piece at every offset of clean backgrounds of up to 70 bytes: on every lane, in the 16-
    /// and 32-byte rounds, in the overlapping last chunk and in the scalar tail.
    func testTitleCleanerMatchesReferenceAtEveryOffset() {
        let pieces = ["<b>", "</b>", "<b>x</b>", "<", "&", "&amp;", "&#65;", " ", "  ", "\t", "\u{1}",
                      "\u{A0}", "\u{3000}", "\u{2003}", "·", "「"]
        for unit in ["a", "가", "가 a"] {
            var background = ""
            while background.utf8.count <= 70 {
                for offset in background.unicodeScalars.indices + [background.endIndex] {
                    for piece in pieces {
                        var raw = background
                        raw.insert(contentsOf: piece, at: offset)
                        XCTAssertEqual(TitleCleaner.clean(raw), ReferenceTitleCleaner.clean(raw), raw.debugDescription)
                    }
                }
                background += unit
            }
        }
    }

    func testTitleCleanerReturnsCleanInputItself() {
        let title = "방충망 미세먼지 롤 창문 모기장 DIY 100cmx10cm 촘촘한 미세 방충망 셀프 시공 「신상」 × 2"
        let cleaned = TitleCleaner.clean(title)
        XCTAssertEqual(cleaned, title)
        title.utf8.withContiguousStorageIfAvailable { a in
            cleaned.utf8.withContiguousStorageIfAvailable { b in XCTAssertEqual(a.baseAddress, b.baseAddress) }
        }
        XCTAssertEqual(TitleCleaner.clean("<b>방충망</b> 미세먼지 롤 창문 모기장"), "방충망 미세먼지 롤 창문 모기장")
    }

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
        let untouched = "\u{A0}\u{A9}\u{2029}\u{202F}\u{2065}\u{206A}\u{200D}\u{200B}\u{61B}\u{61D}é한😀 ~"
        XCTAssertEqual(Sanitizer.clean(untouched), untouched)
        XCTAssertFalse(Sanitizer.needsCleaning(untouched))
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
                      "\u{200E}", "\u{7F}", "é", "😀", "\u{2028}"]
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
}

/// Deterministic xorshift64 so that randomized tests fail the same way every run.
private struct XorShift {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// `TitleCleaner.clean` as its documentation states it, one step after the other, on Unicode
/// scalars, with no attention to speed: what the randomized tests compare the real one with.
private enum ReferenceTitleCleaner {
    static func clean(_ raw: String) -> String {
        collapseWhitespace(decodeEntities(stripTags(raw)))
    }

    /// `<` followed by an ASCII letter, `/`, `!` or `?`, up to the next `>`; anything else is text.
    static func stripTags(_ raw: String) -> String {
        let s = Array(raw.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            if s[i] == "<", i + 1 < s.count, isTagStart(s[i + 1]),
               let close = s[(i + 2)...].firstIndex(of: ">") {
                i = close + 1
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }

    static func isTagStart(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "/" || c == "!" || c == "?"
    }

    static func decodeEntities(_ text: String) -> [Unicode.Scalar] {
        let s = Array(text.unicodeScalars)
        var out: [Unicode.Scalar] = []
        var i = 0
        while i < s.count {
            if s[i] == "&", let (scalar, length) = entity(s, at: i) {
                out.append(scalar)
                i += length
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// The entity at `s[i]` (an `&`) and its length, or nil.
    static func entity(_ s: [Unicode.Scalar], at i: Int) -> (Unicode.Scalar, Int)? {
        let isDigit = { (c: Unicode.Scalar) in ("0"..."9").contains(c) }
        var j = i + 1
        if j < s.count && s[j] == "#" {
            j += 1
            let hex = j < s.count && (s[j] == "x" || s[j] == "X")
            if hex { j += 1 }
            let start = j
            while j < s.count && (hex ? s[j].properties.isASCIIHexDigit : isDigit(s[j])) { j += 1 }
            guard j > start, j < s.count, s[j] == ";" else { return nil }
            let digits = String(String.UnicodeScalarView(s[start..<j])).drop { $0 == "0" }
            // More than 8 significant digits is beyond U+10FFFF in either base.
            let value = digits.count > 8 ? nil : UInt32(digits.isEmpty ? "0" : String(digits), radix: hex ? 16 : 10)
            return (html5Numeric(value), j + 1 - i)
        }
        while j < s.count && (("a"..."z").contains(s[j]) || ("A"..."Z").contains(s[j]) || isDigit(s[j])) { j += 1 }
        guard j > i + 1, j < s.count, s[j] == ";" else { return nil }
        let name = String(String.UnicodeScalarView(s[(i + 1)..<j]))
        guard let entry = TitleCleaner.namedEntities.first(where: { $0.name.description == name }) else { return nil }
        return (Unicode.Scalar(entry.scalar)!, j + 1 - i)
    }

    /// HTML5: 0, surrogates and values beyond U+10FFFF are U+FFFD; 0x80–0x9F are windows-1252.
    static func html5Numeric(_ value: UInt32?) -> Unicode.Scalar {
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return windows1252[value] ?? scalar
    }

    static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "€", 0x82: "‚", 0x83: "ƒ", 0x84: "„", 0x85: "…", 0x86: "†", 0x87: "‡", 0x88: "ˆ", 0x89: "‰",
        0x8A: "Š", 0x8B: "‹", 0x8C: "Œ", 0x8E: "Ž", 0x91: "‘", 0x92: "’", 0x93: "“", 0x94: "”", 0x95: "•",
        0x96: "–", 0x97: "—", 0x98: "˜", 0x99: "™", 0x9A: "š", 0x9B: "›", 0x9C: "œ", 0x9E: "ž", 0x9F: "Ÿ",
    ]

    /// Every run of White_Space becomes one space; none at either end.
    static func collapseWhitespace(_ scalars: [Unicode.Scalar]) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for c in scalars {
            if c.properties.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(c)
            }
        }
        return String(out)
    }
}
