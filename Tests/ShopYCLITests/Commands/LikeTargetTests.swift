import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// What `like`/`unlike`/`open`/`copy`/`likes alert` take as a target, and the listing's sort name.
final class LikeTargetTests: XCTestCase {
    private func message(_ text: String, forceID: Bool) -> String? {
        do {
            _ = try LikeTarget.parse(text, forceID: forceID)
            return nil
        } catch {
            return (error as UsageError).message
        }
    }

    func testRowsAndIdsAndTooLongOnes() {
        XCTAssertEqual(try LikeTarget.parse("3", forceID: false), .row("3"))
        XCTAssertEqual(try LikeTarget.parse("2.5", forceID: false), .row("2.5"))
        XCTAssertEqual(try LikeTarget.parse("3", forceID: true), .id("3"))
        XCTAssertEqual(try LikeTarget.parse("80285861246", forceID: false), .id("80285861246"))
        XCTAssertEqual(message(String(repeating: "1", count: 33), forceID: true),
                       "'\(String(repeating: "1", count: 33))' is not a productId (a productId is 1 to 32 ASCII digits, alone or after 11st: or coupang:)")
    }

    func testLikeByAnIdThatIsNoProductIdSaysSo() async throws {
        let home = NSTemporaryDirectory() + "shopy-like-abc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(["like", "--id", "abc"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 64)
        XCTAssertEqual(io.stderr.text, "shopy: 'abc' is not a productId (a productId is 1 to 32 ASCII digits, alone or after 11st: or coupang:); nothing was liked\n")
    }

    func testAHugeArgumentIsQuotedCut() {
        let huge = String(repeating: "9", count: 100_000)
        let text = message(huge, forceID: true) ?? ""
        XCTAssertLessThan(text.utf8.count, 200, "cut, not echoed whole")
        XCTAssertTrue(text.hasSuffix("is not a productId (a productId is 1 to 32 ASCII digits, alone or after 11st: or coupang:)"), text)
        let escape = message("1\u{1B}[31m2", forceID: true) ?? ""
        XCTAssertFalse(escape.contains("\u{1B}"), escape)
    }

    func testLikeByABadIdExits64AndChangesNothing() async throws {
        let home = NSTemporaryDirectory() + "shopy-like-target-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(["like", "--id", String(repeating: "7", count: 50_000)], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 64)
        XCTAssertLessThan(io.stderr.text.utf8.count, 300, io.stderr.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/likes.json"))
    }

    func testSortChangeIsNamedInTheListing() async throws {
        let home = NSTemporaryDirectory() + "shopy-like-sort-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let env = ["SHOPY_HOME": home]
        _ = await ShopY.main(["like", "--id", "80285861246"], io: .capture(environment: env), transport: NoNetworkTransport())
        let io = IO.capture(environment: env)
        let code = await ShopY.main(["likes", "--sort", "change", "--json"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 0, io.stderr.text)
        XCTAssertTrue(io.stdout.text.contains("\"sort\": \"change\""), io.stdout.text)
    }

    func testLikeTargetParsesRowsAndIds() throws {
        XCTAssertEqual(try LikeTarget.parse("3", forceID: false), .row("3"))
        XCTAssertEqual(try LikeTarget.parse(" 21 ", forceID: false), .row("21"))
        XCTAssertEqual(try LikeTarget.parse("1099", forceID: false), .row("1099"))
        XCTAssertEqual(try LikeTarget.parse("2.5", forceID: false), .row("2.5"))
        XCTAssertEqual(try LikeTarget.parse("80285861246", forceID: false), .id("80285861246"))
        XCTAssertEqual(try LikeTarget.parse("12345", forceID: false), .id("12345"))
        // Rows are printed without leading zeros: `07` is row 7. Digits and points that make
        // no row are a mistyped row, not an id to look up.
        XCTAssertEqual(try LikeTarget.parse("07", forceID: false), .row("7"))
        XCTAssertEqual(try LikeTarget.parse("0007", forceID: false), .row("7"))
        XCTAssertEqual(try LikeTarget.parse("02.05", forceID: false), .row("2.5"))
        XCTAssertEqual(try LikeTarget.parse("0", forceID: false), .row("0"))
        for typo in ["7.", ".7", "1.2.3", "1..2"] {
            XCTAssertEqual(message(typo, forceID: false),
                           "'\(typo)' is neither a row number nor a productId (a row is 3, or 2.5 in popular; a productId is 1 to 32 ASCII digits, alone or after 11st: or coupang:)")
        }
        XCTAssertEqual(try LikeTarget.parse("1.2.3", forceID: true), .id("1.2.3"), "--id takes any text as an id")
        XCTAssertEqual(try LikeTarget.parse("abc-1", forceID: false), .id("abc-1"))
        XCTAssertEqual(try LikeTarget.parse("٣", forceID: false), .id("٣"), "only ASCII digits make a row")
        XCTAssertEqual(try LikeTarget.parse("3", forceID: true), .id("3"))
        XCTAssertEqual(try LikeTarget.parse("2.5", forceID: true), .id("2.5"))
        XCTAssertEqual(try LikeTarget.parse("80285861246", forceID: true), .id("80285861246"))
        for bad in ["", "  ", "1 2", "a\tb"] {
            XCTAssertThrowsError(try LikeTarget.parse(bad, forceID: false), "'\(bad)'") { error in
                XCTAssertTrue(error is UsageError)
            }
            XCTAssertThrowsError(try LikeTarget.parse(bad, forceID: true), "'\(bad)' with --id")
        }
    }

    func testRowErrorListsTheRows() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.state]) { settings in
            settings.lastListing = LastListing(command: "rank x", savedAt: "", rows: ["4", "16"].map { LastListing.Row(row: $0, product: Product(productId: "1234567\($0)", title: "t")) })
        }
        let run = await home.run(["like", "5"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("its rows are 4, 16"), run.stderr)
    }
}

/// A negative price is damage wherever a like comes from: an import, or a likes.json edited by hand.
final class NegativePriceTests: StoreDirectoryTestCase {
    func testAnImportWithANegativePriceIsRefusedWhole() async throws {
        let file = directory + "/export.json"
        try Data(#"{"likes":[{"productId":"1","title":"a","price":-1,"likedAt":"2026-12-01T00:00:00Z"}]}"#.utf8).write(to: URL(fileURLWithPath: file))
        let io = IO.capture(environment: ["SHOPY_HOME": directory + "/home"])
        let code = await ShopY.main(["likes", "import", file], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 65, io.stderr.text)
        XCTAssertTrue(io.stderr.text.contains("negative \"price\""), io.stderr.text)
    }

    func testAHandEditedNegativePriceIsDamage() async throws {
        let home = directory + "/home"
        _ = await ShopY.main(["like", "--id", "80285861246"], io: .capture(environment: ["SHOPY_HOME": home]), transport: NoNetworkTransport())
        let path = home + "/likes.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""likedPrice" : "#, with: #""likedPrice" : -"#)
            .replacingOccurrences(of: #""likedPrice":"#, with: #""likedPrice":-"#)
        XCTAssertNotEqual(edited, text, "the snapshot carries a likedPrice to edit")
        try edited.write(toFile: path, atomically: false, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: home + "/likes.index")
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(["likes", "--json"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 65, io.stderr.text)
        XCTAssertTrue(io.stderr.text.contains("negative \"likedPrice\""), io.stderr.text)
    }
}
