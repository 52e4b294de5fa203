// Tests for Sources/ShopYCore/Services/ScanPacer.swift and HTTP/RateLimiter.swift through `shopy
// rank` against the emulator (in process) with its 10-a-second throttle: the pages held for the
// first answer's total catch up, and a retry of the first page neither waits behind them nor
// makes the scan burst past the throttle.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
@testable import ShopYCatalog
import ShopYTestSupport

final class RankRetryPacingTests: XCTestCase {
    /// 1,500 items holding the keyword: a scan to 1,099 sends 11 pages.
    static let deep = Catalog(items: (1...1500).map { rank in
        WireItem(title: "벤치키워드 상품 \(rank)", link: "https://example.test/\(rank)", image: "", lprice: "\(1000 + rank)",
                 hprice: "", mallName: "몰\(rank % 37)", productId: String(50_000_000_000 + rank), productType: "2")
    })

    func scan(fault: EmulatorFault?) async throws -> (RankCommand.Outcome, JSONValue?) {
        var config = EmulatorConfig()
        config.latencyMilliseconds = 50
        config.rateLimit = 10
        config.fault = fault
        config.faultCount = fault == nil ? nil : 1
        let server = EmulatorServer(config: config, catalog: Self.deep)
        _ = try server.start()
        defer { server.stop() }
        let home = NSTemporaryDirectory() + "shopy-rankretry-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let io = IO.capture(environment: ["SHOPY_HOME": home, "SHOPY_API_BASE": server.baseURL,
                                          "NAVER_CLIENT_ID": "emulator-id", "NAVER_CLIENT_SECRET": "emulator-secret"])
        let context = Context(io: io, transport: SystemTransport.shared, store: SettingsStore(directory: home))
        let command = try RankCommand(ArgumentParser.parse(["벤치키워드", "--product", "99999999999", "--depth", "1099"],
                                                           for: RankCommand.spec, commandPath: "rank"))
        let outcome = try await command.execute(context)
        return (outcome, RawHTTPResponse.request(port: server.port, "/_emulator/stats").json)
    }

    func testAScanWithAFailedFirstPageIsNeverThrottled() async throws {
        let (outcome, stats) = try await scan(fault: .serverError)
        XCTAssertEqual(stats?["throttled"]?.intValue, 0, "no answer of the throttle: \(String(describing: stats))")
        XCTAssertEqual(outcome.scan.requests, 12, "11 pages and the first one's retry")
        XCTAssertEqual(outcome.scan.scannedTo, 1099)
        XCTAssertTrue(outcome.scan.matches.isEmpty)
    }

    func testAPlainScanIsNeverThrottled() async throws {
        let (outcome, stats) = try await scan(fault: nil)
        XCTAssertEqual(stats?["throttled"]?.intValue, 0)
        XCTAssertEqual(outcome.scan.requests, 11)
        XCTAssertEqual(stats?["requests"]?.intValue, 11)
    }
}
