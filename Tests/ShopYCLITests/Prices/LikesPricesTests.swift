// Prices as the likes commands read and show them (Sources/ShopYCLI/Prices, Commands/LikesCommand.swift,
// LikesAlertCommands.swift): `--exec`'s argv, the change against the liked price, prices in an
// export, alert values as people type them. The price history itself: ShopYCoreTests/Prices.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesPricesTests: XCTestCase {
    func testExecCommandsAreSplitWithoutAShell() throws {
        XCTAssertEqual(try LikeSelection.argv("mail -s 'price drop' me@example.com"), ["mail", "-s", "price drop", "me@example.com"])
        XCTAssertEqual(try LikeSelection.argv(#"tee "a b.json" c\ d $HOME ;rm"#), ["tee", "a b.json", "c d", "$HOME", ";rm"])
        XCTAssertThrowsError(try LikeSelection.argv("tee 'open"))
        XCTAssertThrowsError(try LikeSelection.argv("   "))
    }

    func testChangeTextAndFraction() {
        XCTAssertEqual(PriceView.changeText(price: 8_800, liked: 10_000), "▼ 12%")
        XCTAssertEqual(PriceView.changeText(price: 10_300, liked: 10_000), "▲ 3%")
        XCTAssertEqual(PriceView.changeText(price: 10_000, liked: 10_000), "= 0%")
        XCTAssertEqual(PriceView.changeText(price: nil, liked: 10_000), "")
        XCTAssertEqual(PriceView.change(price: 8_800, liked: 10_000)!, -0.12, accuracy: 1e-9)
        XCTAssertNil(PriceView.change(price: 1, liked: 0))
    }

    func testExportCarriesPricesAndImportReadsThemOrTheirAbsence() throws {
        var book = PriceBook()
        var record = PriceRecord()
        record.record(PricePoint(at: "2026-12-01T01:00:00Z", price: 900))
        book["123456789"] = record
        var likes = LikeCollection()
        likes.add(Like(product: Product(productId: "123456789", title: "t", price: 1_000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1_000))
        let export = LikesFile.export(likes, at: "2026-12-01T03:00:00Z", prices: book)
        XCTAssertEqual(try PriceExport.parse(export, path: "x"), book)
        XCTAssertEqual(try LikesFile.parse(export, path: "x").count, 1)
        let old = LikesFile.export(likes, at: "2026-12-01T03:00:00Z")
        XCTAssertNil(try PriceExport.parse(old, path: "x"), "an older export has no prices")
        XCTAssertNil(try PriceExport.parse(Array("[]".utf8), path: "x"))
        let damaged = Array(String(decoding: export, as: UTF8.self).replacingOccurrences(of: "\"price\":900", with: "\"price\":\"x\"").utf8)
        XCTAssertThrowsError(try PriceExport.parse(damaged, path: "x"))
    }

    func testAlertValuesAreReadAsPeopleTypeThem() throws {
        XCTAssertEqual(LikesAlertCommand.digits("12,000원"), "12000")
        XCTAssertEqual(LikesAlertCommand.digits(" 12000 "), "12000")
        XCTAssertEqual(LikesAlertCommand.digits("10%", percent: true), "10")
        XCTAssertEqual(LikesAlertCommand.digits("1e4"), "1e4", "left for the integer check to refuse")
        XCTAssertEqual(LikesAlertCommand.digits("1,234,567원"), "1234567")
        // Commas only as thousands separators: a misplaced one is a typo, refused, not read as 1,200.
        for typo in ["12,00", "1,2,3", ",000", "12,000,", "1234,000", "0,100", "01,000"] {
            XCTAssertTrue(LikesAlertCommand.digits(typo).contains(","), typo)
            XCTAssertThrowsError(try LikesAlertCommand(try ArgumentParser.parse(["1", "--below", typo], for: LikesAlertCommand.spec, commandPath: "likes alert")), typo) { error in
                XCTAssertEqual((error as? UsageError)?.message,
                               "invalid --below '\(typo)': expected a price in won from 1 to 2,147,483,647, as 12000, 12,000 or 12,000원")
            }
        }
    }

    /// `likes --drops` that leaves every like out says so, not "no likes yet".
    func testDropsWithNoneCheaperSaysSoNotNoLikes() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.likes, .prices]) { settings in
            var likes = settings.likes
            var book = PriceBook()
            for (i, id) in ["111", "222", "333"].enumerated() {
                likes.add(Like(product: Product(productId: id, title: "t\(i)", price: 1_000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1_000))
                var record = PriceRecord()
                record.record(PricePoint(at: "2026-12-01T01:00:00Z", price: 1_000 + i))
                book[id] = record
            }
            settings.likes = likes
            settings.prices = book
        }
        let none = await home.run(["likes", "--drops", "--format", "table"])
        XCTAssertEqual(none.code, 0, none.stderr)
        XCTAssertEqual(none.stdout, "none of the 3 likes is cheaper than when liked (prices: shopy likes refresh)\n")
        try FileManager.default.removeItem(atPath: home.path)
        let empty = await home.run(["likes", "--drops", "--format", "table"])
        XCTAssertEqual(empty.stdout, "no likes yet: 'shopy like <row>' after a search adds one\n")
    }
}
