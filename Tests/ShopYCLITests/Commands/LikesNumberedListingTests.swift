// `shopy likes` is a listing like search, popular and rank: its rows are numbered and become the
// last listing, so `unlike 2`, `open 2` and `copy 2` act on the second row printed by `likes`,
// not on the second row of an earlier search.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesNumberedListingTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-likes-rows-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
    }

    func shopy(_ arguments: [String], terminal: Bool = false) async -> CLIRun {
        await Shell.run(arguments, environment: ["SHOPY_HOME": home, "COLUMNS": "120", "NO_COLOR": "1"], terminal: terminal)
    }

    /// The ids of `shopy likes` as TSV, in row order (which also makes it the last listing).
    func likedIDs() async -> [String] {
        let run = await shopy(["likes", "--format", "tsv"])
        XCTAssertEqual(run.code, 0, run.stderr)
        return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
    }

    /// Three likes from a catalog search; the search stays the last listing.
    func likeThree() async -> [String] {
        var run = await shopy(["search", "방충망", "--format", "tsv"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let searched = run.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[1]) }
        for row in ["1", "2", "3"] {
            run = await shopy(["like", row])
            XCTAssertEqual(run.code, 0, run.stderr)
        }
        return Array(searched.prefix(3))
    }

    func testTheTableNumbersItsRows() async throws {
        _ = await likeThree()
        let run = await shopy(["likes"], terminal: true)
        XCTAssertEqual(run.code, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("1  ") || $0.hasPrefix("2  ") || $0.hasPrefix("3  ") }.count, 3, run.stdout)
    }

    func testUnlikeTakesTheRowOfTheLikesListing() async throws {
        let searched = await likeThree()
        let listed = await likedIDs()
        XCTAssertEqual(Set(listed), Set(searched))
        XCTAssertNotEqual(listed[0], searched[0], "row 1 differs between the two listings (newest like first)")
        let run = await shopy(["unlike", "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(listed[0]), "row 1 of the likes listing was unliked: \(run.stderr)")
        let remaining = await likedIDs()
        XCTAssertEqual(remaining, [listed[1], listed[2]])
    }

    func testJSONRanksAreTheRows() async throws {
        _ = await likeThree()
        var run = await shopy(["likes", "--format", "json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let items = try XCTUnwrap(try JSONParser.parse(Array(run.stdout.utf8))["items"]?.arrayValue)
        let third = try XCTUnwrap(items.first { $0["rank"]?.intValue == 3 }?["productId"]?.stringValue)
        run = await shopy(["unlike", "3"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(third), run.stderr)
    }

    func testOpenAndCopyTakeItsRows() async throws {
        let searched = await likeThree()
        let json = await shopy(["likes", "--format", "json"])
        let items = try XCTUnwrap(try JSONParser.parse(Array(json.stdout.utf8))["items"]?.arrayValue)
        let first = try XCTUnwrap(items.first { $0["rank"]?.intValue == 1 })
        XCTAssertNotEqual(first["productId"]?.stringValue, searched[0], "row 1 differs between the two listings")
        let link = try XCTUnwrap(first["link"]?.stringValue)
        var run = await shopy(["open", "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").first.map(String.init), link, "no opener here: the link is printed")
        run = await shopy(["copy", "1"])
        XCTAssertTrue(run.stdout.contains(link), run.stdout + run.stderr)
    }

    /// `like 1` undoes `unlike 1`: the row keeps the snapshot of the like it showed.
    func testARowStillNamesItsProductAfterItsUnlike() async throws {
        _ = await likeThree()
        let listed = await likedIDs()
        var run = await shopy(["unlike", "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await shopy(["like", "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("liked: \(listed[0])"), run.stderr)
        run = await shopy(["unlike", "2", "3"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let remaining = await likedIDs()
        XCTAssertEqual(remaining, [listed[0]])
    }

    func testRowsPastTheListingAreRefusedWithItsSpan() async throws {
        _ = await likeThree()
        _ = await likedIDs()
        let run = await shopy(["unlike", "4"])
        XCTAssertEqual(run.code, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("row 4 is not in the last listing (likes; its rows are 1–3)"), run.stderr)
    }

    /// A like removed another way (here `likes clear`) leaves its row standing for its id, never
    /// for another product.
    func testARowWhoseLikeIsGoneNamesItsId() async throws {
        _ = await likeThree()
        let listed = await likedIDs()
        var run = await shopy(["likes", "clear", "--yes"])
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await shopy(["unlike", "1"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(listed[0]) && run.stderr.contains("not liked"), run.stderr)
    }

    /// The listing keeps ids, not snapshots: a large likes listing leaves state.json small.
    func testTheListingKeepsIdsOnly() async throws {
        let store = SettingsStore(directory: home)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for i in 0..<2_000 {
                likes.add(Like(product: Product(productId: String(90_000_000_000 + i), title: String(repeating: "긴 제목 ", count: 20), price: 1_000 + i,
                                                link: "https://example.com/\(i)"),
                               likedAt: Like.timestamp(Date(timeIntervalSince1970: 1_780_000_000 + Double(i))), likedPrice: 1_000))
            }
            settings.likes = likes
        }
        let run = await shopy(["likes", "--format", "json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: home + "/state.json")[.size] as? Int)
        XCTAssertLessThan(size, 2_000 * 16, "about 12 bytes a row")
        let unlike = await shopy(["unlike", "1999"])
        XCTAssertEqual(unlike.code, 0, unlike.stderr)
        XCTAssertTrue(unlike.stderr.contains("90000000001"), "row 1,999 of the newest-first listing is the second like: \(unlike.stderr)")
    }

    func testLikesTableNumbersItsRowsLikeEveryListing() async throws {
        let home = Home()
        _ = await home.run(["search", "방충망", "--size", "3"])
        _ = await home.run(["like", "1", "3"])
        let run = await home.run(["likes", "--format", "table"], environment: ["COLUMNS": "100"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ").prefix(2), ["#", "ID"], "a # column, then the id: \(lines)")
        for (row, line) in lines.dropFirst().dropLast().enumerated() {
            XCTAssertTrue(line.hasPrefix("\(row + 1) "), "row \(row + 1) is numbered: \(line)")
        }
        XCTAssertTrue(lines.last?.contains("ROW") ?? false, lines.last ?? "")
        XCTAssertEqual(Render.table([ListedItem(rank: 1, product: Product(productId: "1", title: "t"))], columns: 40, color: false, showRank: false)[0].hasPrefix("PRICE"), true)
    }
}
