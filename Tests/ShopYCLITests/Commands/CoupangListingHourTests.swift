// The last listing's Coupang rows past the hour Coupang's terms allow: completions do not offer
// them (nor show their titles), and a write of state.json keeps only their ids, so that `like`,
// `open` and `show` still say why the row cannot be used. Other sources' rows are untouched.

@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CoupangListingHourTests: StoreDirectoryTestCase {
    let listedAt = Date(timeIntervalSince1970: 1_796_000_000)
    let coupang = Product(productId: "coupang:27664441", title: "탐사 소프트 3겹 롤화장지", price: 15600,
                          link: "https://www.coupang.com/vp/products/27664441", image: "https://ads-partners.coupang.com/image1/a.jpg", source: .coupang)
    let eleven = Product(productId: "11st:6543210987", title: "자석 방충망", price: 9900, source: .elevenst)

    func listing() throws -> SettingsStore {
        let store = SettingsStore(directory: directory)
        ListingMemory(store: store, diagnostics: CollectedDiagnostics(), now: Like.timestamp(listedAt))
            .remember("search 화장지", rows: [LastListing.Row(row: "1", product: coupang), LastListing.Row(row: "2", product: eleven)], query: "화장지")
        return store
    }

    var stateText: String { (try? String(contentsOfFile: directory + "/state.json", encoding: .utf8)) ?? "" }

    func offered(_ words: [String], _ store: SettingsStore, at now: Date) -> [String] {
        guard case .candidates(let found) = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: store, now: { now }).complete(words) else { return [] }
        return found.map { "\($0.value) \($0.description)" }
    }

    func testCompletionsOfferCoupangRowsForAnHour() throws {
        let store = try listing()
        XCTAssertEqual(offered(["like", ""], store, at: listedAt.addingTimeInterval(3599)), ["1 탐사 소프트 3겹 롤화장지", "2 자석 방충망"])
        XCTAssertEqual(offered(["like", ""], store, at: listedAt.addingTimeInterval(3601)), ["2 자석 방충망"])
        XCTAssertEqual(offered(["like", "--id", ""], store, at: listedAt.addingTimeInterval(3601)), ["11st:6543210987 자석 방충망"])
    }

    func testAWriteOfStateKeepsOnlyTheIdsOfExpiredCoupangRows() throws {
        let store = try listing()
        // Within the hour a history change keeps the rows as they are.
        try ListingMemory(store: store, diagnostics: CollectedDiagnostics(), now: Like.timestamp(listedAt.addingTimeInterval(600))).record("방충망")
        XCTAssertTrue(stateText.contains("탐사 소프트"))
        // Past it, the next write of state.json (here: browse recording a query) drops their data.
        try ListingMemory(store: store, diagnostics: CollectedDiagnostics(), now: Like.timestamp(listedAt.addingTimeInterval(3700))).record("텐트")
        XCTAssertFalse(stateText.contains("탐사 소프트"), stateText)
        XCTAssertFalse(stateText.contains("ads-partners.coupang.com"), stateText)
        let rows = try XCTUnwrap(try store.read { $0.lastListing }).rows
        XCTAssertEqual(rows.map(\.product.productId), ["coupang:27664441", "11st:6543210987"], "the rows stay, by id")
        XCTAssertEqual(rows[1].product, Product(productId: eleven.productId, title: eleven.title, price: eleven.price), "11번가's row is untouched")
        // The row still says why it cannot be used.
        XCTAssertThrowsError(try LikeChanges.like([.row("1")], store: store, at: Like.timestamp(listedAt.addingTimeInterval(3800)))) { error in
            XCTAssertTrue((error as? SelectionError)?.message.contains("is a Coupang result listed over an hour ago") ?? false, "\(error)")
        }
        XCTAssertEqual(try LikeChanges.like([.row("2")], store: store, at: Like.timestamp(listedAt.addingTimeInterval(3800))).first?.kind, .liked)
    }

    func testHistoryRemovalIsAWriteOfStateToo() async throws {
        _ = try listing()
        let later = listedAt.addingTimeInterval(7200)
        let io = IO.capture(environment: ["SHOPY_HOME": directory], now: { later })
        let code = await ShopY.main(["history", "--remove", "화장지"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 0, io.stderr.text)
        XCTAssertFalse(stateText.contains("탐사 소프트"), stateText)
        XCTAssertTrue(stateText.contains("자석 방충망"), stateText)
    }
}
