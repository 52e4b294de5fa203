// Tests for Sources/ShopYCore/HTTP/RetryingRequest.swift: a retry held at the gate (the rate
// limiter of a scan whose turns are taken, a path that is down) never outlasts --timeout. The
// retried error stands at the deadline and nothing more is sent.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class RetryGateDeadlineTests: XCTestCase {
    private func client(_ transport: StubTransport, gate: @escaping @Sendable () async -> Void) -> NaverClient {
        NaverClient(base: URL(string: "https://openapi.naver.com")!,
                    credentials: NaverCredentials(clientID: "id-123", clientSecret: "secret-456"),
                    transport: transport, retry: RetryPolicy(maxRetries: 3, baseDelay: 0.001, maxDelay: 0.002),
                    beforeRequest: gate)
    }

    /// Seen with `rank --rate 1 --timeout 4`: page 1's retry queued behind the turns of the pages
    /// waiting for its answer, went out after 5.9 s and ended "no answer within 4 s".
    func testARetryHeldAtTheGatePastTheDeadlineEndsAtTheDeadlineWithTheRetriedError() async throws {
        let transport = StubTransport([
            .success(HTTPResponse(status: 500, body: Array(#"{"errorMessage":"System Error","errorCode":"SE99"}"#.utf8))),
            .success(HTTPResponse(status: 200, body: ContractFixture.bytes("search-current.json"))),
        ])
        let calls = Shared(0)
        let gate: @Sendable () async -> Void = {
            let call = calls.increment()
            // The first attempt's turn is free; a retry's comes 5 s later.
            if call > 1 { try? await Task.sleep(for: .seconds(5)) }
        }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let page = try await client(transport, gate: gate).search(SearchRequest(query: "후드티"), timeout: 0.4)
            XCTFail("the retry must not be sent after the deadline, got \(page.items.count) items")
        } catch {
            XCTAssertEqual(error, .serverError(status: 500, code: "SE99", serverMessage: "System Error", attempts: 1))
        }
        let took = started.duration(to: clock.now)
        XCTAssertGreaterThanOrEqual(took, .milliseconds(390))
        XCTAssertLessThan(took, .milliseconds(900), "ends at the 0.4 s deadline, not when the gate opens (5 s)")
        XCTAssertEqual(transport.requestCount, 1, "nothing is sent once the deadline has passed")
        XCTAssertEqual(calls.get(), 2)
    }

    /// A gate that opens in time still lets the retry go.
    func testARetryWhoseGateOpensInTimeIsSent() async throws {
        let transport = StubTransport([
            .success(HTTPResponse(status: 503, body: Array("busy".utf8))),
            .success(HTTPResponse(status: 200, body: ContractFixture.bytes("search-current.json"))),
        ])
        let calls = Shared(0)
        let gate: @Sendable () async -> Void = {
            if calls.increment() > 1 { try? await Task.sleep(for: .milliseconds(100)) }
        }
        let page = try await client(transport, gate: gate).search(SearchRequest(query: "후드티"), timeout: 5)
        XCTAssertEqual(page.items.count, 3)
        XCTAssertEqual(transport.requestCount, 2)
    }

    /// The gate's wait is cancelled when the deadline comes, so a rate limiter's turn taken for
    /// it is not counted as a request sent (what `rank --json` reports as requests).
    func testTheAbandonedGateIsCancelled() async throws {
        let cancelled = Shared(false)
        let gate: @Sendable () async -> Void = {
            do { try await Task.sleep(for: .seconds(5)) } catch { cancelled.set(true) }
        }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(100))
        let passed = await RetryingRequest.pass(gate, before: deadline)
        XCTAssertFalse(passed)
        for _ in 0..<100 where !cancelled.get() { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(cancelled.get(), "the gate's wait was cancelled")
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
