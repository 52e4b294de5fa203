// Tests for Sources/ShopYCore/Network: the parsers of /proc/net/route, /proc/net/ipv6_route and
// /sys/class/net (from Fixtures/network/), the path rules (`PathStatus.evaluate`), the diff
// the watch prints, the API probe against local sockets, the monitor's start-up, PathWatcher's
// transitions, and `shopy status` in process. The real path changes (links going down, routes
// removed) are tested in a network namespace by EndToEndTests/NetworkNamespaceTests.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

enum NetworkFixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/network")

    static func text(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let path = directory.appendingPathComponent(name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            XCTFail("missing fixture \(path)", file: file, line: line)
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}

final class NetworkTests: XCTestCase {

    // MARK: - Helpers

    private func address(_ text: String) -> InterfaceAddress { InterfaceAddress(text)! }

    private func eth0(up: Bool = true, running: Bool = true, addresses: [String] = ["192.0.2.2", "fe80::fc:ff:fe00:1"]) -> InterfaceState {
        InterfaceState(name: "eth0", type: .ethernet, isUp: up, isRunning: running, addresses: addresses.map(address))
    }

    private let lo = InterfaceState(name: "lo", type: .loopback, isUp: true, isRunning: true, isLoopback: true,
                                    addresses: [InterfaceAddress("127.0.0.1")!, InterfaceAddress("::1")!])

    private func defaultRoute(_ interface: String = "eth0", family: AddressFamily = .ipv4, metric: UInt32 = 0) -> Route {
        Route(family: family, interface: interface, destination: family == .ipv4 ? "0.0.0.0" : "::", prefixLength: 0,
              gateway: family == .ipv4 ? "192.0.2.1" : "fd00::1", metric: metric)
    }

    // MARK: - /proc/net/route

    func testIPv4RouteTableWithDefaultRoute() {
        let routes = RouteTable.parseIPv4(NetworkFixture.text("proc-net-route-default-eth0"))
        XCTAssertEqual(routes.count, 3, "the header is skipped: \(routes)")
        let defaults = routes.filter(\.isDefault)
        XCTAssertEqual(defaults.count, 1)
        let route = defaults[0]
        XCTAssertEqual(route.interface, "eth0")
        XCTAssertEqual(route.family, .ipv4)
        XCTAssertEqual(route.destination, "0.0.0.0")
        XCTAssertEqual(route.gateway, "192.0.2.1", "the kernel prints the address in host byte order")
        XCTAssertEqual(route.metric, 100)
        XCTAssertTrue(route.isUp)
        XCTAssertFalse(route.isReject)
        XCTAssertTrue(route.isUsableDefault)

        let onLink = routes[1]
        XCTAssertEqual(onLink.destination, "192.0.2.0")
        XCTAssertEqual(onLink.prefixLength, 24)
        XCTAssertNil(onLink.gateway)
        XCTAssertEqual(routes[2].interface, "docker0")
        XCTAssertEqual(routes[2].destination, "172.17.0.0")
        XCTAssertEqual(routes[2].prefixLength, 16)
    }

    func testIPv4RouteTableWithoutDefaultRoute() {
        let routes = RouteTable.parseIPv4(NetworkFixture.text("proc-net-route-no-default"))
        XCTAssertEqual(routes.count, 1)
        XCTAssertFalse(routes.contains(where: \.isDefault))
    }

    func testRouteParsersSkipWhatDoesNotParse() {
        XCTAssertEqual(RouteTable.parseIPv4(""), [])
        XCTAssertEqual(RouteTable.parseIPv4("Iface\tDestination\ngarbage line\neth0\tZZZ\t0\t0\n"), [])
        XCTAssertEqual(RouteTable.parseIPv6("too few fields\n0000 00 11\n"), [])
    }

    // MARK: - /proc/net/ipv6_route

    func testIPv6RouteTableWithDefaultRoute() {
        let routes = RouteTable.parseIPv6(NetworkFixture.text("proc-net-ipv6_route-default"))
        XCTAssertEqual(routes.count, 8)
        let usable = routes.filter(\.isUsableDefault)
        XCTAssertEqual(usable.count, 1, "the unreachable default on lo does not count: \(routes.filter(\.isDefault))")
        XCTAssertEqual(usable[0].interface, "eth0")
        XCTAssertEqual(usable[0].gateway, "fd00::1")
        XCTAssertEqual(usable[0].metric, 0x400)
        XCTAssertEqual(usable[0].destination, "::")

        let reject = routes.filter { $0.isDefault && $0.isReject }
        XCTAssertEqual(reject.map(\.interface), ["lo"])
        XCTAssertEqual(reject.first?.metric, 0xFFFF_FFFF)

        let prefix = routes.first { $0.destination == "fd00::" }
        XCTAssertEqual(prefix?.prefixLength, 64)
        XCTAssertNil(prefix?.gateway)
    }

    func testIPv6RouteTableWithOnlyTheUnreachableDefault() {
        let routes = RouteTable.parseIPv6(NetworkFixture.text("proc-net-ipv6_route-no-default"))
        XCTAssertEqual(routes.count, 3)
        XCTAssertTrue(routes.contains(where: \.isDefault))
        XCTAssertFalse(routes.contains(where: \.isUsableDefault))
    }

    // MARK: - /sys/class/net

    func testUeventParsing() {
        let values = SysNetInfo.parseUevent(NetworkFixture.text("sys-uevent-wlan"))
        XCTAssertEqual(values, ["DEVTYPE": "wlan", "INTERFACE": "wlan0", "IFINDEX": "3"])
        XCTAssertEqual(SysNetInfo.parseUevent("no equals sign\n=empty key\nA=b=c\n"), ["A": "b=c"])
    }

    func testInterfaceTypeFromSys() {
        let ether = NetworkFixture.text("sys-type-ether")
        XCTAssertEqual(SysNetInfo(uevent: NetworkFixture.text("sys-uevent-wlan"), type: ether).interfaceType, .wifi)
        XCTAssertEqual(SysNetInfo(uevent: NetworkFixture.text("sys-uevent-wwan"), type: ether).interfaceType, .cellular)
        XCTAssertEqual(SysNetInfo(uevent: NetworkFixture.text("sys-uevent-ethernet"), type: ether).interfaceType, .ethernet)
        XCTAssertEqual(SysNetInfo(uevent: "INTERFACE=lo\n", type: NetworkFixture.text("sys-type-loopback")).interfaceType, .loopback)
        XCTAssertEqual(SysNetInfo(uevent: "INTERFACE=wg0\n", type: NetworkFixture.text("sys-type-none")).interfaceType, .other)
        // Wireless markers win over the ARPHRD type (Wi-Fi reports ARPHRD_ETHER).
        XCTAssertEqual(SysNetInfo(hasWirelessDirectory: true, uevent: NetworkFixture.text("sys-uevent-ethernet"), type: ether).interfaceType, .wifi)
        XCTAssertEqual(SysNetInfo(hasPhy80211: true, type: ether).interfaceType, .wifi)
        XCTAssertEqual(SysNetInfo().interfaceType, .other)
    }

    func testSysInfoRefusesNamesThatClimbOut() {
        #if os(Linux)
        XCTAssertNil(SystemNetwork.sysInfo(for: "../../etc"))
        XCTAssertNil(SystemNetwork.sysInfo(for: ".."))
        XCTAssertNil(SystemNetwork.sysInfo(for: ""))
        XCTAssertEqual(SystemNetwork.sysInfo(for: "lo")?.interfaceType, .loopback)
        #endif
    }

    // MARK: - Addresses

    func testAddressClassification() {
        XCTAssertTrue(address("127.0.0.1").isLoopback)
        XCTAssertFalse(address("127.0.0.1").isUsable)
        XCTAssertTrue(address("::1").isLoopback)
        XCTAssertTrue(address("fe80::1").isLinkLocal)
        XCTAssertFalse(address("fe80::1").isUsable)
        XCTAssertTrue(address("192.0.2.2").isUsable)
        XCTAssertTrue(address("169.254.3.4").isUsable, "IPv4 link-local can carry a default route")
        XCTAssertTrue(address("2001:db8::1").isUsable)
        XCTAssertFalse(address("0.0.0.0").isUsable)
        XCTAssertEqual(address("2001:0db8:0000::0001").address, "2001:db8::1")
        XCTAssertEqual(address("::1").family, .ipv6)
        XCTAssertNil(InterfaceAddress("not an address"))
        XCTAssertNil(InterfaceAddress("10.0.0.1/24"))
    }

    // MARK: - evaluate

    func testSatisfiedThroughADefaultRouteOnAnInterfaceWithLinkAndAddress() {
        let path = PathStatus.evaluate(interfaces: [lo, eth0()], routes: [defaultRoute()])
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.interfaces, [NetworkInterface(name: "eth0", type: .ethernet)])
        XCTAssertNil(path.unsatisfiedReason)
        XCTAssertTrue(path.usesInterfaceType(.ethernet))
        XCTAssertFalse(path.usesInterfaceType(.wifi))
    }

    func testSatisfiedFromTheFixtures() {
        let routes = RouteTable.parseIPv4(NetworkFixture.text("proc-net-route-default-eth0"))
            + RouteTable.parseIPv6(NetworkFixture.text("proc-net-ipv6_route-default"))
        let path = PathStatus.evaluate(interfaces: [lo, eth0(addresses: ["fd00::2", "fe80::fc:ff:fe00:1"])], routes: routes)
        XCTAssertEqual(path.status, .satisfied, "the IPv6 default through eth0 with a global address: \(path)")
        XCTAssertEqual(path.interfaces.map(\.name), ["eth0"])
    }

    func testUnsatisfiedWithoutADefaultRoute() {
        let routes = RouteTable.parseIPv4(NetworkFixture.text("proc-net-route-no-default"))
            + RouteTable.parseIPv6(NetworkFixture.text("proc-net-ipv6_route-no-default"))
        let path = PathStatus.evaluate(interfaces: [lo, eth0()], routes: routes)
        XCTAssertEqual(path.status, .unsatisfied)
        XCTAssertEqual(path.interfaces, [])
        XCTAssertEqual(path.unsatisfiedReason, "no interface with a default route")
    }

    func testUnsatisfiedWithOnlyLoopback() {
        let onLo = Route(family: .ipv4, interface: "lo", destination: "0.0.0.0", prefixLength: 0)
        XCTAssertEqual(PathStatus.evaluate(interfaces: [lo], routes: []).status, .unsatisfied)
        XCTAssertEqual(PathStatus.evaluate(interfaces: [lo], routes: [onLo]).unsatisfiedReason, PathStatus.noDefaultRoute)
    }

    func testUnsatisfiedWhenTheRouteInterfaceIsDownHasNoLinkOrNoAddress() {
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0(up: false, running: false)], routes: [defaultRoute()]).unsatisfiedReason,
                       "eth0 is down")
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0(running: false)], routes: [defaultRoute()]).unsatisfiedReason,
                       "eth0 has no link")
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0(addresses: ["fe80::1"])], routes: [defaultRoute()]).unsatisfiedReason,
                       "eth0 has no usable IPv4 address")
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0(addresses: ["192.0.2.2", "fe80::1"])], routes: [defaultRoute(family: .ipv6)]).unsatisfiedReason,
                       "eth0 has no usable IPv6 address", "a link-local IPv6 address reaches nothing beyond the link")
        XCTAssertEqual(PathStatus.evaluate(interfaces: [lo], routes: [defaultRoute("wlan0")]).unsatisfiedReason,
                       "the default route names wlan0, which does not exist")
    }

    func testRejectAndDownRoutesDoNotCount() {
        var reject = defaultRoute()
        reject.isReject = true
        var down = defaultRoute()
        down.isUp = false
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0()], routes: [reject]).status, .unsatisfied)
        XCTAssertEqual(PathStatus.evaluate(interfaces: [eth0()], routes: [down]).status, .unsatisfied)
    }

    func testInterfacesInUseArePreferredByMetric() {
        let wlan = InterfaceState(name: "wlan0", type: .wifi, isUp: true, isRunning: true, addresses: [address("10.0.0.7")])
        let path = PathStatus.evaluate(interfaces: [wlan, eth0()],
                                       routes: [defaultRoute("wlan0", metric: 600), defaultRoute("eth0", metric: 100),
                                                defaultRoute("eth0", family: .ipv6, metric: 1024)])
        XCTAssertEqual(path.interfaces, [NetworkInterface(name: "eth0", type: .ethernet), NetworkInterface(name: "wlan0", type: .wifi)])
        XCTAssertEqual(path.interfaceSummary, "ethernet eth0, wifi wlan0")
    }

    func testOneUsableRouteIsEnoughWhenAnotherFails() {
        let wlan = InterfaceState(name: "wlan0", type: .wifi, isUp: true, isRunning: false, addresses: [address("10.0.0.7")])
        let path = PathStatus.evaluate(interfaces: [wlan, eth0()], routes: [defaultRoute("wlan0", metric: 10), defaultRoute("eth0", metric: 100)])
        XCTAssertEqual(path.status, .satisfied)
        XCTAssertEqual(path.interfaces.map(\.name), ["eth0"])
    }

    // MARK: - Changes

    func testChangesOfALinkGoingDown() {
        let before = NetworkSnapshot(interfaces: [lo, eth0()], routes: [defaultRoute(), Route(family: .ipv4, interface: "eth0", destination: "192.0.2.0", prefixLength: 24)])
        XCTAssertEqual(before.routes.count, 1, "only default routes are kept")
        let after = NetworkSnapshot(interfaces: [lo, eth0(running: false)], routes: [])
        XCTAssertEqual(after.changes(from: before), [.linkDown("eth0"), .routeRemoved(defaultRoute())])
        XCTAssertEqual(before.changes(from: after), [.linkUp("eth0"), .routeAdded(defaultRoute())])
        XCTAssertEqual(before.changes(from: before), [])
        XCTAssertEqual(after.path.status, .unsatisfied)
    }

    func testChangesOfAddressesAndInterfaces() {
        let before = NetworkSnapshot(interfaces: [lo, eth0(addresses: ["192.0.2.2"])], routes: [])
        // A link-local address is not worth a line; a global one is.
        let after = NetworkSnapshot(interfaces: [lo, eth0(addresses: ["192.0.2.3", "fe80::1"])], routes: [])
        XCTAssertEqual(after.changes(from: before), [.addressAdded("eth0", address("192.0.2.3")), .addressRemoved("eth0", address("192.0.2.2"))])
        let wlan = InterfaceState(name: "wlan0", type: .wifi, isUp: true, isRunning: true, addresses: [address("10.0.0.7")])
        let more = NetworkSnapshot(interfaces: [lo, eth0(addresses: ["192.0.2.2"]), wlan], routes: [])
        XCTAssertEqual(more.changes(from: before), [.interfaceAdded("wlan0"), .linkUp("wlan0"), .addressAdded("wlan0", address("10.0.0.7"))])
        XCTAssertEqual(before.changes(from: more), [.interfaceRemoved("wlan0")])
        XCTAssertEqual(PathChange.linkDown("eth0").event, "link-down")
        XCTAssertEqual(PathChange.routeRemoved(defaultRoute()).summary, "ipv4 default route via 192.0.2.1 on eth0 removed")
    }

    func testSnapshotsCompareEqualWhateverTheOrder() {
        let a = NetworkSnapshot(interfaces: [lo, eth0()], routes: [defaultRoute(family: .ipv6), defaultRoute()])
        let b = NetworkSnapshot(interfaces: [eth0(), lo], routes: [defaultRoute(), defaultRoute(family: .ipv6)])
        XCTAssertEqual(a, b)
    }

    // MARK: - Status report

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

    // MARK: - Probe

    func testProbeTargetFromTheEnvironment() throws {
        XCTAssertEqual(try ProbeTarget.from(environment: [:]), ProbeTarget(host: "openapi.naver.com", port: 443))
        XCTAssertEqual(try ProbeTarget.from(environment: ["SHOPY_API_BASE": "http://127.0.0.1:8080"]), ProbeTarget(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(try ProbeTarget.from(environment: ["SHOPY_API_BASE": "http://example.com"]).port, 80)
        XCTAssertThrowsError(try ProbeTarget.from(environment: ["SHOPY_API_BASE": "ftp://x"]))
        for loopback in ["127.0.0.1", "127.9.9.9", "localhost", "LocalHost", "::1", "[::1]", "api.localhost"] {
            XCTAssertTrue(ProbeTarget(host: loopback, port: 80).isLoopback, loopback)
        }
        for remote in ["192.0.2.1", "openapi.naver.com", "10.0.0.1", "2001:db8::1", "localhost.example.com"] {
            XCTAssertFalse(ProbeTarget(host: remote, port: 80).isLoopback, remote)
        }
        XCTAssertEqual(ProbeTarget(host: "::1", port: 8080).display, "[::1]:8080")
    }

    func testProbeReachesAListeningSocket() async throws {
        let (fd, port) = try listeningSocket()
        defer { close(fd) }
        let result = await APIProbe.run(ProbeTarget(host: "127.0.0.1", port: port), timeout: 2)
        XCTAssertTrue(result.ok, "\(result)")
        XCTAssertNil(result.failure)
        XCTAssertEqual(result.address, "127.0.0.1")
        let latency = try XCTUnwrap(result.latencyMilliseconds)
        XCTAssertGreaterThanOrEqual(latency, 1)
        XCTAssertLessThan(latency, 1000)
        XCTAssertNotNil(result.dnsTime)
    }

    func testProbeOfAClosedPortIsRefused() throws {
        let (fd, port) = try listeningSocket()
        close(fd)
        let result = APIProbe.probe(ProbeTarget(host: "127.0.0.1", port: port), timeout: 2)
        XCTAssertEqual(result.failure, .refused, "\(result)")
        XCTAssertFalse(result.ok)
        XCTAssertNil(result.latency)
        XCTAssertEqual(result.message, "127.0.0.1:\(port) refused the connection")
    }

    func testProbeOfANameThatDoesNotResolveFailsAtDNS() {
        let started = Date()
        let result = APIProbe.probe(ProbeTarget(host: "no-such-host.invalid", port: 443), timeout: 2)
        XCTAssertTrue([.dns, .dnsTimeout].contains(result.failure), "\(result)")
        XCTAssertTrue(result.message?.contains("no-such-host.invalid") ?? false, "\(result)")
        XCTAssertNil(result.address)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "given up on after the timeout")
    }

    // MARK: - Monitor and watcher

    func testMonitorDeliversTheCurrentStateAtStart() async throws {
        #if os(Linux)
        for useEvents in [true, false] {
            let monitor = PathMonitor(useEvents: useEvents)
            var iterator = monitor.updates().makeAsyncIterator()
            let first = await iterator.next()
            XCTAssertNotNil(first)
            XCTAssertEqual(first, monitor.currentSnapshot)
            XCTAssertTrue(first?.interfaces.contains { $0.type == .loopback } ?? false, "lo is always there: \(String(describing: first))")
            if useEvents {
                XCTAssertEqual(monitor.mode, .events, "netlink is available here")
            } else {
                XCTAssertEqual(monitor.mode, .polling(interval: 2, reason: "disabled"))
            }
            let started = Date()
            monitor.cancel()
            XCTAssertTrue(monitor.isCancelled)
            XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "cancel wakes the thread, never waits for a poll")
        }
        #endif
    }

    func testMonitorTracesItsMode() async {
        #if os(Linux)
        let sink = OutputSink()
        let monitor = PathMonitor(useEvents: false, trace: Tracer(sink))
        monitor.start(queue: DispatchQueue(label: "test"))
        monitor.cancel()
        XCTAssertTrue(sink.text.contains("polling every 2 s"), sink.text)
        #endif
    }

    func testWatcherReportsOnlyTransitions() async {
        let events = EventLog()
        let watcher = PathWatcher(monitor: PathMonitor()) { events.append($0) }
        let up = PathStatus(status: .satisfied, interfaces: [NetworkInterface(name: "eth0", type: .ethernet)])
        let down = PathStatus(status: .unsatisfied, unsatisfiedReason: "eth0 has no link")
        watcher.handle(up)
        watcher.handle(up)
        XCTAssertTrue(watcher.isSatisfied)
        watcher.handle(down)
        watcher.handle(down)
        XCTAssertFalse(watcher.isSatisfied)
        watcher.handle(up)
        XCTAssertEqual(events.all, [.lost(down), .restored(up)])
        XCTAssertEqual(PathWatcher.describe(.lost(down)), "network lost: eth0 has no link")
        XCTAssertEqual(PathWatcher.describe(.restored(up)), "network back: ethernet eth0")
    }

    func testWatcherWaitsUntilSatisfied() async {
        let watcher = PathWatcher(monitor: PathMonitor()) { _ in }
        let up = PathStatus(status: .satisfied, interfaces: [NetworkInterface(name: "eth0", type: .ethernet)])
        let down = PathStatus(status: .unsatisfied, unsatisfiedReason: PathStatus.noDefaultRoute)
        let unknown = await watcher.waitUntilSatisfied(timeout: 0.01)
        XCTAssertTrue(unknown, "an unknown path is not waited on")
        watcher.handle(down)
        let timedOut = await watcher.waitUntilSatisfied(timeout: 0.05)
        XCTAssertFalse(timedOut)
        Task {
            try? await Task.sleep(nanoseconds: 50_000_000)
            watcher.handle(up)
        }
        let restored = await watcher.waitUntilSatisfied(timeout: 5)
        XCTAssertTrue(restored)
        watcher.handle(down)
        watcher.stop()
        let stopped = await watcher.waitUntilSatisfied(timeout: 5)
        XCTAssertFalse(stopped, "a stopped watcher answers at once")
    }

    // MARK: - shopy status in process

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
        XCTAssertEqual(text.stdout.split(separator: "\n").count, 1)
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
}

/// Collects watcher events from any thread.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PathWatcher.Event] = []
    func append(_ event: PathWatcher.Event) { lock.withLock { events.append(event) } }
    var all: [PathWatcher.Event] { lock.withLock { events } }
}
