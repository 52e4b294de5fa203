// Tests for Sources/ShopYCore/HTTP/RetryingRequest.swift: a retry held at the gate (the rate
// limiter of a scan whose turns are taken, a path that is down) never outlasts --timeout. The
// retried error stands at the deadline and nothing more is sent. On a test clock: the deadline
// is met to the millisecond of virtual time.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCoreTestSupport

final class RetryGateDeadlineTests: XCTestCase {
    /// A client on `clock`, with a backoff of 50–100 ms (jittered).
    private func client(_ transport: StubTransport, clock: TestClock, gate: @escaping @Sendable () async -> Void) -> NaverClient {
        NaverClient(base: URL(string: "https://openapi.naver.com")!,
                    credentials: NaverCredentials(clientID: "id-123", clientSecret: "secret-456"),
                    transport: transport, retry: RetryPolicy(maxRetries: 3, baseDelay: 0.1, maxDelay: 0.1),
                    beforeRequest: gate, clock: clock)
    }

    /// Seen with `rank --rate 1 --timeout 4`: page 1's retry queued behind the turns of the pages
    /// waiting for its answer, went out after 5.9 s and ended "no answer within 4 s".
    func testARetryHeldAtTheGatePastTheDeadlineEndsAtTheDeadlineWithTheRetriedError() async throws {
        let transport = StubTransport([
            .success(HTTPResponse(status: 500, body: Array(#"{"errorMessage":"System Error","errorCode":"SE99"}"#.utf8))),
            .success(HTTPResponse(status: 200, body: ContractFixture.bytes("search-current.json"))),
        ])
        let clock = TestClock()
        let calls = Shared(0)
        let gate: @Sendable () async -> Void = {
            let call = calls.increment()
            // The first attempt's turn is free; a retry's comes 5 s later.
            if call > 1 { try? await clock.sleep(for: .seconds(5)) }
        }
        let naver = client(transport, clock: clock, gate: gate)
        let search = Task { try await naver.search(SearchRequest(query: "후드티"), timeout: 0.4) }
        // The backoff after the 500.
        await clock.sleeping()
        clock.advance(to: clock.nextDeadline ?? clock.now)
        // Then the retry's turn at the gate (5 s away) and the deadline (0.4 s) wait together.
        await clock.sleeping(2)
        XCTAssertEqual(clock.nextDeadline, clock.start + .milliseconds(400))
        clock.advance(to: clock.start + .milliseconds(400))
        do {
            let page = try await search.value
            XCTFail("the retry must not be sent after the deadline, got \(page.items.count) items")
        } catch {
            XCTAssertEqual(error as? SourceError, .serverError(status: 500, code: "SE99", serverMessage: "System Error", attempts: 1))
        }
        XCTAssertEqual(clock.elapsed, .milliseconds(400), "ends at the 0.4 s deadline, not when the gate opens (5 s)")
        XCTAssertEqual(clock.cancelled, 1, "the gate's wait is given up")
        XCTAssertEqual(transport.requestCount, 1, "nothing is sent once the deadline has passed")
        XCTAssertEqual(calls.get(), 2)
    }

    /// A gate that opens in time still lets the retry go.
    func testARetryWhoseGateOpensInTimeIsSent() async throws {
        let transport = StubTransport([
            .success(HTTPResponse(status: 503, body: Array("busy".utf8))),
            .success(HTTPResponse(status: 200, body: ContractFixture.bytes("search-current.json"))),
        ])
        let clock = TestClock()
        let calls = Shared(0)
        let gate: @Sendable () async -> Void = {
            if calls.increment() > 1 { try? await clock.sleep(for: .milliseconds(100)) }
        }
        let naver = client(transport, clock: clock, gate: gate)
        let search = Task { try await naver.search(SearchRequest(query: "후드티"), timeout: 5) }
        await clock.sleeping()
        clock.advance(to: clock.nextDeadline ?? clock.now)
        await clock.sleeping(2)
        let opens = clock.now + .milliseconds(100)
        XCTAssertEqual(clock.nextDeadline, opens, "the gate opens before the deadline")
        clock.advance(to: opens)
        let page = try await search.value
        XCTAssertEqual(page.items.count, 3)
        XCTAssertEqual(transport.requestCount, 2)
        XCTAssertEqual(clock.cancelled, 1, "the deadline's timer is given up once the gate opens")
        XCTAssertEqual(clock.now, opens, "sent when the gate opened")
    }

    /// The gate's wait is cancelled when the deadline comes, so a rate limiter's turn taken for
    /// it is not counted as a request sent (what `rank --json` reports as requests).
    func testTheAbandonedGateIsCancelled() async throws {
        let clock = TestClock()
        let cancelled = Shared(false)
        let gate: @Sendable () async -> Void = {
            do { try await clock.sleep(for: .seconds(5)) } catch { cancelled.set(true) }
        }
        let deadline = clock.now.advanced(by: .milliseconds(100))
        async let passed = RetryingRequest.pass(gate, before: deadline, clock: clock)
        await clock.sleeping(2)
        clock.advance(to: deadline)
        let opened = await passed
        XCTAssertFalse(opened)
        XCTAssertEqual(clock.cancelled, 1, "the gate's wait was cancelled")
        XCTAssertEqual(clock.sleepers, 0, "nothing is left waiting")
        await settle { cancelled.get() }
    }
}

/// A value the test and the gate's task share.
private final class Shared<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

private extension Shared where Value == Int {
    /// Adds one and returns the new count.
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
