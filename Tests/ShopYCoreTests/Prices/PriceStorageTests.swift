// prices.json on the byte-level JSON (issue 14): Sources/ShopYCore/Prices/PriceStorage.swift.
// The bytes must stay those Foundation's JSONEncoder wrote (.sortedKeys, .withoutEscapingSlashes),
// and files written by that code must still read.

import Foundation
import XCTest
@testable import ShopYCore

final class PriceStorageTests: XCTestCase {
    /// A book with what occurs: ids of several lengths (byte order differs from numeric order),
    /// points without a price, both kinds of alert, fired and armed ones, a record without points.
    func sampleBook() -> PriceBook {
        var book = PriceBook()
        for (n, id) in ["9", "10", "123456789", "87654321012", "5000"].enumerated() {
            var record = PriceRecord()
            for k in 0..<(n * 3) {
                record.record(PricePoint(at: "2026-12-0\(1 + k % 9)T0\(k % 10):00:00Z", price: k % 4 == 3 ? nil : 10_000 - k * 100 + n))
            }
            switch n % 3 {
            case 0: record.alert = PriceAlert(rule: .below(9_500))
            case 1:
                var alert = PriceAlert(rule: .drop(percent: 15))
                _ = alert.observe(price: 1, likedPrice: 100, at: "2026-12-01T05:00:00Z")
                record.alert = alert
            default: break
            }
            book[id] = record
        }
        return book
    }

    func oldEncoding(_ book: PriceBook) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(book))
    }

    func testTheBytesAreThoseJSONEncoderWrote() throws {
        let book = sampleBook()
        XCTAssertEqual(String(decoding: book.encodeStored(), as: UTF8.self), String(decoding: try oldEncoding(book), as: UTF8.self))
        XCTAssertEqual(PriceBook().encodeStored(), try oldEncoding(PriceBook()))
    }

    func testAFileWrittenByTheOldCodeReads() throws {
        // Written by shopy before issue 14 (JSONEncoder), as it stands in prices.json's "prices".
        let old = #"{"10":{"alert":{"armed":false,"drop":15,"firedAt":"2026-12-01T05:00:00Z"},"highest":{"at":"2026-12-01T00:00:00Z","price":10001},"lowest":{"at":"2026-12-02T01:00:00Z","price":9901},"points":[{"at":"2026-12-01T00:00:00Z","price":10001},{"at":"2026-12-02T01:00:00Z","price":9901},{"at":"2026-12-03T02:00:00Z"}],"refreshedAt":"2026-12-03T02:00:00Z"},"9":{"alert":{"armed":true,"below":9500},"points":[]}}"#
        let book = try PriceBook.decodeStored(Array(old.utf8)[...])
        XCTAssertEqual(book, try JSONDecoder().decode(PriceBook.self, from: Data(old.utf8)))
        XCTAssertEqual(book["10"]?.points.count, 3)
        XCTAssertNil(book["10"]?.latest)
        XCTAssertEqual(book["10"]?.alert?.firedAt, "2026-12-01T05:00:00Z")
        XCTAssertEqual(book["9"]?.alert?.rule, .below(9500))
        XCTAssertEqual(String(decoding: book.encodeStored(), as: UTF8.self), old, "written back byte for byte")
        let sample = sampleBook()
        XCTAssertEqual(try PriceBook.decodeStored(try oldEncoding(sample)[...]), sample)
    }

    func testItReadsWhatCodableReadAndRefusesWhatItRefused() throws {
        let points = (0..<130).map { #"{"at":"a\#($0)","price":\#($0 + 1),"extra":[1,{"x":null}]}"# }.joined(separator: ",")
        let lenient = #"{"1":{"points":[\#(points)],"lowest":null,"alert":{"below":null,"drop":10,"armed":null},"unknown":true},"2":{"points":null,"refreshedAt":null}}"#
        let ours = try PriceBook.decodeStored(Array(lenient.utf8)[...])
        XCTAssertEqual(ours, try JSONDecoder().decode(PriceBook.self, from: Data(lenient.utf8)))
        XCTAssertEqual(ours["1"]?.points.count, 100)
        XCTAssertEqual(ours["1"]?.points.first?.price, 31)
        for bad in [#"{"1":{"alert":{"drop":500}}}"#, #"{"1":{"alert":{}}}"#, #"{"1":{"points":[{"price":1}]}}"#,
                    #"{"1":{"points":[{"at":"x","price":"1"}]}}"#, #"{"1":[]}"#, #"[]"#, #"{"1":{}"#, #"{"1":{"points":[{"at":"x","price":1.5}]}}"#] {
            XCTAssertThrowsError(try PriceBook.decodeStored(Array(bad.utf8)[...]), bad)
            XCTAssertThrowsError(try JSONDecoder().decode(PriceBook.self, from: Data(bad.utf8)), "Codable refused it too: \(bad)")
        }
        XCTAssertThrowsError(try PriceBook.decodeStored(Array(#"{"1":{"alert":{"drop":500}}}"#.utf8)[...])) { error in
            XCTAssertEqual((error as? StoredValueError)?.problem, "does not have the expected shape at .1.alert")
        }
    }

    func testTheStoreWritesAndReadsThroughIt() throws {
        let directory = NSTemporaryDirectory() + "shopy-price-storage-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(directory: directory)
        let book = sampleBook()
        try store.update([.prices]) { $0.prices = book }
        let text = try String(contentsOfFile: store.path(of: .prices), encoding: .utf8)
        XCTAssertTrue(text.contains(String(decoding: try oldEncoding(book), as: UTF8.self)), "the file holds the old bytes")
        XCTAssertEqual(try SettingsStore(directory: directory).read { $0.prices }, book)
    }
}
