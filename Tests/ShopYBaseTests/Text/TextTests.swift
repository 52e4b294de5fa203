// Tests for Sources/ShopYCore/Text: TitleCleaner, DisplayWidth, Sanitizer, Money.
//
// TitleCleaner speed (testTitleCleanerThroughput, release build, this 2-core Linux machine,
// `swift test -c release -Xswiftc -enable-testing --filter TextTests.testTitleCleanerThroughput`):
//   API-style titles with <b>…</b> and an entity (60–90 chars, Korean): ~10.7–11.2 million titles/s
//   already-clean titles (fast path, input returned as is):             ~31 million titles/s
// (shopy-bench compares the cleaner with Python's html.unescape(re.sub(...)); see docs/performance.md.)
// The test only prints these; it asserts nothing about speed, so it cannot fail on a slow CI.

import XCTest
@testable import ShopYBase

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

    func testRowListsSayWhatExists() {
        XCTAssertEqual(RowList.describe([]), "it has no rows")
        XCTAssertEqual(RowList.describe(["21"]), "its only row is 21")
        XCTAssertEqual(RowList.describe((21...40).map(String.init)), "its rows are 21–40")
        XCTAssertEqual(RowList.describe(["4", "9", "16"]), "its rows are 4, 9, 16")
        XCTAssertEqual(RowList.describe(["4", "5", "16"]), "its rows are 4, 5, 16")
        XCTAssertEqual(RowList.describe(["1.1", "1.2", "1.3", "2.1", "2.2", "2.3"]), "its rows are 1.1–1.3, 2.1–2.3")
        XCTAssertEqual(RowList.describe((1...20).map { String($0 * 2) }, limit: 3), "its rows are 2, 4, 6, …")
    }
}

/// Deterministic xorshift64 so that randomized tests fail the same way every run.
struct XorShift {
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
