// A likes listing's rows after `likes clear`: a row whose like is gone (and that no catalog
// holds) is named as the row it was, never as an unknown product.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesListingAfterClearTests: XCTestCase {
    func testARowOfAClearedLikeSaysWhatItWas() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let file = home.path + "/likes.import.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(#"""
            [{"productId":"99990001","title":"멀리서 온 상품","price":5000,"likedAt":"2026-11-01T00:00:00Z","likedPrice":5000},
             {"productId":"99990002","title":"둘째","price":700,"likedAt":"2026-11-02T00:00:00Z","likedPrice":700},
             {"productId":"99990003","title":"셋째","price":900,"likedAt":"2026-11-03T00:00:00Z","likedPrice":900}]
            """#.utf8)))
        for arguments in [["likes", "import", file], ["likes", "--format", "tsv"], ["likes", "clear", "--yes"]] {
            let run = await home.run(arguments)
            XCTAssertEqual(run.code, 0, "\(arguments): \(run.stderr)")
        }
        let hint = "hint: 'shopy likes clear' leaves a backup that 'shopy likes import FILE' restores; or search for the product and use its row\n"
        let like = await home.run(["like", "3"])
        XCTAssertEqual(like.code, 64, like.stderr)
        XCTAssertEqual(like.stderr, "shopy: row 3 of the last listing (likes) was 99990001, which is no longer liked (unliked or cleared since); nothing was liked\n" + hint)
        let alert = await home.run(["likes", "alert", "1", "--drop", "5"])
        XCTAssertEqual(alert.code, 64, alert.stderr)
        XCTAssertEqual(alert.stderr, "shopy: row 1 of the last listing (likes) was 99990003, which is no longer liked (unliked or cleared since); nothing was changed\n" + hint)
        let past = await home.run(["like", "4"])
        XCTAssertEqual(past.code, 64, past.stderr)
        XCTAssertTrue(past.stderr.hasPrefix("shopy: row 4 is not in the last listing (likes; its rows are 1–3)"), past.stderr)
        let likes = await home.run(["likes", "--format", "tsv"])
        XCTAssertEqual(likes.stdout, "", "nothing was liked")
    }
}
