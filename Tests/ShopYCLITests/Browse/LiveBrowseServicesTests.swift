import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

/// The real services on a private SHOPY_HOME: the store, history and sections the subcommands use.
final class LiveBrowseServicesTests: XCTestCase {
    func testLikesHistoryAndSectionsGoThroughTheStore() async throws {
        let home = NSTemporaryDirectory() + "shopy-browse-services-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let services = try LiveBrowseServices(context: Context(io: io, store: SettingsStore(environment: io.environment)), source: .catalog, timeout: 10, terminalWrite: { _ in })
        XCTAssertEqual(services.sourceKind, .catalog)
        XCTAssertEqual(try services.popularKeywords(), PopularCommand.catalogSections)
        let page = try await services.search(SearchRequest(query: "방충망", start: 1, display: 5))
        XCTAssertEqual(page.items.count, 5)
        let product = page.items[0]
        let at = try services.like(product)
        XCTAssertEqual(try services.like(product), at, "liking a liked product keeps its likedAt")
        XCTAssertEqual(try services.likes().map(\.product.productId), [product.productId])
        // `shopy likes` sees it.
        let store = SettingsStore(environment: ["SHOPY_HOME": home])
        XCTAssertTrue(try store.read { $0.likes.contains(product.productId) })
        try services.unlike(product.productId)
        XCTAssertTrue(try services.likes().isEmpty)
        XCTAssertThrowsError(try services.like(Product(productId: "bad id", title: "x")))
        try services.recordQuery("방충망")
        try services.recordQuery("고양이")
        XCTAssertEqual(try services.history().map(\.query), ["고양이", "방충망"])
        try services.removeHistory("고양이")
        XCTAssertEqual(try services.history().map(\.query), ["방충망"])
        try store.update([.preferences]) { $0.historyEnabled = false }
        try services.recordQuery("세제")
        XCTAssertEqual(try services.history().map(\.query), ["방충망"], "recording off: nothing recorded")
        try store.update([.preferences]) { $0.popularSections = ["강아지"] }
        XCTAssertEqual(try services.popularKeywords(), ["강아지"])
        XCTAssertTrue(io.stderr.text.isEmpty)
    }

    /// Search and Home use the context's source and the shared top-items fetch: the same items
    /// `shopy search` and the widget get from it.
    func testSearchAndSectionsUseTheContextSourceAndTheSharedFetch() async throws {
        let home = NSTemporaryDirectory() + "shopy-browse-services-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let catalog = Catalog.embedded
        let context = Context(io: io, store: SettingsStore(environment: io.environment), catalog: { catalog })
        let services = try LiveBrowseServices(context: context, source: .catalog, timeout: 10, terminalWrite: { _ in })
        let section = try await services.section("고양이", count: 10)
        let direct = try await TopItems.fetch("고양이", count: 10, from: CatalogSource(catalog: catalog))
        XCTAssertEqual(section.items.map(\.productId), direct.items.map(\.productId))
        XCTAssertEqual(section.items.count, 10)
        let search = try await services.search(SearchRequest(query: "고양이", sort: .asc, start: 1, display: 5))
        let command = try await context.source(.catalog, timeout: 10).search(SearchRequest(query: "고양이", sort: .asc, start: 1, display: 5))
        XCTAssertEqual(search.items.map(\.productId), command.items.map(\.productId), "the source `shopy search` uses")
        XCTAssertEqual(try services.popularKeywords(), PopularDefaults.shopy.catalog)
    }

    func testCopyFallsBackToOSC52OnTheTerminal() throws {
        final class Sink: @unchecked Sendable { var bytes: [UInt8] = [] }
        let sink = Sink()
        var io = IO.capture(environment: ["PATH": "/nonexistent"])
        io.launcher = SystemLauncher()
        let services = try LiveBrowseServices(context: Context(io: io, store: SettingsStore(environment: io.environment)), source: .catalog, timeout: 10, terminalWrite: { sink.bytes += $0 })
        let message = services.copy("https://example.com/a")
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), Clipboards.osc52("https://example.com/a"))
        XCTAssertTrue(message.text.hasPrefix("sent to the terminal's clipboard with OSC 52"))
        let opened = services.open("https://example.com/a")
        XCTAssertTrue(opened.isError)
        XCTAssertEqual(opened.text, "no browser opener found ($BROWSER, xdg-open, open, wslview): https://example.com/a")
    }
}
