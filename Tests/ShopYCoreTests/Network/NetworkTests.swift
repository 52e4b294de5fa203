// Tests for Sources/ShopYCore/Network: the parsers of /proc/net/route, /proc/net/ipv6_route and
// /sys/class/net (from Fixtures/network/), the path rules (`PathStatus.evaluate`), the diff
// the watch prints, the API probe against local sockets, the monitor's start-up, PathWatcher's
// transitions (`shopy status`: ShopYCLITests/Commands/StatusCommandTests). The real path changes (links going down, routes
// removed) are tested in a network namespace by EndToEndTests/NetworkNamespaceTests.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
import ShopYTestSupport

enum NetworkFixture {
    static let directory = Repository.root()
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

    func address(_ text: String) -> InterfaceAddress { InterfaceAddress(text)! }

    func eth0(up: Bool = true, running: Bool = true, addresses: [String] = ["192.0.2.2", "fe80::fc:ff:fe00:1"]) -> InterfaceState {
        InterfaceState(name: "eth0", type: .ethernet, isUp: up, isRunning: running, addresses: addresses.map(address))
    }

    let lo = InterfaceState(name: "lo", type: .loopback, isUp: true, isRunning: true, isLoopback: true,
                                    addresses: [InterfaceAddress("127.0.0.1")!, InterfaceAddress("::1")!])

    func defaultRoute(_ interface: String = "eth0", family: AddressFamily = .ipv4, metric: UInt32 = 0) -> Route {
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

}

/// Collects watcher events from any thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PathWatcher.Event] = []
    func append(_ event: PathWatcher.Event) { lock.withLock { events.append(event) } }
    var all: [PathWatcher.Event] { lock.withLock { events } }
}
