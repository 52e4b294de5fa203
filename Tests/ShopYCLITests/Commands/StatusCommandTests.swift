// Tests for Sources/ShopYCLI/Commands/StatusCommand.swift: the status report (states, text,
// JSON), the changes the watch prints, and `shopy status` in process. The network itself is
// ShopYCoreTests/Network; a fake machine's network is StatusFakeNetworkTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class StatusCommandTests: XCTestCase {
    func address(_ text: String) -> InterfaceAddress { InterfaceAddress(text)! }

    func eth0(up: Bool = true, running: Bool = true, addresses: [String] = ["192.0.2.2", "fe80::fc:ff:fe00:1"]) -> InterfaceState {
        InterfaceState(name: "eth0", type: .ethernet, isUp: up, isRunning: running, addresses: addresses.map(address))
    }

    func defaultRoute(_ interface: String = "eth0", family: AddressFamily = .ipv4, metric: UInt32 = 0) -> Route {
        Route(family: family, interface: interface, destination: family == .ipv4 ? "0.0.0.0" : "::", prefixLength: 0,
              gateway: family == .ipv4 ? "192.0.2.1" : "fd00::1", metric: metric)
    }

    func testReportStatesAndText() {
        let online = PathStatus.evaluate(interfaces: [eth0()], routes: [defaultRoute()])
        let offline = PathStatus.evaluate(interfaces: [eth0()], routes: [])
        let target = ProbeTarget(host: "openapi.naver.com", port: 443)
        let reached = ProbeResult(target: target, address: "1.2.3.4", latency: 0.0231, dnsTime: 0.004)
        let dns = ProbeResult(target: target, failure: .dns, message: "DNS lookup failed for openapi.naver.com")

        XCTAssertEqual(StatusReport(path: online, probe: reached).state, .online)
        XCTAssertEqual(StatusReport(path: online, probe: nil).state, .pathOK, "not probed: only the path is known")
        XCTAssertEqual(StatusReport(path: online, probe: dns).state, .limited)
        XCTAssertEqual(StatusReport(path: offline, probe: nil).state, .offline)

        XCTAssertEqual(StatusReport(path: online, probe: reached).text(), "online · ethernet eth0 · api openapi.naver.com 23 ms")
        XCTAssertEqual(StatusReport(path: online, probe: dns).text(), "limited · ethernet eth0 · api: DNS lookup failed for openapi.naver.com")
        XCTAssertEqual(StatusReport(path: offline, probe: nil).text(), "offline · no interface with a default route")
        XCTAssertEqual(StatusReport(path: online, probe: nil).text(), "path ok · ethernet eth0")
        let local = ProbeResult(target: ProbeTarget(host: "127.0.0.1", port: 8080), address: "127.0.0.1", latency: 0.00002)
        XCTAssertEqual(StatusReport(path: online, probe: local).text(), "online · ethernet eth0 · api 127.0.0.1:8080 1 ms",
                       "a non-standard port is shown; loopback latency rounds up to 1 ms")
    }

    func testReportJSONSchema() throws {
        let online = PathStatus.evaluate(interfaces: [eth0()], routes: [defaultRoute()])
        let target = ProbeTarget(host: "openapi.naver.com", port: 443)
        let json = StatusReport(path: online, probe: ProbeResult(target: target, address: "1.2.3.4", latency: 0.023, dnsTime: 0.004)).json()
        XCTAssertEqual(json.objectValue?.keys, ["status", "path", "reason", "interfaces", "api"])
        XCTAssertEqual(json["status"]?.stringValue, "online")
        XCTAssertEqual(json["path"]?.stringValue, "satisfied")
        XCTAssertEqual(json["reason"], .null)
        XCTAssertEqual(json["interfaces"], .array([.object(JSONObject(["name": .string("eth0"), "type": .string("ethernet")]))]))
        let api = try XCTUnwrap(json["api"])
        XCTAssertEqual(api.objectValue?.keys, ["host", "port", "address", "ok", "latencyMs", "dnsMs", "failure", "message"])
        XCTAssertEqual(api["host"]?.stringValue, "openapi.naver.com")
        XCTAssertEqual(api["port"]?.intValue, 443)
        XCTAssertEqual(api["ok"]?.boolValue, true)
        XCTAssertEqual(api["latencyMs"]?.intValue, 23)
        XCTAssertEqual(api["dnsMs"]?.intValue, 4)
        XCTAssertEqual(api["failure"], .null)

        let offline = StatusReport(path: PathStatus.evaluate(interfaces: [], routes: []), probe: nil)
        XCTAssertEqual(offline.json()["api"], .null)
        XCTAssertEqual(offline.json()["reason"]?.stringValue, "no interface with a default route")

        let date = Date(timeIntervalSince1970: 1_780_000_000.0425)
        let line = offline.jsonLine(time: date, event: "offline", changes: [.path(.linkDown("eth0")), .path(.routeRemoved(defaultRoute()))])
        XCTAssertEqual(line.objectValue?.keys, ["time", "event", "status", "changes", "path", "reason", "interfaces", "api"])
        XCTAssertEqual(line["time"]?.stringValue, "2026-05-28T20:26:40.042Z")
        let changes = try XCTUnwrap(line["changes"]?.arrayValue)
        XCTAssertEqual(changes[0], .object(JSONObject(["change": .string("link-down"), "interface": .string("eth0")])))
        XCTAssertEqual(changes[1]["change"]?.stringValue, "route-removed")
        XCTAssertEqual(changes[1]["destination"]?.stringValue, "default")
        XCTAssertEqual(changes[1]["gateway"]?.stringValue, "192.0.2.1")
        XCTAssertFalse(JSONWriter.string(line).contains("\n"), "one line")
    }

    func testAPIChanges() {
        let target = ProbeTarget(host: "h", port: 443)
        let ok = ProbeResult(target: target, latency: 0.01)
        let dns = ProbeResult(target: target, failure: .dns, message: "DNS lookup failed for h")
        let timeout = ProbeResult(target: target, failure: .timeout, message: "no answer")
        XCTAssertEqual(StatusChange.api(from: ok, to: dns), .apiUnreachable(.dns, "DNS lookup failed for h"))
        XCTAssertEqual(StatusChange.api(from: dns, to: ok), .apiReachable)
        XCTAssertEqual(StatusChange.api(from: dns, to: timeout), .apiUnreachable(.timeout, "no answer"))
        XCTAssertNil(StatusChange.api(from: ok, to: ProbeResult(target: target, latency: 0.5)), "latency alone is no change")
        XCTAssertNil(StatusChange.api(from: nil, to: dns))
    }

    func testStatusNoProbeAgreesWithTheSystemPath() async throws {
        let expected = SystemNetwork.currentPath()
        let run = await Shell.run(["status", "--no-probe", "--format", "json"])
        XCTAssertEqual(run.code, expected.isSatisfied ? 0 : 69, run.stdout + run.stderr)
        let json = try JSONParser.parse(run.stdout)
        XCTAssertEqual(json["status"]?.stringValue, expected.isSatisfied ? "path-ok" : "offline")
        XCTAssertEqual(json["path"]?.stringValue, expected.status.rawValue)
        XCTAssertEqual(json["api"], .null)
        XCTAssertEqual(run.stderr, "")

        let text = await Shell.run(["status", "--no-probe"])
        XCTAssertEqual(text.code, run.code)
        XCTAssertTrue(text.stdout.hasPrefix(expected.isSatisfied ? "path ok · " : "offline · "), text.stdout)
        // The status line, then one line a source (naver, 11st, coupang, catalog) with its keys.
        let lines = text.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1 + SourceKind.allCases.count, text.stdout)
        XCTAssertEqual(lines.dropFirst().map { String($0.prefix(14)) }, ["source naver  ", "source 11st   ", "source coupang", "source catalog"])
    }

    func testStatusUsageErrors() async {
        for arguments in [["status", "now"], ["status", "--watch", "--format", "json"], ["status", "--timeout", "0"],
                          ["status", "--format", "tsv"], ["status", "--json", "--format", "jsonl"]] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("shopy: "), run.stderr)
        }
    }

    func testStatusHelp() async {
        let run = await Shell.run(["status", "--help"])
        XCTAssertEqual(run.code, 0)
        for fragment in ["OVERVIEW:", "--watch", "--no-probe", "--format", "--timeout", "EXAMPLES:", "69"] {
            XCTAssertTrue(run.stdout.contains(fragment), fragment)
        }
    }

    func testStatusWithoutAProbeSaysPathOK() async throws {
        let run = await Home().run(["status", "--no-probe"])
        XCTAssertFalse(run.stdout.hasPrefix("online"), "without a probe, online is not known: \(run.stdout)")
        XCTAssertTrue(run.stdout.hasPrefix("path ok") || run.stdout.hasPrefix("offline"), run.stdout)
        XCTAssertEqual(run.code, run.stdout.hasPrefix("path ok") ? 0 : 69)
        let help = await Home().run(["help", "status"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(help.stdout.contains("Exit status 0 when online or path ok"), help.stdout)
    }
}
