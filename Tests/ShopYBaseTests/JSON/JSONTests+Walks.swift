// JSON (continued): skipValue, forEachMember / forEachElement, the writer.

import XCTest
@testable import ShopYBase

extension JSONTests {
    // MARK: - skipValue

    func testSkipValueRanges() throws {
        let cases: [(String, Range<Int>)] = [
            ("  [1, 2]  ", 2..<8),
            ("true", 0..<4),
            ("\n\"a\\\"b\" ", 1..<7),
            ("-1.5e3", 0..<6),
            (#"{"a": {"b": [1, "}"]}}"#, 0..<#"{"a": {"b": [1, "}"]}}"#.utf8.count),
            ("\"방충망\"", 0..<11),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try skipDocument(Array(text.utf8)), expected, text.debugDescription)
        }

        // Walking a sequence of values one after the other.
        let bytes = Array(#" 1 "two" [3] {"four":4} null "#.utf8)
        var ranges: [Range<Int>] = []
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            for _ in 0..<5 {
                do { ranges.append(try parser.skipValue()) } catch { XCTFail("\(error)") }
            }
            XCTAssertNoThrow(try parser.expectEnd())
        }
        let slices = ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        XCTAssertEqual(slices, ["1", "\"two\"", "[3]", #"{"four":4}"#, "null"])
    }

    func testSkipValueAtOffset() throws {
        let bytes = Array(#"xx{"k":[1,2]}yy"#.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, at: 2)
            XCTAssertEqual(try parser.skipValue(), 2..<13)
            XCTAssertEqual(parser.offset, 13)
        }
    }

    /// Property: for every sample, skipValue (plus expectEnd) throws exactly when parse throws,
    /// and on success it covers the value parse read.
    func testSkipValueValidatesLikeParse() {
        let quote = UInt8(ascii: "\"")
        var samples: [[UInt8]] = [
            "", " ", "null", "nul", "nulll", "true", "tru", "false", "fals", "0", "-0", "01", "-", "-01", "1.", "1.0",
            ".1", "1e", "1e5", "1E-5", "1.5e+", "+1", "NaN", "Infinity", "[]", "[", "]", "[1,]", "[,1]", "[1 2]", "[1,2]",
            "{}", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1}"#, #"{"a":1,}"#, #"{a:1}"#, #"{"a" 1}"#, #"{"a":1 "b":2}"#,
            #"{"a":[1,{"b":null}]}"#, #""abc""#, #""abc"#, #""a\"b""#, #""\u0041""#, #""\u004""#, #""\uZZZZ""#,
            #""\x""#, #""\/""#, #""\uD83D\uDE00""#, #""\uD800""#, "\"\u{1}\"", "\"\u{7F}\"", "\"방충망\"", "[1] 2",
            "{} ", " {}x", "[[[[]]]]", "[[[[]]]", "\"\\", "{\"a\":\"\\u00e9\"}", "[true,false,null]", "[truefalse]",
            "[-]", "[01]", "[0.e1]", "[1.0e]", "\"\t\"", "{\"\\u0000\":0}", "[\"a\",]",
        ].map { Array($0.utf8) }
        samples += [
            [quote, 0xFF, quote], [quote, 0xC3, 0xA9, quote], [quote, 0xC3, quote], [quote, 0xE2, 0x82, quote],
            [quote, 0xED, 0xA0, 0x80, quote], [quote, 0xF0, 0x9F, 0x98, 0x80, quote], [quote, 0xF4, 0x90, 0x80, 0x80, quote],
            [quote, 0xC0, 0x80, quote], [quote, 0xE0, 0x80, 0xAF, quote], [quote, 0x80, quote], [quote, 0xF8, 0x88, 0x80, 0x80, 0x80, quote],
            [UInt8(ascii: "{"), quote, 0xFF, quote, UInt8(ascii: ":"), UInt8(ascii: "1"), UInt8(ascii: "}")],
            [quote, 0x5C, UInt8(ascii: "n"), 0xFF, quote],
            Array(String(repeating: "[", count: 513).utf8) + Array(String(repeating: "]", count: 513).utf8),
            Array(String(repeating: "[", count: 512).utf8) + Array(String(repeating: "]", count: 512).utf8),
        ]
        for sample in samples {
            let label = String(decoding: sample, as: UTF8.self).debugDescription + " \(sample.prefix(8))"
            var parsed: JSONValue?
            var parseFailed = false
            do { parsed = try JSONParser.parse(sample) } catch { parseFailed = true }
            do {
                let range = try skipDocument(sample)
                XCTAssertFalse(parseFailed, "skipValue accepted what parse rejects: \(label)")
                if let parsed {
                    // The range holds exactly the value: parsing the slice gives the same value.
                    XCTAssertEqual(try? JSONParser.parse(Array(sample[range])), parsed, label)
                }
            } catch {
                XCTAssertTrue(parseFailed, "skipValue rejected what parse accepts (\(error)): \(label)")
            }
        }
    }

    // MARK: - forEachMember / forEachElement

    func testForEachMember() throws {
        let bytes = Array(#" {"id": "81813683218", "skip": {"x": [1, 2, {"y": "}"}]}, "esc\u0061ped": 7, "n": null} "#.utf8)
        var keys: [String] = []
        var id: String?
        var escaped: JSONValue?
        var valueStarts: [UInt8] = []
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            var parser = JSONParser(buffer)
            try parser.forEachMember { (key, valueStart, parser) throws(JSONParseError) in
                keys.append(key)
                valueStarts.append(buffer[valueStart])
                switch key {
                case "id": id = try parser.parseValue().stringValue
                case "escaped": escaped = try parser.parseValue()
                default: break  // left for forEachMember to skip
                }
            }
            try parser.expectEnd()
        }
        XCTAssertEqual(keys, ["id", "skip", "escaped", "n"])
        XCTAssertEqual(id, "81813683218")
        XCTAssertEqual(escaped, .number("7"))
        XCTAssertEqual(valueStarts, Array("\"{7n".utf8))
    }

    func testForEachMemberEmptyAndErrors() {
        for (text, shouldThrow) in [("{}", false), (" { } ", false), ("[]", true), (#"{"a":1"#, true), (#"{"a":1,}"#, true),
                                    (#"{"a" 1}"#, true), (#"{"a":tru}"#, true), (#"{"a":[1,}"#, true)] {
            var count = 0
            let threw: Bool = Array(text.utf8).withUnsafeBufferPointer { buffer in
                var parser = JSONParser(buffer)
                do {
                    try parser.forEachMember { _, _, _ in count += 1 }
                    try parser.expectEnd()
                    return false
                } catch {
                    return true
                }
            }
            XCTAssertEqual(threw, shouldThrow, text)
            if !shouldThrow { XCTAssertEqual(count, 0, text) }
        }
    }

    func testForEachElement() throws {
        let bytes = Array(#"[ {"productId": "1"}, 2, "three", [4, [5]], {"productId": "6"} ]"#.utf8)
        var starts: [Int] = []
        var ids: [String] = []
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            var parser = JSONParser(buffer)
            try parser.forEachElement { (start, parser) throws(JSONParseError) in
                starts.append(start)
                if buffer[start] == UInt8(ascii: "{") {
                    try parser.forEachMember { (key, _, parser) throws(JSONParseError) in
                        if key == "productId", let id = try parser.parseValue().stringValue { ids.append(id) }
                    }
                }
                // other elements are left for forEachElement to skip
            }
            try parser.expectEnd()
        }
        XCTAssertEqual(ids, ["1", "6"])
        XCTAssertEqual(starts.map { bytes[$0] }, Array("{2\"[{".utf8))

        // Element ranges by hand with skipValue.
        var slices: [String] = []
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            var parser = JSONParser(buffer)
            try parser.forEachElement { (_, parser) throws(JSONParseError) in
                let range = try parser.skipValue()
                slices.append(String(decoding: buffer[range], as: UTF8.self))
            }
        }
        XCTAssertEqual(slices, [#"{"productId": "1"}"#, "2", "\"three\"", "[4, [5]]", #"{"productId": "6"}"#])
    }

    func testForEachElementEmptyAndErrors() {
        for (text, shouldThrow) in [("[]", false), ("[ ]", false), ("{}", true), ("[1,", true), ("[1,]", true), ("[1 2]", true), ("[\"a]", true)] {
            var count = 0
            let threw: Bool = Array(text.utf8).withUnsafeBufferPointer { buffer in
                var parser = JSONParser(buffer)
                do {
                    try parser.forEachElement { _, _ in count += 1 }
                    try parser.expectEnd()
                    return false
                } catch {
                    return true
                }
            }
            XCTAssertEqual(threw, shouldThrow, text)
            if !shouldThrow { XCTAssertEqual(count, 0, text) }
        }
    }

    // MARK: - JSONWriter

    func testWriterCompact() {
        let value = obj(["a": .array([.number("1"), .number("-2.5e3"), .null, .bool(true), .bool(false)]), "b": .string("x"),
                         "c": .object(JSONObject()), "d": .array([])])
        XCTAssertEqual(JSONWriter.string(value), #"{"a":[1,-2.5e3,null,true,false],"b":"x","c":{},"d":[]}"#)
        XCTAssertEqual(JSONWriter.string(.number("12345678901234567890")), "12345678901234567890")
        XCTAssertEqual(JSONWriter.serialize(.string("a")), Array("\"a\"".utf8))
    }

    func testWriterPrettyLayout() {
        let value = obj(["a": .array([.number("1"), .number("2")]), "b": .object(JSONObject()), "c": .array([]),
                         "d": obj(["e": .string("f"), "g": .array([obj(["h": .null])])])])
        let expected = """
        {
          "a": [
            1,
            2
          ],
          "b": {},
          "c": [],
          "d": {
            "e": "f",
            "g": [
              {
                "h": null
              }
            ]
          }
        }
        """
        XCTAssertEqual(JSONWriter.string(value, pretty: true), expected)
        XCTAssertEqual(JSONWriter.string(.array([]), pretty: true), "[]")
        XCTAssertEqual(JSONWriter.string(.object(JSONObject()), pretty: true), "{}")
        XCTAssertEqual(JSONWriter.string(.string("x"), pretty: true), "\"x\"")
        // No line has trailing spaces; every indent is a multiple of two spaces.
        for line in JSONWriter.string(value, pretty: true).split(separator: "\n") {
            XCTAssertFalse(line.hasSuffix(" "), String(line))
            XCTAssertEqual(line.prefix { $0 == " " }.count % 2, 0, String(line))
        }
    }

    func testWriterEscapes() {
        func written(_ s: String) -> String { JSONWriter.string(.string(s)) }
        XCTAssertEqual(written("a\"b"), #""a\"b""#)
        XCTAssertEqual(written("a\\b"), #""a\\b""#)
        XCTAssertEqual(written("/"), #""/""#)
        XCTAssertEqual(written("\n\r\t\u{8}\u{C}"), #""\n\r\t\b\f""#)
        XCTAssertEqual(written("\u{0}").lowercased(), #""\u0000""#)
        XCTAssertEqual(written("\u{1}").lowercased(), #""\u0001""#)
        XCTAssertEqual(written("\u{1B}[31m").lowercased(), #""\u001b[31m""#)
        XCTAssertEqual(written("\u{1F}").lowercased(), #""\u001f""#)
        XCTAssertEqual(written("a\u{7F}b").lowercased(), #""a\u007fb""#)
        XCTAssertEqual(written("\u{80}").lowercased(), #""\u0080""#)
        XCTAssertEqual(written("x\u{85}y").lowercased(), #""x\u0085y""#)
        XCTAssertEqual(written("\u{9B}31m").lowercased(), #""\u009b31m""#)
        XCTAssertEqual(written("\u{9F}").lowercased(), #""\u009f""#)
        XCTAssertEqual(written("abc\u{202E}def").lowercased(), #""abc\u202edef""#)
        XCTAssertEqual(written("\u{2066}x\u{2069}").lowercased(), #""\u2066x\u2069""#)
        XCTAssertEqual(written("a\u{2028}b\u{2029}c").lowercased(), #""a\u2028b\u2029c""#)
        XCTAssertEqual(written("\u{200E}\u{200F}\u{061C}").lowercased(), #""\u200e\u200f\u061c""#)
        XCTAssertEqual(written("\u{202A}\u{202B}\u{202C}\u{202D}").lowercased(), #""\u202a\u202b\u202c\u202d""#)
        // Neighbours of the escaped ranges stay raw.
        XCTAssertEqual(written("\u{A0}é\u{2027}\u{202F}\u{2065}\u{206A}"), "\"\u{A0}é\u{2027}\u{202F}\u{2065}\u{206A}\"")
        // Korean and emoji are written raw, as UTF-8.
        XCTAssertEqual(written("방충망 😀 👨‍👩‍👧 🇰🇷"), "\"방충망 😀 👨‍👩‍👧 🇰🇷\"")
        XCTAssertEqual(JSONWriter.serialize(.string("가")), [0x22, 0xEA, 0xB0, 0x80, 0x22])
        // Keys are escaped like values.
        XCTAssertEqual(JSONWriter.string(obj(["k\"\u{202E}": .null])).lowercased(), #"{"k\"\u202e":null}"#)
    }

    func testWriterOutputHasNoRawDangerousCharacters() {
        var all = ""
        for v in UInt32(0)...0x2100 { if let s = Unicode.Scalar(v) { all.unicodeScalars.append(s) } }
        let text = JSONWriter.string(.string(all))
        for scalar in text.unicodeScalars {
            let v = scalar.value
            XCTAssertFalse(v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x061C || v == 0x200E || v == 0x200F
                           || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v),
                           "U+\(String(v, radix: 16)) written raw")
        }
        XCTAssertEqual(try JSONParser.parse(text), .string(all))
    }

    func testRoundTrip() throws {
        var strings = ["", "plain", "방충망 미세먼지 롤", "😀👍🏽🇰🇷", "a\"b\\c/d", "\u{0}\u{1}\u{1F}\u{7F}", "\u{80}\u{85}\u{9B}\u{9F}",
                       "\u{202E}evil\u{202C}", "\u{2066}\u{2067}\u{2068}\u{2069}", "\u{2028}\u{2029}", "\u{200E}\u{200F}\u{061C}",
                       "tab\there\nnew\rline", "\u{FFFD}", "\u{10FFFF}", "P&amp;G <b>x</b>", "e\u{301}", String(repeating: "가나다", count: 500)]
        // Every scalar below U+0800 on its own.
        for v in UInt32(0)..<0x800 { strings.append(String(Unicode.Scalar(v)!)) }
        var values: [JSONValue] = [.null, .bool(true), .bool(false), .number("0"), .number("-1"), .number("3.25"), .number("-1.5E-7"),
                                   .number("123456789012345678901234567890"), .array([]), .object(JSONObject())]
        values += strings.map(JSONValue.string)
        var keyed = JSONObject()
        for (i, s) in strings.prefix(40).enumerated() { keyed[s + "#\(i)"] = .string(s) }
        values.append(.object(keyed))
        values.append(.array(values))
        values.append(obj(["items": .array([obj(["title": .string("<b>후드티</b>"), "lprice": .string("19800"), "n": .number("1")])]),
                           "nested": .array([.array([.array([.object(JSONObject())])])])]))
        for value in values {
            for pretty in [false, true] {
                let bytes = JSONWriter.serialize(value, pretty: pretty)
                XCTAssertEqual(try JSONParser.parse(bytes), value, "pretty=\(pretty) \(String(decoding: bytes.prefix(80), as: UTF8.self))")
            }
        }
    }

    func testWriterAppendsToExistingBytes() {
        var writer = JSONWriter(pretty: false, capacity: 64)
        writer.append("[")
        writer.write(.string("a"))
        writer.append(",")
        writer.write(.number("1"))
        writer.append("]")
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"["a",1]"#)
    }

    func testAppendRawReindentsLikeTheWriter() throws {
        let values: [JSONValue] = [
            try JSONParser.parse(#"{"a":[1,{"b":[]},{}],"c":"x,\"y\":{[","d":null,"e":{"f":[true,false]}}"#),
            .array([]), .object(JSONObject()), .string("plain"),
        ]
        for value in values {
            for pretty in [false, true] {
                var writer = JSONWriter(pretty: pretty)
                writer.appendRaw(ArraySlice(JSONWriter.serialize(value, pretty: !pretty)))
                XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), JSONWriter.string(value, pretty: pretty))
            }
        }
    }
}
