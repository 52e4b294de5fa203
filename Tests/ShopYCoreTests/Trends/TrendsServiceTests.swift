// Tests for Sources/ShopYCore/Trends/TrendsService.swift: offline, nothing is sent; without keys,
// it says so.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// A machine with eth0 and, when `online`, a default route on it; the probe is the real one.
private struct FakeNetwork: NetworkProvider {
    var online: Bool

    func snapshot() -> NetworkSnapshot {
        let eth0 = InterfaceState(name: "eth0", type: .ethernet, isUp: true, isRunning: true, addresses: [InterfaceAddress("192.0.2.2")!])
        let route = Route(family: .ipv4, interface: "eth0", destination: "0.0.0.0", prefixLength: 0, gateway: "192.0.2.1")
        return NetworkSnapshot(interfaces: [eth0], routes: online ? [route] : [])
    }

    func currentPath() -> PathStatus { snapshot().path }
    func monitor(trace: Tracer) -> PathMonitor { PathMonitor(trace: trace) }
    func probe(_ target: ProbeTarget, timeout: Double) async -> ProbeResult { await APIProbe.run(target, timeout: timeout) }
}

/// Passes requests on and keeps a copy of each.
private final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    let inner: any HTTPTransport
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try await inner.send(request, deadline: deadline)
    }
}

final class TrendsServiceTests: XCTestCase {
    func testServiceIsOfflineBeforeSendingToARemoteBase() async throws {
        let transport = RecordingTransport(NoNetworkTransport())
        let service = TrendsService(environment: ["NAVER_API_HUB_KEY_ID": "i", "NAVER_API_HUB_KEY": "k", "SHOPY_DATALAB_BASE": "https://datalab.example/shopping/v1"],
                                    transport: transport, network: FakeNetwork(online: false), trace: .off, diagnostics: CollectedDiagnostics())
        let range = TrendsRange(start: CalendarDate("2026-09-01")!, end: CalendarDate("2026-09-30")!, unit: .month)
        let comparison = TrendsComparison(kind: .categories, category: nil, series: CategoryTable.defaultTopLevel.prefix(2).map(TrendsComparison.Series.category),
                                          range: range, filters: TrendsFilters(), by: nil)
        do {
            _ = try await service.compare(comparison, timeout: 5)
            XCTFail("offline")
        } catch let error as NetworkError {
            guard case .offline = error else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(transport.requests.isEmpty)
        let noKeys = TrendsService(environment: [:], transport: transport, network: FakeNetwork(online: true), trace: .off, diagnostics: CollectedDiagnostics())
        do {
            _ = try await noKeys.compare(comparison, timeout: 5)
            XCTFail("no keys")
        } catch let error as DataLabError {
            guard case .missingKeys = error else { return XCTFail("\(error)") }
        }
        XCTAssertNotNil(TrendsService.unavailableReason(environment: [:]))
        XCTAssertNil(TrendsService.unavailableReason(environment: ["NAVER_API_HUB_KEY_ID": "i", "NAVER_API_HUB_KEY": "k"]))
    }
}
