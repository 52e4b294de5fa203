// `likes alert --drop` refuses an alert that could never fire: its line (the liked price less
// the drop, in whole won) would be under 1원.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesAlertReachTests: XCTestCase {
    func testADropWhoseLineIsUnderOneWonIsRefused() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let items = home.path + "/items.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: items, contents: Data(#"""
            [{"productId":"700001","title":"한 원 상품","lprice":"1"},{"productId":"700002","title":"삼 원 상품","lprice":"3"}]
            """#.utf8)))
        for arguments in [["catalog", "import", items], ["like", "--id", "700001", "700002"], ["likes", "alert", "700002", "--drop", "10"]] {
            let run = await home.run(arguments)
            XCTAssertEqual(run.code, 0, "\(arguments): \(run.stderr)")
        }
        let prices = home.path + "/prices.json"
        let before = FileManager.default.contents(atPath: prices)

        let one = await home.run(["likes", "alert", "700001", "--drop", "99"])
        XCTAssertEqual(one.code, 64, one.stderr)
        XCTAssertEqual(one.stderr, "shopy: a 99% drop from 1원 is under 1원: this alert could never fire (prices are whole won)\n"
                       + "hint: no drop can fire from 1원; use --below PRICE\n")
        let three = await home.run(["likes", "alert", "700002", "--drop", "67"])
        XCTAssertEqual(three.code, 64, three.stderr)
        XCTAssertTrue(three.stderr.hasSuffix("hint: from 3원 a drop of at most 66% can fire; or use --below PRICE\n"), three.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: prices), before, "nothing changed")

        let reachable = await home.run(["likes", "alert", "700002", "--drop", "66"])
        XCTAssertEqual(reachable.code, 0, reachable.stderr)
        XCTAssertTrue((reachable.stdout + reachable.stderr).contains("drop 66% (at or below 1원)"), reachable.stdout + reachable.stderr)
    }
}
