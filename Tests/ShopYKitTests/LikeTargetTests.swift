import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

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
                       "'\(String(repeating: "1", count: 33))' is not a productId (a productId is 1 to 32 digits)")
    }

    func testLikeByAnIdThatIsNoProductIdSaysSo() async throws {
        let home = NSTemporaryDirectory() + "shopy-like-abc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(["like", "--id", "abc"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 64)
        XCTAssertEqual(io.stderr.text, "shopy: 'abc' is not a productId (a productId is 1 to 32 digits); nothing was liked\n")
    }

    func testAHugeArgumentIsQuotedCut() {
        let huge = String(repeating: "9", count: 100_000)
        let text = message(huge, forceID: true) ?? ""
        XCTAssertLessThan(text.utf8.count, 200, "cut, not echoed whole")
        XCTAssertTrue(text.hasSuffix("is not a productId (a productId is 1 to 32 digits)"), text)
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
}
