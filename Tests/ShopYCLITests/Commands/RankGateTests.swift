// Tests for Sources/ShopYCore/Services/ScanPacer.swift through `shopy rank` against the
// emulator (in process, an ephemeral port): no page past the total of the first answer is ever
// sent, however high the rate and however slow the answer; the count reported is what the
// emulator received.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
import ShopYTestSupport
import ShopYCoreTestSupport

final class RankGateTests: XCTestCase {
    func emulator(latency: Int) throws -> EmulatorServer {
        var config = EmulatorConfig()
        config.latencyMilliseconds = latency
        let server = EmulatorServer(config: config, catalog: .embedded)
        _ = try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    func requests(_ server: EmulatorServer) -> Int? {
        RawHTTPResponse.request(port: server.port, "/_emulator/stats").json?["requests"]?.intValue
    }

    func rank(_ arguments: [String], server: EmulatorServer) async throws -> (RankCommand.Outcome, CollectedDiagnostics) {
        let home = NSTemporaryDirectory() + "shopy-rankgate-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home, "SHOPY_API_BASE": server.baseURL,
                                          "NAVER_CLIENT_ID": "emulator-id", "NAVER_CLIENT_SECRET": "emulator-secret"])
        var context = Context(io: io, transport: SystemTransport.shared, store: SettingsStore(directory: home))
        let collected = CollectedDiagnostics()
        context.diagnosticsSink = collected
        let command = try RankCommand(ArgumentParser.parse(arguments, for: RankCommand.spec, commandPath: "rank"))
        return (try await command.execute(context), collected)
    }

    func testNoPagePastTheTotalIsSentEvenAtAHighRateAndASlowFirstAnswer() async throws {
        let server = try emulator(latency: 300)
        // 방충망 has 21 results: one page holds them all; a scan to 1,000 would queue ten.
        let (outcome, _) = try await rank(["방충망", "--title", "없는제목xyz", "--rate", "100"], server: server)
        XCTAssertTrue(outcome.scan.matches.isEmpty)
        XCTAssertEqual(outcome.scan.total, 21)
        XCTAssertEqual(outcome.scan.scannedTo, 21)
        XCTAssertEqual(requests(server), 1, "only the first page was sent")
        XCTAssertEqual(outcome.scan.requests, 1, "the count reported is what the server received")
    }

    func testTheRequestCountIsWhatTheServerReceivedWhenTheMatchIsFirst() async throws {
        let server = try emulator(latency: 50)
        let (outcome, _) = try await rank(["방충망", "--mall", "다샵", "--rate", "100", "--all"], server: server)
        XCTAssertFalse(outcome.scan.matches.isEmpty)
        XCTAssertEqual(outcome.scan.requests, requests(server))
        XCTAssertEqual(requests(server), 1)
    }

    func testTheGateReleasesWaitersWhenTheTotalIsKnownAndOnCancel() async throws {
        let clock = TestClock()
        let pacer = ScanPacer(perSecond: 100, clock: clock)
        async let second = pacer.admit(start: 101)
        async let third = pacer.admit(start: 201)
        let first = await pacer.admit(start: 1)
        XCTAssertTrue(first, "the first page never waits for a total")
        await settle { pacer.waitingForTotal == 2 }
        clock.advance(by: .milliseconds(50))
        pacer.learn(total: 150)
        let (a, b) = await (second, third)
        XCTAssertTrue(a, "101 is within 150")
        XCTAssertFalse(b, "201 is past 150: not sent")
        XCTAssertEqual(pacer.sent, 2)

        let idle = ScanPacer(perSecond: 100, clock: clock)
        let waiting = Task { await idle.admit(start: 101) }
        await settle { idle.waitingForTotal == 1 }
        waiting.cancel()
        let admitted = await waiting.value
        XCTAssertFalse(admitted, "a cancelled scan's waiters return, unsent")
        XCTAssertEqual(idle.sent, 0)
    }
}

/// A server reporting the largest total there is still gets its scan reported (it is a total,
/// not "not known yet").
final class RankHugeTotalTests: XCTestCase {
    struct HugeTotalSource: ProductSource {
        var kind: SourceKind { .catalog }
        func search(_ request: SearchRequest) async throws -> SearchPage {
            let items = (0..<request.display).map { i in Product(productId: String(request.start + i), title: "상품 \(request.start + i)") }
            return SearchPage(query: request.query, sort: request.sort, source: .catalog, total: Int.max, start: request.start,
                              display: request.display, items: items)
        }
    }

    func testATotalOfIntMaxIsATotal() async throws {
        let outcome = try await RankScan.run(RankQuery(keyword: "x", productID: "150", depth: 300), source: HugeTotalSource(), pacer: nil)
        XCTAssertEqual(outcome.total, Int.max)
        XCTAssertEqual(outcome.matches.map(\.rank), [150])
    }
}
