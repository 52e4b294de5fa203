// `likes import` holds each like to what an answer from the network may bring (FieldLimits, as
// the mapper applies them: texts cut, an overlong URL left out, four levels of categories) and
// its likedAt to a UTC time as shopy writes it; its numbers are read exactly (`1e3` is 1000,
// 9223372036854775808 is out of range, not "non-integer"). Both ways through an import are
// covered: the fast one (likes in the stored shape) and the strict one (any other shape).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesImportFieldTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home] }

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-import-fields-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
        super.tearDown()
    }

    func shopy(_ arguments: [String], stdin: String = "") async -> CLIRun {
        let io = IO.capture(environment: env, stdin: Array(stdin.utf8))
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    /// A like in the stored shape (every key, in order: the fast way), with `fields` replacing
    /// the value of each key named (their JSON text).
    func stored(_ id: String, _ fields: [String: String] = [:]) -> String {
        let keys = ["productId", "title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image", "likedAt", "likedPrice"]
        let values: [String: String] = [
            "productId": "\"\(id)\"", "title": "\"상품 \(id)\"", "price": "1000", "highPrice": "null", "mall": "\"몰\"", "brand": "null",
            "maker": "null", "categories": "[\"생활/건강\"]", "productType": "2", "link": "\"https://example.com/\(id)\"", "image": "null",
            "likedAt": "\"2026-12-01T00:00:00Z\"", "likedPrice": "1000",
        ]
        return "{" + keys.map { "\"\($0)\":\(fields[$0] ?? values[$0]!)" }.joined(separator: ",") + "}"
    }

    /// The same like with its keys in another order (the strict way).
    func loose(_ id: String, _ fields: [String: String] = [:]) -> String {
        var values = ["title": "\"상품 \(id)\"", "price": "1000", "likedAt": "\"2026-12-01T00:00:00Z\"", "productId": "\"\(id)\""]
        for (key, value) in fields { values[key] = value }
        return "{" + values.keys.sorted().map { "\"\($0)\":\(values[$0]!)" }.joined(separator: ",") + "}"
    }

    func likes() async throws -> [JSONValue] {
        let run = await shopy(["likes", "--json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        return try XCTUnwrap(JSONParser.parse(run.stdout)["items"]?.arrayValue, run.stdout)
    }

    // MARK: - Field limits

    func testOverlongFieldsAreBoundedAsAnAnswersAre() async throws {
        let title = "\"" + String(repeating: "가", count: 100_000) + "\""
        let mall = "\"" + String(repeating: "m", count: 5_000) + "\""
        let link = "\"https://example.com/" + String(repeating: "x", count: 5_000) + "\""
        let categories = "[" + (0..<100_000).map { "\"c\($0)\"" }.joined(separator: ",") + "]"
        for shape in ["stored", "loose"] {
            let make = shape == "stored" ? stored : loose
            let fields = ["title": title, "mall": mall, "link": link, "image": link, "categories": categories]
            let file = "[" + make("11", fields) + "," + make("12", [:]) + "]"
            let run = await shopy(["likes", "import", "-"], stdin: file)
            XCTAssertEqual(run.code, 0, "\(shape): \(run.stderr)")
            let items = try await likes()
            let big = try XCTUnwrap(items.first { $0["productId"]?.stringValue == "11" }, shape)
            XCTAssertEqual(big["title"]?.stringValue, String(repeating: "가", count: FieldLimits.title), shape)
            XCTAssertEqual(big["mall"]?.stringValue, String(repeating: "m", count: FieldLimits.shopText), shape)
            XCTAssertEqual(big["link"], .null, "\(shape): a URL past 2,048 bytes is left out")
            XCTAssertEqual(big["image"], .null, shape)
            XCTAssertEqual(big["categories"]?.arrayValue?.compactMap(\.stringValue), ["c0", "c1", "c2", "c3"], "\(shape): four levels of categories")
            let small = try XCTUnwrap(items.first { $0["productId"]?.stringValue == "12" }, shape)
            XCTAssertEqual(small["title"]?.stringValue, "상품 12", "\(shape): a like within the bounds is kept as it is")
            // What is stored is bounded too, so the store stays small.
            var size = 0
            for name in ["likes.json", "likes.journal"] { size += (try? FileManager.default.attributesOfItem(atPath: home + "/" + name)[.size] as? Int) ?? 0 }
            XCTAssertLessThan(size, 16_000, shape)
            let clear = await shopy(["likes", "clear", "--yes"])
            XCTAssertEqual(clear.code, 0, clear.stderr)
        }
    }

    func testALikeAtTheBoundsIsCopiedAsItIs() {
        let within = Array(stored("1", ["title": "\"" + String(repeating: "t", count: FieldLimits.title) + "\""]).utf8)
        let past = Array(stored("1", ["title": "\"" + String(repeating: "t", count: FieldLimits.title + 1) + "\""]).utf8)
        let five = Array(stored("1", ["categories": "[\"a\",\"b\",\"c\",\"d\",\"e\"]"]).utf8)
        XCTAssertEqual(try LikeCollection.checkRaw(within[...]).withinFieldLimits, true)
        XCTAssertEqual(try LikeCollection.checkRaw(past[...]).withinFieldLimits, false)
        XCTAssertEqual(try LikeCollection.checkRaw(five[...]).withinFieldLimits, false)
        XCTAssertEqual(try LikeCollection.checkRaw(Array(stored("1").utf8)[...]).withinFieldLimits, true)
    }

    // MARK: - likedAt

    func testALikedAtThatIsNotAUTCTimeAsShopyWritesItRefusesTheImport() async throws {
        let first = await shopy(["likes", "import", "-"], stdin: "[" + stored("1") + "]")
        XCTAssertEqual(first.code, 0, first.stderr)
        let before = try await likes()
        for time in ["yesterday", "2026-01-01T09:00:00+09:00", "2026-02-30T00:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.123Z", "2026-1-01T00:00:00Z"] {
            for shape in ["stored", "loose"] {
                let make = shape == "stored" ? stored : loose
                let file = "[" + make("2", [:]) + "," + make("3", ["likedAt": "\"\(time)\""]) + "]"
                let run = await shopy(["likes", "import", "-"], stdin: file)
                XCTAssertEqual(run.code, 65, "\(time) \(shape): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("cannot import stdin: like 2 has a \"likedAt\" that is not a UTC time as shopy writes it (yyyy-mm-ddThh:mm:ssZ): '\(time)'"),
                              "\(time) \(shape): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("nothing was changed"), run.stderr)
            }
        }
        let after = try await likes()
        XCTAssertEqual(after, before, "nothing was imported")
        // A missing or null likedAt is the import's time, as before; a stored one is kept.
        let run = await shopy(["likes", "import", "-"], stdin: "[" + loose("4", ["likedAt": "null"]) + "," + stored("5", ["likedAt": "\"2024-02-29T23:59:59Z\""]) + "]")
        XCTAssertEqual(run.code, 0, run.stderr)
        let items = try await likes()
        XCTAssertEqual(items.first { $0["productId"]?.stringValue == "5" }?["likedAt"]?.stringValue, "2024-02-29T23:59:59Z")
        XCTAssertTrue(Like.isStoredTime(try XCTUnwrap(items.first { $0["productId"]?.stringValue == "4" }?["likedAt"]?.stringValue)))
    }

    // MARK: - Numbers

    func testNumbersAreReadExactly() async throws {
        for (price, problem) in [("9223372036854775808", "like 1 has a \"price\" out of range (the largest is 9223372036854775807)"),
                                 ("1e30", "like 1 has a \"price\" out of range (the largest is 9223372036854775807)"),
                                 ("1.5", "like 1 has a non-integer \"price\""), ("-5", "like 1 has a negative \"price\"")] {
            let run = await shopy(["likes", "import", "-"], stdin: "[" + stored("1", ["price": price]) + "]")
            XCTAssertEqual(run.code, 65, price)
            XCTAssertTrue(run.stderr.contains(problem), "\(price): \(run.stderr)")
        }
        // A whole number written with an exponent or a fraction is that number, stored as digits.
        let run = await shopy(["likes", "import", "-"], stdin: "[" + stored("1", ["price": "1e3", "likedPrice": "1.25E3"]) + "," + loose("2", ["price": "990.0"]) + "]")
        XCTAssertEqual(run.code, 0, run.stderr)
        let items = try await likes()
        XCTAssertEqual(items.first { $0["productId"]?.stringValue == "1" }?["price"]?.intValue, 1000)
        XCTAssertEqual(items.first { $0["productId"]?.stringValue == "2" }?["price"]?.intValue, 990)
        let stored = String(decoding: FileManager.default.contents(atPath: home + "/likes.json") ?? Data(), as: UTF8.self)
        XCTAssertTrue(stored.contains("\"price\":1000,") && stored.contains("\"likedPrice\":1250}"), stored)
        // The store's own check names an overflow as such too (damage in likes.json).
        XCTAssertThrowsError(try LikeCollection.checkRaw(Array(self.stored("1", ["price": "99999999999999999999"]).utf8)[...])) { error in
            XCTAssertEqual((error as? StoredValueError)?.problem, "has a \"price\" out of range (the largest is 9223372036854775807)")
        }
    }

    func testWholeNumberExactly() {
        let cases: [(String, WholeNumber.Exact?)] = [
            ("0", .whole(0)), ("-0", .whole(0)), ("1000", .whole(1000)), ("1e3", .whole(1000)), ("1E+3", .whole(1000)), ("1.5e3", .whole(1500)),
            ("1000.000", .whole(1000)), ("12300e-2", .whole(123)), ("0.0e999999999999", .whole(0)), ("9223372036854775807", .whole(.max)),
            ("-9223372036854775808", .whole(.min)), ("9223372036854775808", .outOfRange), ("-9223372036854775809", .outOfRange),
            ("1e19", .outOfRange), ("1e999999999999", .outOfRange), ("9007199254740993", .whole(9_007_199_254_740_993)),
            ("1.5", .fraction), ("1e-3", .fraction), ("123e-2", .fraction), ("1e-999999999999", .fraction),
            ("", nil), ("-", nil), ("1.", nil), (".5", nil), ("1e", nil), ("1e+", nil), ("0x10", nil), ("1 ", nil), ("+1", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(WholeNumber.exactly(jsonNumber: text), expected, text)
        }
    }
}
