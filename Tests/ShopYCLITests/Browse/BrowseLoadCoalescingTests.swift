@testable import ShopYBase
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// Reloads do not pile up: `r` while the screen's load is out starts nothing more, and leaving a
/// screen (or replacing a search) cancels its loads, whose answers are never sent.
final class BrowseLoadCoalescingTests: XCTestCase {
    /// Services that count what is asked of them and hold every page and section until the test
    /// opens the gate (or the task is cancelled, which they record).
    final class GatedServices: BrowseServices, @unchecked Sendable {
        var sourceKind: SourceKind { .catalog }
        let lock = NSLock()
        var keywordReads = 0
        var sectionCalls = 0
        var searchCalls: [String] = []
        var cancelled = 0
        /// Signalled as each page or section starts, and as each is cancelled.
        let started = DispatchSemaphore(value: 0)
        let cancelledSignal = DispatchSemaphore(value: 0)
        private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        private var calls = 0
        private var open = false

        func popularKeywords() throws -> [String] {
            lock.withLock { keywordReads += 1 }
            return ["a", "b", "c"]
        }

        /// Waits for the gate; returns false when cancelled first.
        func held() async -> Bool {
            let id = lock.withLock { () -> Int in
                calls += 1
                return calls
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let go = lock.withLock { () -> Bool in
                        if open || Task.isCancelled { return true }
                        waiting[id] = continuation
                        return false
                    }
                    if go { continuation.resume() }
                }
            } onCancel: {
                lock.withLock { waiting.removeValue(forKey: id) }?.resume()
            }
            if Task.isCancelled {
                lock.withLock { cancelled += 1 }
                cancelledSignal.signal()
                return false
            }
            return true
        }

        func openGate() {
            let all = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                open = true
                defer { waiting = [:] }
                return Array(waiting.values)
            }
            all.forEach { $0.resume() }
        }

        func search(_ request: SearchRequest) async throws -> SearchPage {
            lock.withLock { searchCalls.append(request.query) }
            started.signal()
            guard await held() else { throw CancellationError() }
            return BrowseReducerTests.page(request.query, start: request.start, count: 1, total: 1)
        }

        func section(_ keyword: String, count: Int) async throws -> SearchPage {
            lock.withLock { sectionCalls += 1 }
            started.signal()
            guard await held() else { throw CancellationError() }
            return BrowseReducerTests.page(keyword, start: 1, count: 1, total: 1)
        }

        func recordQuery(_ query: String) throws {}
        func likes() throws -> [Like] { [] }
        func like(_ product: Product) throws -> String { "2026-12-01T00:00:00Z" }
        func unlike(_ productId: String) throws {}
        func history() throws -> [HistoryEntry] { [] }
        func removeHistory(_ query: String) throws {}
        func open(_ link: String) -> StatusMessage { StatusMessage("opened") }
        func copy(_ link: String) -> StatusMessage { StatusMessage("copied") }
        func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void { {} }
    }

    func wait(_ semaphore: DispatchSemaphore, times: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for n in 1...times {
            if semaphore.wait(timeout: .now() + 10) == .timedOut {
                XCTFail("\(what): only \(n - 1) of \(times)", file: file, line: line)
                return
            }
        }
    }

    func keys(_ text: String) -> [BrowseIntent] { text.unicodeScalars.map { .key(.char($0)) } }

    /// Twenty `r` on Home while its sections load: one load in all. Then a search: Home's
    /// sections are cancelled (their answers never arrive), and the search goes out at once.
    func testReloadsWhileHomeLoadsAreOneLoadAndLeavingCancelsIt() throws {
        let services = GatedServices()
        let store = BrowseStore(initial: BrowseState(source: .catalog), services: services) { _ in }
        defer { store.stop() }
        store.dispatch(.resize(rows: 24, columns: 80))
        store.dispatch(.start)
        wait(services.started, times: 3, "Home's sections asked for")
        for _ in 0..<20 { store.dispatch(.key(.char("r"))) }
        XCTAssertEqual(store.current.message?.text, "still loading")

        for intent in keys("/zz") + [.key(.enter)] { store.dispatch(intent) }
        wait(services.cancelledSignal, times: 3, "Home's sections cancelled once Home was left")
        wait(services.started, times: 1, "the search asked for")
        store.stop()  // the store reads queued meanwhile are done
        _ = store.current
        services.lock.withLock {
            XCTAssertEqual(services.keywordReads, 1, "one reading of Home's keywords")
            XCTAssertEqual(services.sectionCalls, 3, "one load of each section")
            XCTAssertEqual(services.searchCalls, ["zz"])
        }
        XCTAssertTrue(store.current.home.sections.allSatisfy { $0.content == .loading }, "no cancelled answer arrived")

        // Home again: what was cancelled is loaded again.
        services.openGate()
        let back = BrowseReducer.reduce(store.current, .key(.char("1"))).1
        XCTAssertTrue(back.contains(.loadHomeKeywords), "\(back)")
    }

    /// The reducer alone: `r` while a load is out asks for nothing, on every screen; a new search
    /// cancels the page of the one it replaces; leaving Search cancels its page, which is asked
    /// for again on coming back.
    func testReloadCoalescesAndLeavingSearchCancelsItsPage() {
        var home = BrowseReducer.reduce(BrowseState(source: .catalog), .start).0
        XCTAssertTrue(home.home.inFlight)
        XCTAssertEqual(BrowseReducer.reduce(home, .key(.char("r"))).1, [])
        home = BrowseReducer.reduce(home, .homeKeywords(.success(["a"]))).0
        XCTAssertEqual(BrowseReducer.reduce(home, .key(.char("r"))).1, [], "a section still loading")
        home = BrowseReducer.reduce(home, .homeSection(index: 0, keyword: "a", .success(BrowseReducerTests.page("a", start: 1, count: 1, total: 1)))).0
        XCTAssertEqual(BrowseReducer.reduce(home, .key(.char("r"))).1, [.loadHomeKeywords], "loaded: r reloads")

        let searching = BrowseReducer.reduce(BrowseState(source: .catalog, tab: .search, query: "zz"), .start).0
        XCTAssertNotNil(searching.search.loading)
        XCTAssertEqual(BrowseReducer.reduce(searching, .key(.char("r"))).1, [], "the first page still loading")
        let sorted = BrowseReducer.reduce(searching, .key(.char("s"))).1
        XCTAssertEqual(sorted.first, .cancelLoads(.search), "\(sorted)")
        XCTAssertEqual(sorted.filter { if case .searchPage = $0 { return true } else { return false } }.count, 1)

        let (left, leaving) = BrowseReducer.reduce(searching, .key(.char("3")))
        XCTAssertEqual(leaving.first, .cancelLoads(.search))
        XCTAssertNil(left.search.loading)
        let again = BrowseReducer.reduce(left, .key(.char("2"))).1
        XCTAssertEqual(again.filter { if case .searchPage(_, let request, _) = $0 { return request.start == 1 } else { return false } }.count, 1,
                       "the cancelled page asked for again: \(again)")
    }
}
