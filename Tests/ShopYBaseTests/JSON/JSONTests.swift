// Tests for Sources/ShopYCore/JSON: JSONParser (parse, skipValue, forEachMember/forEachElement)
// and JSONWriter (compact and pretty output, escaping, round trips).

import XCTest
@testable import ShopYBase

final class JSONTests: XCTestCase {

    // MARK: - Helpers

    func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        do {
            return try JSONParser.parse(text)
        } catch {
            XCTFail("parse(\(text.debugDescription)) threw \(error)", file: file, line: line)
            return nil
        }
    }

    /// The error parse throws for `bytes`, or nil (with a failure) when it does not throw.
    func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        do {
            let value = try JSONParser.parse(bytes)
            XCTFail("parse(\(String(decoding: bytes, as: UTF8.self).debugDescription)) should throw, gave \(value)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
        parseError(Array(text.utf8), file: file, line: line)
    }

    func assertError(_ text: String, _ reason: JSONParseError.Reason, at offset: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        assertError(Array(text.utf8), reason, at: offset, file: file, line: line)
    }

    func assertError(_ bytes: [UInt8], _ reason: JSONParseError.Reason, at offset: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let error = parseError(bytes, file: file, line: line) else { return }
        XCTAssertEqual(error.reason, reason, "reason for \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
        XCTAssertEqual(error.offset, offset, "offset for \(String(decoding: bytes, as: UTF8.self).debugDescription)", file: file, line: line)
    }

    /// skipValue then expectEnd over the whole document; the range of the value.
    func skipDocument(_ bytes: [UInt8]) throws(JSONParseError) -> Range<Int> {
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

    func obj(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue { .object(JSONObject(pairs)) }

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

}
