import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// state.json's history and last listing on shopy's own JSON: the bytes Codable wrote, read as
/// Codable read them, and refused where and in the words Codable refused them.
final class StateCodecTests: XCTestCase {
    private let listing = LastListing(command: "search 방충망 (page 2)", savedAt: "2026-12-01T00:00:00Z", rows: [
        LastListing.Row(row: "1", product: Product(productId: "88159546540", title: "창문 방충망 \"롤\" 50/50", price: 12_900, highPrice: 20_000,
                                                    mall: "몰", brand: "브랜드", maker: "제조사", categories: ["생활/건강", "생활용품"], productType: 1,
                                                    link: "https://smartstore.naver.com/main/products/1", image: "https://shopping-phinf.pstatic.net/a.jpg")),
        LastListing.Row(row: "2.3", product: Product(productId: "1", title: "", categories: [])),
    ])
    private let history = [HistoryEntry(query: "방충망", at: "2026-12-01T00:00:00Z"), HistoryEntry(query: "a\\b/c", at: "2026-11-30T23:59:59Z")]

    private func codable<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    func testTheBytesAreWhatCodableWrote() throws {
        XCTAssertEqual(String(decoding: Optional(listing).encodeStored(), as: UTF8.self), String(decoding: try codable(listing), as: UTF8.self))
        XCTAssertEqual(String(decoding: history.encodeStored(), as: UTF8.self), String(decoding: try codable(history), as: UTF8.self))
        XCTAssertEqual(String(decoding: LastListing?.none.encodeStored(), as: UTF8.self), "null")
        XCTAssertEqual([HistoryEntry]().encodeStored(), Array("[]".utf8))
    }

    func testWhatCodableWroteReadsTheSameAndBack() throws {
        XCTAssertEqual(try LastListing?.decodeStored(try codable(listing)[...]), listing)
        XCTAssertEqual(try [HistoryEntry].decodeStored(try codable(history)[...]), history)
        XCTAssertEqual(try LastListing?.decodeStored(Array("null".utf8)[...]), nil)
        XCTAssertEqual(try JSONDecoder().decode(LastListing.self, from: Data(Optional(listing).encodeStored())), listing)
        // Other writers: whitespace, other key orders, explicit nulls, integral numbers in other spellings.
        let edited = #" { "savedAt":"t", "rows":[ {"row":"1","product":{"title":"x","productId":"2","categories":[],"price":12.0,"mall":null,"extra":1}} ], "command":"c" } "#
        let decoded = try XCTUnwrap(try LastListing?.decodeStored(Array(edited.utf8)[...]))
        XCTAssertEqual(decoded, try JSONDecoder().decode(LastListing.self, from: Data(edited.utf8)))
        XCTAssertEqual(decoded.rows.first?.product.price, 12)
    }

    func testDamageIsRefusedWhereAndAsCodableRefusedIt() throws {
        let product = #""productId":"2","title":"x","categories":[]"#
        let listings = [
            #"{"command":"c","savedAt":"t"}"#,                                           // no rows
            #"{"command":"c","savedAt":"t","rows":{}}"#,                                 // rows not a list
            #"{"command":1,"savedAt":"t","rows":[]}"#,                                   // command not a string
            #"{"command":"c","savedAt":null,"rows":[]}"#,                                // a required null
            #"{"command":"c","savedAt":"t","rows":[7]}"#,                                // a row not an object
            #"{"command":"c","savedAt":"t","rows":[{"row":"1"}]}"#,                      // no product
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{"productId":"2","title":"x"}}]}"#,  // no categories
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{"productId":"2","categories":[]}}]}"#,  // no title
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{\#(product),"price":"12"}}]}"#,
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{\#(product),"price":1.5}}]}"#,
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{\#(product),"mall":3}}]}"#,
            #"{"command":"c","savedAt":"t","rows":[{"row":"1","product":{"productId":"2","title":"x","categories":["a",4]}}]}"#,
            #"[1]"#, #""text""#,
        ]
        func compare<T: Decodable>(_ text: String, _ type: T.Type, _ ours: (ArraySlice<UInt8>) throws(StoredValueError) -> T) {
            let expected: String
            do {
                _ = try JSONDecoder().decode(T.self, from: Data(text.utf8))
                return XCTFail("Codable read \(text)")
            } catch {
                expected = Session.describe(error)
            }
            do {
                _ = try ours(Array(text.utf8)[...])
                XCTFail("read \(text)")
            } catch {
                XCTAssertEqual(error.problem, expected, text)
            }
        }
        for text in listings { compare(text, LastListing?.self, LastListing?.decodeStored) }
        for text in [#"{"query":"a","at":"t"}"#, #"[{"query":"a"}]"#, #"[{"query":1,"at":"t"}]"#, #"[3]"#] {
            compare(text, [HistoryEntry].self, [HistoryEntry].decodeStored)
        }
    }

    func testAStateFileRoundTripsThroughTheStore() throws {
        let directory = NSTemporaryDirectory() + "shopy-state-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(directory: directory)
        try store.update([.state]) { settings in
            settings.history = history
            settings.lastListing = listing
        }
        let (readHistory, readListing) = try store.read { settings in (settings.history, settings.lastListing) }
        XCTAssertEqual(readHistory, history)
        XCTAssertEqual(readListing, listing)
        // The file is what Codable would have made of the same values.
        let file = try XCTUnwrap(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/state.json")))))
        XCTAssertEqual(file["lastListing"], try JSONParser.parse(try codable(listing)))
        XCTAssertEqual(file["history"], try JSONParser.parse(try codable(history)))
    }
}
