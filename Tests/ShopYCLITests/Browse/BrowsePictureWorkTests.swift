@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
import ShopYTestSupport

/// Browse's picture work: leaving Detail drops the picture being loaded (the reducer asks for
/// it), and the effect runner keeps one picture in flight: a new one, a drop or `stop` cancels
/// it, its answer is never sent, and nothing waits for a decode that cannot be interrupted.
final class BrowsePictureWorkTests: XCTestCase {
    typealias helper = BrowsePictureStateTests.helper
    let choice = GraphicsChoice(drawing: .symbols, colors: .truecolor, tmuxPassthrough: false, why: "test")

    func detail() -> BrowseState {
        var state = helper.searched()
        state.graphics = .success(choice)
        return helper.run(state, [.resize(rows: 24, columns: 120), .key(.enter)]).0
    }

    func testLeavingDetailDropsThePictureBeingLoaded() {
        let loading = detail()
        XCTAssertEqual(loading.detail?.picture, .loading)
        for key in [Key.escape, .char("q"), .char("3"), .tab] {
            XCTAssertEqual(BrowseReducer.reduce(loading, .key(key)).1.first, .dropPicture, "\(key)")
        }
        // Scrolling the card keeps the picture coming.
        XCTAssertFalse(BrowseReducer.reduce(loading, .key(.char("j"))).1.contains(.dropPicture))
        // A picture that arrived (or failed) is nothing to drop.
        let product = BrowseReducerTests.product(1)
        let picture = DecodedPicture(width: 1, height: 1, pixels: [0, 0, 0, 255], source: "x")
        let ready = helper.run(loading, [.pictureLoaded(productId: product.productId, url: product.image!, .success(picture))]).0
        XCTAssertFalse(BrowseReducer.reduce(ready, .key(.escape)).1.contains(.dropPicture))
        // The next Detail's picture is asked for after the drop, not dropped with it.
        let (_, effects) = helper.run(loading, [.key(.escape), .key(.char("j")), .key(.enter)])
        let second = BrowseReducerTests.product(2)
        XCTAssertEqual(effects.filter { $0 == .dropPicture || $0 == .loadPicture(productId: second.productId, url: second.image!) },
                       [.dropPicture, .loadPicture(productId: second.productId, url: second.image!)])
    }

    /// Services whose pictures decode on a lane, each held until the test releases it (as a
    /// decode in C runs to its end whatever happens meanwhile).
    final class SlowPictures: BrowseServices, @unchecked Sendable {
        let lane = PictureDecodeLane()
        let log = WorkLog()
        private let lock = NSLock()
        private var gates: [String: DispatchSemaphore] = [:]

        func gate(_ url: String) -> DispatchSemaphore {
            lock.withLock {
                if let gate = gates[url] { return gate }
                let gate = DispatchSemaphore(value: 0)
                gates[url] = gate
                return gate
            }
        }

        func picture(_ url: String) async -> Result<DecodedPicture, PictureFailure> {
            log.add("asked \(url)")
            let gate = self.gate(url), log = self.log
            let decoded = await lane.run { () -> DecodedPicture in
                log.add("started \(url)")
                gate.wait()
                log.add("decoded \(url)")
                return DecodedPicture(width: 1, height: 1, pixels: [0, 0, 0, 255], source: url)
            }
            if decoded == nil { log.add("cancelled \(url)") }
            return decoded.map { .success($0) } ?? .failure(.cancelled)
        }

        var sourceKind: SourceKind { .catalog }
        func popularKeywords() throws -> [String] { [] }
        func search(_ request: SearchRequest) async throws -> SearchPage { throw CancellationError() }
        func section(_ keyword: String, count: Int) async throws -> SearchPage { throw CancellationError() }
        func recordQuery(_ query: String) throws {}
        func likes() throws -> [Like] { [] }
        func like(_ product: Product) throws -> String { "" }
        func unlike(_ productId: String) throws {}
        func history() throws -> [HistoryEntry] { [] }
        func removeHistory(_ query: String) throws {}
        func open(_ link: String) -> StatusMessage { StatusMessage("") }
        func copy(_ link: String) -> StatusMessage { StatusMessage("") }
        func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void { {} }
    }

    func testTheRunnerKeepsOnePictureInFlightAndSendsOnlyItsAnswer() {
        let services = SlowPictures()
        let log = services.log
        let runner = BrowseEffectRunner(services: services) { intent in
            if case .pictureLoaded(_, let url, _) = intent { log.add("sent \(url)") }
        }
        // Dropped while its decode runs: the wait ends at once, and its answer is never sent.
        runner.run(.loadPicture(productId: "1", url: "a"))
        XCTAssertTrue(log.wait(for: "started a"))
        runner.run(.dropPicture)
        XCTAssertTrue(log.wait(for: "cancelled a"), "\(log.all)")
        // Replaced by another while queued behind a's decode: it is cancelled and never starts;
        // the second's answer is sent once the lane gets to it.
        runner.run(.loadPicture(productId: "2", url: "b"))
        XCTAssertTrue(log.wait(for: "asked b"))
        runner.run(.loadPicture(productId: "3", url: "c"))
        XCTAssertTrue(log.wait(for: "cancelled b"), "\(log.all)")
        services.gate("a").signal()
        services.gate("c").signal()
        XCTAssertTrue(log.wait(for: "sent c"), "\(log.all)")
        XCTAssertTrue(log.all.contains("decoded a"), "a's decode ran to its end, unwatched: \(log.all)")
        XCTAssertFalse(log.all.contains("started b"), "a dropped picture's decode is not started: \(log.all)")
        XCTAssertEqual(log.all.filter { $0.hasPrefix("sent ") }, ["sent c"])
        // Stopping does not wait for the decode in flight.
        runner.run(.loadPicture(productId: "4", url: "d"))
        XCTAssertTrue(log.wait(for: "started d"))
        let gate = services.gate("d")
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { gate.signal() }  // the decode ends in 2 s
        runner.stop()
        log.add("stopped")
        XCTAssertTrue(log.wait(for: "cancelled d"), "\(log.all)")
        XCTAssertTrue(log.wait(for: "decoded d"))
        let all = log.all
        if let stopped = all.firstIndex(of: "stopped"), let decoded = all.firstIndex(of: "decoded d") {
            XCTAssertLessThan(stopped, decoded, "stop returned before the decode ended: \(all)")
        }
        XCTAssertFalse(all.contains("sent d"), "\(all)")
    }
}
