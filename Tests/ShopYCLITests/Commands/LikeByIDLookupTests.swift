// `shopy like --id` on a namespaced id that no listing, like or catalog holds: an 11번가 id is
// looked up by ProductInfo (one request) and that answer is the like's snapshot; without
// ELEVENST_API_KEY it is 77 and nothing is written; a Coupang id is refused in one line (Coupang
// has no look-up by id), also when the listing that showed it is over an hour old.

@testable import ShopYBase
@testable import ShopYCatalog
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator

final class LikeByIDLookupTests: XCTestCase {
    /// An id of the emulator's catalog (its 11번가 serves the catalog under the same codes).
    let code = "80285861246"

    func storedLikes(_ home: String) throws -> [Like] {
        try SettingsStore(directory: home).read { try $0.allLikes() }
    }

    func testAnElevenStreetIDIsLookedUpByProductInfo() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.elevenst])
        let run = await shopy(["like", "--id", "11st:" + code], environment: environment)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: liked: 11st:\(code)  "), run.stderr)
        let stats = try await server.stats()
        XCTAssertEqual(stats["elevenst"]?["requests"]?.intValue, 1, "one request")
        XCTAssertEqual(stats["elevenst"]?["lastParams"]?["apiCode"]?.stringValue, "ProductInfo")
        XCTAssertEqual(stats["elevenst"]?["lastParams"]?["productCode"]?.stringValue, code)

        let like = try XCTUnwrap(try storedLikes(home).first)
        let item = try XCTUnwrap(Catalog.embeddedItem(productId: code))
        XCTAssertEqual(like.product.productId, "11st:" + code)
        XCTAssertEqual(like.product.title, ProductMapper.product(from: item).title)
        XCTAssertNotNil(like.product.price)
        XCTAssertEqual(like.likedPrice, like.product.price)
        XCTAssertEqual(like.product.link, "http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=" + code)
        XCTAssertEqual(like.product.image, item.image)

        // Liked now: a second like asks nothing.
        let again = await shopy(["like", "--id", "11st:" + code], environment: environment)
        XCTAssertEqual(again.code, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("already liked"), again.stderr)
        let afterAgain = try await server.requests("elevenst")
        XCTAssertEqual(afterAgain, 1)
    }

    func testAnIDOfTheLastListingIsNotLookedUp() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.elevenst])
        let search = await shopy(["search", "방충망", "--size", "3", "--format", "tsv"], environment: environment)
        XCTAssertEqual(search.code, 0, search.stderr)
        let id = String(search.stdout.split(separator: "\n")[1].split(separator: "\t")[1])
        let run = await shopy(["like", "--id", id], environment: environment)
        XCTAssertEqual(run.code, 0, run.stderr)
        let requests = try await server.requests("elevenst")
        XCTAssertEqual(requests, 1, "the search only")
    }

    func testWithoutTheKeyItIs77AndNothingIsWritten() async throws {
        let home = scratchHome()
        let run = await shopy(["like", "--id", "11st:" + code], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 77, run.stderr)
        XCTAssertTrue(run.stderr.contains("ELEVENST_API_KEY"), run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { !$0.hasPrefix(".") }, [], "nothing written")
    }

    func testAnUnknownCodeAndAFailingLookUpLikeNothing() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.elevenst])
        // One known id and one 11번가 does not have: the whole command likes nothing.
        let run = await shopy(["like", "--id", "11st:" + code, "11st:1"], environment: environment)
        XCTAssertEqual(run.code, 64, run.stderr)
        XCTAssertEqual(run.stderrLines, ["shopy: 11번가 has no product 11st:1 (its ProductInfo found none); nothing was liked"])
        XCTAssertEqual(try storedLikes(home), [])
        // A refused key: 77, nothing liked.
        var refused = environment
        refused["ELEVENST_API_KEY"] = "not-the-emulators-key"
        let denied = await shopy(["like", "--id", "11st:" + code], environment: refused)
        XCTAssertEqual(denied.code, 77, denied.stderr)
        XCTAssertEqual(try storedLikes(home), [])
    }

    func testACoupangIDOutsideAListingOfTheHourIsRefusedInOneLine() async throws {
        let server = try liveEmulator()
        let home = scratchHome()
        let environment = liveEnvironment(server, home: home, sources: [.coupang])
        let line = "shopy: coupang:\(code) is not in a listing of the last hour, and Coupang cannot look a product up by its id: search for it and like its row; nothing was liked"
        let never = await shopy(["like", "--id", "coupang:" + code], environment: environment)
        XCTAssertEqual(never.code, 64, never.stderr)
        XCTAssertEqual(never.stderrLines, [line])

        // Listed, then over an hour later: the same line; within the hour it is liked.
        let listedAt = Date()
        let search = await shopyAt(listedAt, ["search", "방충망", "--size", "3"], environment)
        XCTAssertEqual(search.code, 0, search.stderr)
        let late = await shopyAt(listedAt.addingTimeInterval(3601), ["like", "--id", "coupang:" + code], environment)
        XCTAssertEqual(late.code, 64, late.stderr)
        XCTAssertEqual(late.stderrLines, [line])
        let inTime = await shopyAt(listedAt.addingTimeInterval(3500), ["like", "--id", "coupang:" + code], environment)
        XCTAssertEqual(inTime.code, 0, inTime.stderr)
        XCTAssertEqual(try storedLikes(home).map(\.product.productId), ["coupang:" + code])
        // Liked, it is "already liked" at any time: the like is what the user chose to keep.
        let later = await shopyAt(listedAt.addingTimeInterval(7200), ["like", "--id", "coupang:" + code], environment)
        XCTAssertEqual(later.code, 0, later.stderr)
        XCTAssertTrue(later.stderr.contains("already liked"), later.stderr)
        let requests = try await server.requests("coupang")
        XCTAssertEqual(requests, 1, "the search only")
    }

    /// `shopy` in process at a fixed time.
    func shopyAt(_ now: Date, _ arguments: [String], _ environment: [String: String]) async -> CLIRun {
        let io = IO.capture(environment: environment, now: { now })
        let code = await ShopY.main(arguments, io: io, transport: SystemTransport.shared)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }
}
