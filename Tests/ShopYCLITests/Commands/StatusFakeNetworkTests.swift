// `shopy status` through the composition root's network provider: a fake machine that is
// online (eth0 with a default route) or offline (no route), the probe real against a loopback
// socket, so both outcomes run on any machine.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// A machine with eth0 and, when `online`, a default route on it; the probe is the real one.
struct FakeNetwork: NetworkProvider {
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

final class StatusFakeNetworkTests: XCTestCase {
    func run(_ arguments: [String], online: Bool, environment: [String: String] = [:]) async -> CLIRun {
        let home = Home()
        var environment = environment
        environment["SHOPY_HOME"] = home.path
        let io = IO.capture(environment: environment)
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport(), network: FakeNetwork(online: online))
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func testOnlineProbesTheAPIBase() async throws {
        let (fd, port) = try listeningSocket()
        defer { close(fd) }
        let run = await run(["status", "--format", "jsonl"], online: true, environment: ["SHOPY_API_BASE": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(run.code, 0, run.stdout + run.stderr)
        let json = try JSONParser.parse(run.stdout)
        XCTAssertEqual(json["event"]?.stringValue, "initial")
        XCTAssertEqual(json["api"]?["ok"]?.boolValue, true)
        XCTAssertEqual(json["api"]?["port"]?.intValue, port)

        let closed = await self.run(["status", "--format", "json"], online: true, environment: ["SHOPY_API_BASE": "http://127.0.0.1:1"])
        XCTAssertEqual(closed.code, 69)
        let refused = try JSONParser.parse(closed.stdout)
        XCTAssertEqual(refused["status"]?.stringValue, "limited")
        XCTAssertEqual(refused["api"]?["failure"]?.stringValue, "refused")
    }

    func testOfflineSkipsTheProbeAndSays69() async throws {
        let (fd, port) = try listeningSocket()
        defer { close(fd) }
        let run = await run(["status", "--format", "json"], online: false, environment: ["SHOPY_API_BASE": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(run.code, 69, run.stdout + run.stderr)
        let json = try JSONParser.parse(run.stdout)
        XCTAssertEqual(json["status"]?.stringValue, "offline")
        XCTAssertNil(json["api"]?["ok"]?.boolValue, "offline: no probe")
        let text = await self.run(["status"], online: false)
        XCTAssertTrue(text.stdout.hasPrefix("offline · "), text.stdout)
    }

    func testNaverSearchOfflineFailsAtOnceWithoutARequest() async {
        let run = await run(["search", "방충망"], online: false,
                            environment: ["NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret", "SHOPY_API_BASE": "https://api.example.com"])
        XCTAssertEqual(run.code, 69, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: offline"), run.stderr)
    }
}
