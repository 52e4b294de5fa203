// Tests for Sources/ShopYCore/JSON: JSONParser (parse, skipValue, forEachMember/forEachElement)
// and JSONWriter (compact and pretty output, escaping, round trips).

import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class JSONTests: XCTestCase {

    // MARK: - Helpers

    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        do {
            return try JSONParser.parse(text)
        } catch {
            XCTFail("parse(\(text.debugDescription)) threw \(error)", file: file, line: line)
            return nil
        }
    }

    /// The error parse throws for `bytes`, or nil (with a failure) when it does not throw.
    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        do {
            let value = try JSONParser.parse(bytes)
            XCTFail("parse(\(String(decoding: bytes, as: UTF8.self).debugDescription)) should throw, gave \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        parseError(Array(text.utf8), file: file, line: line)
    }

    private func assertError(_ text: String, _ reason: JSONParseError.Reason, at offset: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        assertError(Array(text.utf8), reason, at: offset, file: file, line: line)
    }

    private func assertError(_ bytes: [UInt8], _ reason: JSONParseError.Reason, at offset: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let error = parseError(bytes, file: file, line: line) else { return }
        XCTAssertEqual(error.reason, reason, "reason for \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
        XCTAssertEqual(error.offset, offset, "offset for \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
    }

    /// skipValue then expectEnd over the whole document; the range of the value.
    private func skipDocument(_ bytes: [UInt8]) throws(JSONParseError) -> Range<Int> {
        let result: Result<Range<Int>, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) {
                let range = try parser.skipValue()
                try parser.expectEnd()
                return .success(range)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func obj(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue { .object(JSONObject(pairs)) }

    // MARK: - Parsing valid documents

    func testParseScalars() {
        XCTAssertEqual(parse("null"), .null)
        XCTAssertEqual(parse("true"), .bool(true))
        XCTAssertEqual(parse("false"), .bool(false))
        XCTAssertEqual(parse("0"), .number("0"))
        XCTAssertEqual(parse("\"\""), .string(""))
        XCTAssertEqual(parse(" \t\r\n 42 \n"), .number("42"))
    }

    func testParseNested() {
        let text = #"{"a": [1, {"b": null, "c": [true, false, []]}, "x"], "d": {}, "e": {"f": {"g": [[[]]]}}}"#
        let expected = obj([
            "a": .array([.number("1"), obj(["b": .null, "c": .array([.bool(true), .bool(false), .array([])])]), .string("x")]),
            "d": .object(JSONObject()),
            "e": obj(["f": obj(["g": .array([.array([.array([])])])])]),
        ])
        XCTAssertEqual(parse(text), expected)
        XCTAssertEqual(parse(text)?["e"]?["f"]?["g"], .array([.array([.array([])])]))
    }

    func testParseKeepsKeyOrderAndDuplicates() throws {
        let value = try XCTUnwrap(parse(#"{"z": 1, "a": 2, "m": 3}"#))
        XCTAssertEqual(value.objectValue?.keys, ["z", "a", "m"])
        XCTAssertEqual(value.objectValue?.values, [.number("1"), .number("2"), .number("3")])
    }

    func testParseNumbersKeepTheirText() {
        XCTAssertEqual(parse("12345678901234567890123456789"), .number("12345678901234567890123456789"))
        XCTAssertEqual(parse("81813683218"), .number("81813683218"))
        XCTAssertEqual(parse("-0"), .number("-0"))
        XCTAssertEqual(parse("-17"), .number("-17"))
        XCTAssertEqual(parse("-1.5e-10"), .number("-1.5e-10"))
        XCTAssertEqual(parse("1E+300"), .number("1E+300"))
        XCTAssertEqual(parse("2.50"), .number("2.50"))
        XCTAssertEqual(parse("0.0e0"), .number("0.0e0"))
        XCTAssertEqual(parse("[-9223372036854775809]"), .array([.number("-9223372036854775809")]))
        // A big integer survives where Int would not.
        XCTAssertNil(parse("99999999999999999999")?.intValue)
        XCTAssertEqual(parse("99999999999999999999")?.textValue, "99999999999999999999")
        XCTAssertEqual(parse("19800")?.intValue, 19800)
    }

    func testParseStringEscapes() {
        XCTAssertEqual(parse(#""a\"b\\c\/d\be\ff\ng\rh\ti""#), .string("a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti"))
        XCTAssertEqual(parse(#""https:\/\/smartstore.naver.com\/main""#), .string("https://smartstore.naver.com/main"))
        XCTAssertEqual(parse(#""\u0041\u00e9\uAC00\uac00""#), .string("Aé가가"))
        XCTAssertEqual(parse(#""\u0000""#), .string("\u{0}"))
        // Surrogate pairs become one scalar.
        XCTAssertEqual(parse(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(parse(#""x\ud83d\ude00y""#), .string("x😀y"))
        XCTAssertEqual(parse(#""\uD834\uDD1E""#), .string("\u{1D11E}"))
        // Lone surrogates are replaced, never crash or produce invalid strings.
        XCTAssertEqual(parse(#""\uD800""#), .string("\u{FFFD}"))
        XCTAssertEqual(parse(#""\uDC00x""#), .string("\u{FFFD}x"))
        XCTAssertEqual(parse(#""\uD800\u0041""#), .string("\u{FFFD}A"))
        // Raw UTF-8 stays as is, with or without escapes around it.
        XCTAssertEqual(parse("\"방충망 😀\""), .string("방충망 😀"))
        XCTAssertEqual(parse("\"방충망\\n😀\""), .string("방충망\n😀"))
        // DEL is legal raw in JSON.
        XCTAssertEqual(parse("\"a\u{7F}b\""), .string("a\u{7F}b"))
    }

    func testParseKeysWithEscapes() {
        XCTAssertEqual(parse(#"{"\u0061b": 1, "c\"d": 2}"#)?.objectValue?.keys, ["ab", "c\"d"])
    }

    // MARK: - Parse errors

    func testEmptyInput() {
        assertError("", .empty, at: 0)
        assertError("  \n\t", .empty, at: 4)
        XCTAssertEqual(parseError("")?.description, "it is empty")
    }

    func testTruncatedInput() {
        assertError(#"{"a":"#, .truncated, at: 5)
        assertError("[1,2", .truncated, at: 4)
        assertError(#""abc"#, .truncated, at: 4)
        assertError("{", .truncated, at: 1)
        assertError("[", .truncated, at: 1)
        assertError(#"{"a""#, .truncated, at: 4)
        assertError(#"{"a":1"#, .truncated, at: 6)
        assertError(#"{"a":1,"#, .truncated, at: 7)
        assertError("[1,", .truncated, at: 3)
        assertError("tru", .truncated, at: 3)
        assertError("nul", .truncated, at: 3)
        assertError("-", .truncated, at: 1)
        assertError("1.", .truncated, at: 2)
        assertError("1e", .truncated, at: 2)
        assertError("1e+", .truncated, at: 3)
        assertError(#""ab\"#, .truncated, at: 4)
        assertError(#""\u12"#, .truncated, at: 3)
        assertError(#""x\n"#, .truncated, at: 4)
        XCTAssertTrue(parseError("[1,2")?.description.contains("truncated") ?? false)
    }

    func testTrailingData() {
        assertError("{} x", .trailingData, at: 3)
        assertError("1 2", .trailingData, at: 2)
        assertError("[]]", .trailingData, at: 2)
        assertError("null,", .trailingData, at: 4)
        assertError("\"a\"\"b\"", .trailingData, at: 3)
        XCTAssertEqual(parseError("{} x")?.description, "unexpected data after the end at byte 3")
    }

    func testRawControlCharacterInString() {
        assertError("\"a\u{1}b\"", .invalidString("raw control character"), at: 2)
        assertError("\"a\nb\"", .invalidString("raw control character"), at: 2)
        assertError("\"a\tb\"", .invalidString("raw control character"), at: 2)
        // Also after an escape (the slow path).
        assertError("\"\\n\u{0}\"", .invalidString("raw control character"), at: 3)
    }

    func testInvalidUTF8() {
        let quote = UInt8(ascii: "\"")
        assertError([quote, 0xFF, quote], .invalidString("not valid UTF-8"), at: 1)
        assertError([quote, 0x61, 0xC3, quote], .invalidString("not valid UTF-8"), at: 1)          // lead byte cut short
        assertError([quote, 0xC0, 0xAF, quote], .invalidString("not valid UTF-8"), at: 1)          // overlong "/"
        assertError([quote, 0xED, 0xA0, 0x80, quote], .invalidString("not valid UTF-8"), at: 1)    // encoded surrogate
        assertError([quote, 0xF4, 0x90, 0x80, 0x80, quote], .invalidString("not valid UTF-8"), at: 1)  // > U+10FFFF
        assertError([quote, 0x5C, 0x6E, 0x80, quote], .invalidString("not valid UTF-8"), at: 1)    // slow path
        XCTAssertNotNil(parseError([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))  // a BOM is not JSON
    }

    func testBadEscapes() {
        assertError(#""\x""#, .invalidString("bad escape"), at: 2)
        assertError(#""ab\'""#, .invalidString("bad escape"), at: 4)
        assertError(#""\U0041""#, .invalidString("bad escape"), at: 2)
        assertError(#""\u12G4""#, .invalidString("bad \\u escape"), at: 5)
        assertError(#""\u{41}""#, .invalidString("bad \\u escape"), at: 3)
    }

    func testLeadingZerosAndBadNumbers() {
        // "01" is not a JSON number: it must fail, and point at the second digit.
        XCTAssertEqual(parseError("01")?.offset, 1)
        XCTAssertEqual(parseError("-01")?.offset, 2)
        XCTAssertEqual(parseError("00")?.offset, 1)
        assertError("[01]", .unexpected("'1'"), at: 2)
        assertError(#"{"a":007}"#, .unexpected("'0'"), at: 6)
        assertError("-a", .invalidNumber, at: 0)
        assertError("1.e5", .invalidNumber, at: 0)
        assertError("1.5e-x", .invalidNumber, at: 0)
        assertError("+1", .unexpected("'+'"), at: 0)
        assertError(".5", .unexpected("'.'"), at: 0)
        assertError("[1,]", .unexpected("']'"), at: 3)
        assertError(#"{"a":1,}"#, .unexpected("'}'"), at: 7)
        assertError("{a:1}", .unexpected("'a'"), at: 1)
        assertError("[1 2]", .unexpected("'2'"), at: 3)
        assertError("truth", .unexpected("'t'"), at: 3)
        assertError("nulL", .unexpected("'L'"), at: 3)
        assertError("NaN", .unexpected("'N'"), at: 0)
        assertError("[\u{1}]", .unexpected("byte 0x1"), at: 1)
    }

    func testNestingLimit() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNoThrow(try JSONParser.parse(deepest))
        XCTAssertNoThrow(try skipDocument(Array(deepest.utf8)))

        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertError(tooDeep, .tooDeep, at: 512)
        let objects = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        XCTAssertEqual(parseError(objects)?.reason, .tooDeep)

        // A hostile input does not crash the parser (no stack overflow) and fails cleanly.
        let hostile = Array(String(repeating: "[", count: 100_000).utf8)
        XCTAssertEqual(parseError(hostile)?.reason, .tooDeep)
        do throws(JSONParseError) {
            _ = try skipDocument(hostile)
            XCTFail("skipValue should reject 100,000 nested arrays")
        } catch {
            XCTAssertEqual(error.reason, .tooDeep)
        }
    }

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
}
