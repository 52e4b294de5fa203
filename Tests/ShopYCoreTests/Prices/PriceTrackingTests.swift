import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// The price history's bounds, the alert state machine, the refresh query and the `prices`
/// suite in the store. (`--exec`'s argv and the likes commands' prices: ShopYCLITests/Prices.)
final class PriceTrackingTests: XCTestCase {
    func testHistoryKeepsTheLastHundredPointsAndTheAllTimeExtremes() {
        var record = PriceRecord()
        record.record(PricePoint(at: "t0", price: 5))      // the lowest, soon out of the window
        record.record(PricePoint(at: "t1", price: 90_000)) // the highest, soon out of the window
        for i in 0..<150 { record.record(PricePoint(at: "n\(i)", price: 1_000 + i)) }
        record.record(PricePoint(at: "none", price: nil))
        XCTAssertEqual(record.points.count, PriceRecord.historyLimit)
        XCTAssertEqual(record.points.first?.at, "n51")
        XCTAssertEqual(record.points.last, PricePoint(at: "none", price: nil))
        XCTAssertEqual(record.lowest, PricePoint(at: "t0", price: 5))
        XCTAssertEqual(record.highest, PricePoint(at: "t1", price: 90_000))
        XCTAssertEqual(record.refreshedAt, "none")
        XCTAssertNil(record.latest, "a point without a price is the latest")
    }

    func testAHandEditedRecordOfTooManyPointsIsCutOnRead() throws {
        let points = (0..<130).map { #"{"at":"a\#($0)","price":\#($0 + 1)}"# }.joined(separator: ",")
        let record = try JSONDecoder().decode(PriceRecord.self, from: Data(#"{"points":[\#(points)]}"#.utf8))
        XCTAssertEqual(record.points.count, 100)
        XCTAssertEqual(record.points.first?.price, 31)
    }

    func testABelowAlertFiresOncePerCrossing() {
        var alert = PriceAlert(rule: .below(10_000))
        XCTAssertFalse(alert.observe(price: 12_000, likedPrice: 12_000, at: "1"))
        XCTAssertTrue(alert.observe(price: 10_000, likedPrice: 12_000, at: "2"), "at the line fires")
        XCTAssertFalse(alert.observe(price: 9_000, likedPrice: 12_000, at: "3"), "still low: no second alert")
        XCTAssertFalse(alert.observe(price: nil, likedPrice: 12_000, at: "4"), "no price: no change")
        XCTAssertFalse(alert.armed)
        XCTAssertEqual(alert.firedAt, "2")
        XCTAssertFalse(alert.observe(price: 10_001, likedPrice: 12_000, at: "5"), "back above: re-armed")
        XCTAssertTrue(alert.armed)
        XCTAssertTrue(alert.observe(price: 8_000, likedPrice: 12_000, at: "6"), "a new crossing fires again")
        XCTAssertEqual(alert.firedAt, "6")
    }

    func testADropAlertIsMeasuredAgainstTheLikedPrice() {
        var alert = PriceAlert(rule: .drop(percent: 10))
        XCTAssertEqual(alert.line(likedPrice: 10_000), 9_000)
        XCTAssertNil(alert.line(likedPrice: nil))
        XCTAssertFalse(alert.observe(price: 1, likedPrice: nil, at: "1"), "no liked price: never fires")
        XCTAssertFalse(alert.observe(price: 9_001, likedPrice: 10_000, at: "2"))
        XCTAssertTrue(alert.observe(price: 9_000, likedPrice: 10_000, at: "3"))
        XCTAssertEqual(PriceAlert(rule: .drop(percent: 10)).line(likedPrice: Int.max), nil, "overflow is no line, not a trap")
    }

    func testTheLargestDropIsTheLastWhoseLineIsAWholeWon() {
        XCTAssertNil(PriceAlert.largestDrop(from: 1), "1원 less any drop is under 1원")
        XCTAssertNil(PriceAlert.largestDrop(from: nil))
        XCTAssertEqual(PriceAlert.largestDrop(from: 2), 50)
        XCTAssertEqual(PriceAlert.largestDrop(from: 100), 99)
        XCTAssertEqual(PriceAlert.largestDrop(from: 1_000_000), 99)
        // Against the line itself: every drop up to the largest has a line of at least 1원, and
        // every greater one a line of 0.
        for liked in 1...400 {
            let largest = PriceAlert.largestDrop(from: liked) ?? 0
            for percent in 1...99 {
                let line = PriceAlert(rule: .drop(percent: percent)).line(likedPrice: liked) ?? 0
                XCTAssertEqual(line >= 1, percent <= largest, "\(liked)원, \(percent)%")
            }
        }
    }

    func testAlertsRoundTripAndBadOnesAreRefused() throws {
        var alert = PriceAlert(rule: .drop(percent: 15))
        _ = alert.observe(price: 1, likedPrice: 100, at: "x")
        let data = try JSONEncoder().encode(alert)
        XCTAssertEqual(try JSONDecoder().decode(PriceAlert.self, from: data), alert)
        for bad in [#"{"drop":0}"#, #"{"drop":100}"#, #"{"below":0}"#, #"{"below":-5}"#, #"{}"#] {
            XCTAssertThrowsError(try JSONDecoder().decode(PriceAlert.self, from: Data(bad.utf8)), bad)
        }
    }

    func testTheRefreshQueryIsTheCleanedTitlesFirstWords() {
        XCTAssertEqual(PriceRefresh.query(for: "<b>방충망</b> 미세먼지 롤 창문 모기장 DIY 100cmx10cm 추가"), "방충망 미세먼지 롤 창문 모기장 DIY")
        XCTAssertEqual(PriceRefresh.query(for: "짧은 제목"), "짧은 제목")
        XCTAssertEqual(PriceRefresh.query(for: "   "), "")
        let long = String(repeating: "가", count: 60) + " " + String(repeating: "나", count: 60)
        XCTAssertLessThanOrEqual(PriceRefresh.query(for: long).utf8.count, 180)
    }

    func testPricesLiveInTheirOwnSuiteAndLikingDoesNotRewriteThem() throws {
        let directory = NSTemporaryDirectory() + "shopy-prices-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SettingsStore(directory: directory)
        let like = Like(product: Product(productId: "123456789", title: "t", price: 1_000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1_000)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like)
            settings.likes = likes
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/prices.json"), "liking writes no prices file")
        try store.update([.prices]) { settings in
            var book = settings.prices
            var record = PriceRecord()
            record.record(PricePoint(at: "2026-12-01T01:00:00Z", price: 900))
            record.alert = PriceAlert(rule: .below(950))
            book["123456789"] = record
            settings.prices = book
        }
        let modified = try FileManager.default.attributesOfItem(atPath: directory + "/prices.json")[.modificationDate] as? Date
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(Like(product: Product(productId: "987654321", title: "u", price: 5), likedAt: "2026-12-01T02:00:00Z", likedPrice: 5))
            settings.likes = likes
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: directory + "/prices.json")[.modificationDate] as? Date, modified)
        let book = try store.read { $0.prices }
        XCTAssertEqual(book["123456789"]?.latest, 900)
        XCTAssertEqual(book["123456789"]?.alert?.rule, .below(950))
        XCTAssertTrue(Suite.all.contains(.prices), "doctor checks every suite")
    }

    func testADamagedPricesFileStopsAWriteAndNamesTheFile() throws {
        let directory = NSTemporaryDirectory() + "shopy-prices-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(#"{"schema":1,"prices":{"1":{"alert":{"drop":500}}}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/prices.json"))
        let store = SettingsStore(directory: directory)
        XCTAssertThrowsError(try store.update([.prices]) { settings in settings.prices = PriceBook() }) { error in
            guard case StoreError.damaged(let path, _)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(path.hasSuffix("prices.json"))
        }
        XCTAssertEqual(try String(contentsOfFile: directory + "/prices.json", encoding: .utf8), #"{"schema":1,"prices":{"1":{"alert":{"drop":500}}}}"#, "nothing changed")
    }

}
