// The network (continued): changes, the probe, the monitor and watcher. (The status report and
// shopy status: ShopYCLITests/Commands/StatusCommandTests.)

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase
import ShopYCoreTestSupport

extension NetworkTests {
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
        // A lookup still going at the timeout is given up on: `.dnsTimeout` (its message names
        // the timeout); one that fails first is `.dns`. Either way no address is tried.
        let result = APIProbe.probe(ProbeTarget(host: "no-such-host.invalid", port: 443), timeout: 2)
        XCTAssertTrue([.dns, .dnsTimeout].contains(result.failure), "\(result)")
        XCTAssertTrue(result.message?.contains("no-such-host.invalid") ?? false, "\(result)")
        if result.failure == .dnsTimeout { XCTAssertTrue(result.message?.contains("within 2 s") ?? false, "\(result)") }
        XCTAssertNil(result.address)
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
            // cancel() writes to the wake pipe and returns: it never joins the thread, so it
            // cannot wait for a poll.
            monitor.cancel()
            XCTAssertTrue(monitor.isCancelled)
        }
        #endif
    }

    func testMonitorTracesItsMode() async {
        #if os(Linux)
        let sink = TraceText()
        let monitor = PathMonitor(useEvents: false, trace: Tracer(write: { sink.append($0) }))
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
        let clock = TestClock()
        let watcher = PathWatcher(monitor: PathMonitor(), clock: clock) { _ in }
        let up = PathStatus(status: .satisfied, interfaces: [NetworkInterface(name: "eth0", type: .ethernet)])
        let down = PathStatus(status: .unsatisfied, unsatisfiedReason: PathStatus.noDefaultRoute)
        let unknown = await watcher.waitUntilSatisfied(timeout: 0.01)
        XCTAssertTrue(unknown, "an unknown path is not waited on")
        XCTAssertEqual(clock.sleeps, [])
        watcher.handle(down)
        async let timedOut = watcher.waitUntilSatisfied(timeout: 0.05)
        await clock.sleeping()
        clock.advance(by: .milliseconds(50))
        let gaveUp = await timedOut
        XCTAssertFalse(gaveUp, "given up on at the timeout")
        XCTAssertEqual(clock.sleeps, [.milliseconds(50)])
        // The path returns while a caller waits: it is let go at once, and its timer given up.
        async let waiting = watcher.waitUntilSatisfied(timeout: 5)
        await clock.sleeping()
        watcher.handle(up)
        let restored = await waiting
        XCTAssertTrue(restored)
        XCTAssertEqual(clock.elapsed, .milliseconds(50))
        await settle { clock.cancelled == 1 }
        watcher.handle(down)
        watcher.stop()
        let stopped = await watcher.waitUntilSatisfied(timeout: 5)
        XCTAssertFalse(stopped, "a stopped watcher answers at once")
    }
}
