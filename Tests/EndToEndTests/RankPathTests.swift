import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

/// A long `shopy rank` scan says when the network path drops and returns, and finishes once it
/// is back. The API is served from the host's end of a veth pair, so requests still reach it
/// through the connected subnet while the namespace's default route is gone.
final class RankPathTests: XCTestCase {
    func testALongScanAnnouncesThePathDroppingAndReturning() throws {
        #if os(Linux)
        guard geteuid() == 0 else { throw XCTSkip("needs root (it creates a network namespace with 'ip')") }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("needs iproute2 ('ip' was not found)")
        }
        let namespace = try NetworkNamespace(ip: ip)
        defer { namespace.destroy() }
        let hostAddress = NetworkNamespace.gateway
        let add = try runProcess(ip, ["addr", "add", hostAddress + "/24", "dev", namespace.outside], environment: [:], timeout: 10)
        XCTAssertEqual(add.status, 0, add.stderr)
        try namespace.connect()

        let emulator = try EmulatorProcess(["--host", hostAddress, "--latency", "300", "--items", RankingEndToEndTests.itemsFile])
        defer { emulator.stop() }
        var environment = emulator.environment
        environment["SHOPY_HOME"] = TestHome.shared.path
        // 11 requests at 2 a second: a scan of about five seconds.
        let scan = try namespace.start(["rank", "테스트키워드", "--product", "12345678901", "--depth", "1099", "--rate", "2", "--json"],
                                       environment: environment)
        // Under way: two pages answered.
        XCTAssertTrue(eventually { ((try? emulator.requestCount()) ?? 0) >= 2 }, "the scan did not start")
        try namespace.ip("route", "del", "default")
        try scan.waitForStderr(containing: "network lost", timeout: 2)
        Thread.sleep(forTimeInterval: 0.5)
        try namespace.ip("route", "add", "default", "via", NetworkNamespace.gateway)
        try scan.waitForStderr(containing: "network back", timeout: 2)
        XCTAssertEqual(try scan.waitForExit(timeout: 30), 0, scan.stderr)
        let document = try JSONParser.parse(scan.lines.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(document["found"], .bool(false))
        XCTAssertEqual(document["scanned"]?.intValue, 1099)
        XCTAssertEqual(try emulator.requestCount(), 11, "the scan went on to the end once the path was back")
        #else
        throw XCTSkip("network namespaces are Linux only")
        #endif
    }
}
