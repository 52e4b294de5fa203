import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog
import ShopYCoreTestSupport

/// Browse and the widget reach the same core services as the commands: the one opener loop
/// (`LinkOpener`, with $BROWSER's convention), the like transaction (`LikeChanges`), the history
/// step (`ListingMemory`) and the sections' decision (`PopularDefaults`) and fetch (`TopItems`).
final class SharedServicesTests: XCTestCase {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func bump() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    func browse(_ environment: [String: String], launcher: (any Launcher)? = nil, now: Date = Date(),
                catalog: (@Sendable () -> Catalog)? = nil) throws -> (LiveBrowseServices, Context, Home) {
        let home = Home()
        var environment = environment
        environment["SHOPY_HOME"] = home.path
        var io = IO.capture(environment: environment, now: { now })
        if let launcher { io.launcher = launcher }
        let context = Context(io: io, store: SettingsStore(environment: io.environment), catalog: catalog)
        return (try LiveBrowseServices(context: context, source: .catalog, timeout: 10, terminalWrite: { _ in }), context, home)
    }

    let link = "https://example.com/p?id=1"

    /// $BROWSER's entries (split without a shell, %s for the link) come first in browse as in
    /// `shopy open`; an attached entry runs with the terminal handed back; what failed goes to the
    /// status line, nothing to stderr.
    func testBrowseOpensThroughTheSharedLoopWithBrowserConvention() throws {
        let launcher = RecordingLauncher(installed: ["w3m", "lynx"], outcome: ["w3m": .exited(2)])
        let (services, context, home) = try browse(["PATH": "/usr/bin", "BROWSER": "w3m -dump '%s':lynx"], launcher: launcher)
        defer { withExtendedLifetime(home) {} }
        let released = Counter()
        services.withTerminalReleased = { body in released.bump(); return body() }
        let message = services.open(link)
        XCTAssertEqual(message.text, "opened with $BROWSER (lynx): \(link)")
        XCTAssertFalse(message.isError)
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/w3m", "-dump", link], ["/usr/bin/lynx", link]])
        XCTAssertEqual(launcher.calls.map(\.attached), [true, true])
        XCTAssertEqual(released.value, 2, "each attached entry gets the terminal")
        XCTAssertEqual(context.io.stderr.text, "")

        // The same argv as `shopy open` (the loop of `LinkTargets.opener`).
        let command = RecordingLauncher(installed: ["w3m", "lynx"], outcome: ["w3m": .exited(2)])
        var io = context.io
        io.launcher = command
        var commandContext = Context(io: io, store: context.store)
        commandContext.diagnosticsSink = CollectedDiagnostics()
        XCTAssertEqual(LinkTargets.opener(commandContext).open(link), "$BROWSER (lynx)")
        XCTAssertEqual(command.calls, launcher.calls)

        let failing = RecordingLauncher(installed: ["w3m"], outcome: ["w3m": .exited(2)])
        let (failed, failedContext, failedHome) = try browse(["PATH": "/usr/bin", "BROWSER": "w3m"], launcher: failing)
        let status = failed.open(link)
        XCTAssertTrue(status.isError)
        XCTAssertEqual(status.text, "$BROWSER (w3m) failed (exit status 2): \(link)")
        XCTAssertEqual(failedContext.io.stderr.text, "")
        withExtendedLifetime(failedHome) {}
    }

    func testBrowseCopiesThroughTheSharedLoop() throws {
        let launcher = RecordingLauncher(installed: ["xclip", "xsel"], outcome: ["xclip": .failedToStart(ENOENT)])
        let (services, context, home) = try browse(["PATH": "/usr/bin", "DISPLAY": ":0"], launcher: launcher)
        defer { withExtendedLifetime(home) {} }
        XCTAssertEqual(services.copy(link).text, "copied with xsel: \(link)")
        XCTAssertEqual(launcher.calls.map { $0.argv.first ?? "" }, ["/usr/bin/xclip", "/usr/bin/xsel"])
        XCTAssertEqual(launcher.calls.map(\.input), [Array(link.utf8), Array(link.utf8)])
        XCTAssertEqual(context.io.stderr.text, "")
    }

    /// `widget open` is `LinkTargets.opener(context).open`: $BROWSER first, its words as written.
    func testWidgetOpenFollowsBrowserConvention() {
        let home = Home()
        let launcher = RecordingLauncher(installed: ["firefox", "xdg-open"])
        var io = IO.capture(environment: ["SHOPY_HOME": home.path, "PATH": "/usr/bin", "DISPLAY": ":0", "BROWSER": "firefox --new-tab %s"])
        io.launcher = launcher
        var context = Context(io: io, store: SettingsStore(environment: io.environment))
        context.diagnosticsSink = CollectedDiagnostics()
        XCTAssertEqual(LinkOpening.open(link, context: context), .opened(link: link, by: "$BROWSER (firefox)"))
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/firefox", "--new-tab", link]])

        let none = RecordingLauncher(installed: [])
        context.io.launcher = none
        XCTAssertEqual(LinkOpening.open(link, context: context), .noOpener(link: link))
    }

    /// Browse likes with `shopy like`'s transaction and checks: the same refusal of an unusable
    /// id, an already liked product keeps its likedAt, a damaged likes file stops the like
    /// without a write.
    func testBrowseLikesThroughLikeChanges() throws {
        let then = Date(timeIntervalSince1970: 1_780_000_000)
        let (services, context, home) = try browse([:], now: then)
        defer { withExtendedLifetime(home) {} }
        let product = Product(productId: "80285861246", title: "방충망", price: 12_000, link: link)
        let at = try services.like(product)
        XCTAssertEqual(at, Like.timestamp(then))
        let again = try LikeChanges.like(products: [product], store: context.store, at: Like.timestamp(then.addingTimeInterval(60)))
        XCTAssertEqual(again.map(\.kind), [.alreadyLiked])
        XCTAssertEqual(again.first?.likedAt, at, "the like keeps its first likedAt")
        XCTAssertEqual(try services.like(product), at)

        let bad = Product(productId: "bad id", title: "x")
        XCTAssertThrowsError(try services.like(bad)) { error in
            XCTAssertEqual((error as? SelectionError)?.message, "product 'bad id', which is not a usable productId; nothing was liked")
        }

        try services.unlike(product.productId)
        XCTAssertFalse(try context.store.read { $0.likes.contains(product.productId) })

        // Damage: the same error `shopy like` stops with, and the file is left as it was.
        let likesPath = context.store.path(of: .likes)
        let damaged = Array("{\"schema\":2,\"likes\":[".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: likesPath, contents: Data(damaged)))
        try? FileManager.default.removeItem(atPath: context.store.directory + "/likes.index")
        XCTAssertThrowsError(try services.like(product)) { error in
            XCTAssertTrue(error is StoreError, "\(error)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: likesPath).map { Array($0) }, damaged)
    }

    /// Browse's unlike resolves an id as `shopy unlike --id` does: through the context's catalog.
    func testBrowseUnlikeUsesTheContextCatalogLookup() throws {
        let asked = Counter()
        let catalog = Catalog.embedded
        let (services, context, home) = try browse([:], catalog: { asked.bump(); return catalog })
        defer { withExtendedLifetime(home) {} }
        let item = try XCTUnwrap(catalog.items.first)
        _ = try LikeChanges.like([.id(item.productId)], store: context.store, at: "2026-12-01T00:00:00Z", catalog: context.catalogLookup)
        let before = asked.value
        try services.unlike(item.productId)
        XCTAssertGreaterThan(asked.value, before, "the id was looked up in the context's catalog")
        XCTAssertFalse(try context.store.read { $0.likes.contains(item.productId) })
    }

    /// Browse records and removes history with the listings' service: the context's clock, the
    /// recording preference, and a damaged file as the error (nothing written).
    func testBrowseHistoryThroughListingMemory() throws {
        let then = Date(timeIntervalSince1970: 1_780_000_000)
        let (services, context, home) = try browse([:], now: then)
        defer { withExtendedLifetime(home) {} }
        try services.recordQuery("방충망")
        let memory = ListingMemory(store: context.store, diagnostics: DiscardedDiagnostics(), now: Like.timestamp(then))
        try memory.record("고양이")
        XCTAssertEqual(try services.history().map(\.query), ["고양이", "방충망"])
        XCTAssertEqual(try services.history().first?.at, Like.timestamp(then))
        try services.removeHistory("고양이")
        XCTAssertEqual(try services.history().map(\.query), ["방충망"])

        let prefs = context.store.path(of: .preferences)
        XCTAssertTrue(FileManager.default.createFile(atPath: prefs, contents: Data("{\"config\":{}}".utf8)))
        XCTAssertThrowsError(try services.recordQuery("세제")) { XCTAssertTrue($0 is StoreError, "\($0)") }
        XCTAssertEqual(try context.store.read { $0.history }.map(\.query), ["방충망"])
    }

    /// One decision of the sections: saved, else built-in for the source; `popular` falls back
    /// with a warning where browse shows the error; each section fetched as `TopItems` asks.
    func testSectionsDecidedOnceAndFetchedAsTopItems() async throws {
        let (services, context, home) = try browse([:])
        defer { withExtendedLifetime(home) {} }
        XCTAssertEqual(try services.popularKeywords(), PopularDefaults.shopy.catalog)
        XCTAssertEqual(PopularCommand.naverSections, PopularDefaults.shopy.naver)
        try PopularDefaults.save(["강아지"], store: context.store)
        XCTAssertEqual(try services.popularKeywords(), ["강아지"])
        let view = try WidgetStoreView.load(context.store, name: "default", allLikes: false)
        XCTAssertEqual(WidgetOptionCatalog.sections(view, environment: [:], defaults: .shopy), ["강아지"])
        let collected = CollectedDiagnostics()
        XCTAssertEqual(PopularDefaults.shopy.keywords(requested: [], store: context.store, source: .naver, diagnostics: collected), ["강아지"])

        XCTAssertTrue(FileManager.default.createFile(atPath: context.store.path(of: .preferences), contents: Data("{\"popularSections\":[".utf8)))
        XCTAssertThrowsError(try services.popularKeywords())
        XCTAssertEqual(PopularDefaults.shopy.keywords(requested: [], store: context.store, source: .naver, diagnostics: collected), PopularDefaults.shopy.naver)
        XCTAssertEqual(collected.messages(.warning).count, 1)
        XCTAssertTrue(collected.messages(.warning)[0].hasSuffix("; using the built-in sections"))

        actor Requests { var seen: [SearchRequest] = []; func add(_ r: SearchRequest) { seen.append(r) } }
        struct Recording: ProductSource {
            let requests: Requests
            var kind: SourceKind { .catalog }
            func search(_ request: SearchRequest) async throws -> SearchPage {
                await requests.add(request)
                return SearchPage(query: request.query, sort: request.sort, source: .catalog, total: 0, start: request.start, display: 0, items: [])
            }
        }
        let requests = Requests()
        _ = await PopularSections.fetch(["고양이"], size: 4, source: Recording(requests: requests))
        let seen = await requests.seen
        XCTAssertEqual(seen, [TopItems.request("고양이", count: 4)])
    }
}
