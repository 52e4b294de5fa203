import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// `shopy status`, `status --watch` and the offline check of `search`, run inside a network
/// namespace of their own whose only link (one end of a veth pair) the test brings up and down,
/// addresses and routes. Needs Linux, root and iproute2; skipped otherwise.
final class NetworkNamespaceTests: XCTestCase {
    private var namespace: NetworkNamespace!

    override func setUpWithError() throws {
        #if os(Linux)
        guard geteuid() == 0 else {
            throw XCTSkip("network namespace tests need root (they create a namespace and a veth pair with 'ip')")
        }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("network namespace tests need iproute2 ('ip' was not found in /usr/sbin, /sbin, /usr/bin or /bin)")
        }
        namespace = try NetworkNamespace(ip: ip)
        #else
        throw XCTSkip("network namespaces are Linux only")
        #endif
    }

    override func tearDown() {
        namespace?.destroy()
        namespace = nil
        super.tearDown()
    }

    // MARK: shopy status

    func testStatusIsOfflineWithOnlyLoopbackAndOnlineWithARoute() throws {
        let offline = try namespace.shopy(["status", "--no-probe"])
        XCTAssertEqual(offline.status, 69, offline.stdout + offline.stderr)
        // The status line, then one line a source.
        XCTAssertEqual(offline.stdoutLines.first, "offline · no interface with a default route")
        XCTAssertEqual(offline.stdoutLines.count, 1 + SourceKind.allCases.count)
        XCTAssertEqual(offline.stderr, "")

        let json = try JSONParser.parse(try namespace.shopy(["status", "--no-probe", "--format", "json"]).stdout)
        XCTAssertEqual(json["status"]?.stringValue, "offline")
        XCTAssertEqual(json["path"]?.stringValue, "unsatisfied")
        XCTAssertEqual(json["interfaces"], .array([]))

        try namespace.connect()
        let online = try namespace.shopy(["status", "--no-probe"])
        XCTAssertEqual(online.status, 0, online.stdout + online.stderr)
        XCTAssertEqual(online.stdoutLines.first, "path ok · ethernet \(namespace.inside)", "--no-probe says what it knows")

        // An address but no default route is still offline, and says why.
        try namespace.ip("route", "del", "default")
        let noRoute = try namespace.shopy(["status", "--no-probe", "--format", "json"])
        XCTAssertEqual(noRoute.status, 69)
        XCTAssertEqual(try JSONParser.parse(noRoute.stdout)["reason"]?.stringValue, "no interface with a default route")
    }

    func testStatusProbeIsSkippedOfflineAndFailsWithoutAGateway() throws {
        let offline = try namespace.shopy(["status", "--format", "json"], environment: ["SHOPY_API_BASE": "http://192.0.2.1"])
        XCTAssertEqual(offline.status, 69)
        XCTAssertEqual(try JSONParser.parse(offline.stdout)["api"], .null, "offline: nothing to probe")

        // A route to a gateway that does not exist: the path is satisfied, the probe is not.
        try namespace.connect()
        let limited = try namespace.shopy(["status", "--timeout", "1", "--format", "json"], environment: ["SHOPY_API_BASE": "http://192.0.2.1"])
        XCTAssertEqual(limited.status, 69, limited.stdout + limited.stderr)
        let json = try JSONParser.parse(limited.stdout)
        XCTAssertEqual(json["status"]?.stringValue, "limited")
        XCTAssertEqual(json["api"]?["ok"]?.boolValue, false)
        XCTAssertTrue(["timeout", "unreachable"].contains(json["api"]?["failure"]?.stringValue ?? ""), limited.stdout)
        if json["api"]?["failure"]?.stringValue == "timeout" {
            XCTAssertTrue(json["api"]?["message"]?.stringValue?.hasSuffix("within 1 s") ?? false, "the probe gives up after --timeout: \(limited.stdout)")
        }
    }

    // MARK: shopy status --watch

    func testWatchReportsLinkDownLinkUpAndRouteRemovalWithinASecond() throws {
        try namespace.connect()
        let watch = try namespace.start(["status", "--watch", "--format", "jsonl", "--no-probe", "--verbose"])
        defer { watch.kill() }
        let initial = try watch.waitForLine(timeout: 5) { _ in true }
        XCTAssertEqual(initial.json["event"]?.stringValue, "initial")
        XCTAssertEqual(initial.json["status"]?.stringValue, "path-ok", "--no-probe: the path, not the API")
        // Within a second: the kernel's events, debounced for less than that, not the 2 s poll.
        try watch.waitForStderr(containing: "path monitor: ", timeout: 5)
        let mode = try XCTUnwrap(watch.stderr.split(separator: "\n").first { $0.contains("path monitor: ") }, watch.stderr)
        XCTAssertTrue(mode.contains("path monitor: netlink (link, address and route events), debounce "), String(mode))
        let debounce = mode.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) }
        XCTAssertLessThan(try XCTUnwrap(debounce, String(mode)), 1000, String(mode))

        func expect(_ change: String, status: String, after command: [String], file: StaticString = #filePath, line: UInt = #line) throws {
            try namespace.ip(command)
            let found = try watch.waitForLine(timeout: 5, file: file, line: line) { json in
                json["changes"]?.arrayValue?.contains { $0["change"]?.stringValue == change } ?? false
            }
            XCTAssertEqual(found.json["status"]?.stringValue, status, found.text, file: file, line: line)
            XCTAssertNotNil(found.json["time"]?.stringValue, file: file, line: line)
        }

        // Down: the kernel also drops the default route through the link.
        try expect("link-down", status: "offline", after: ["link", "set", namespace.inside, "down"])
        try expect("link-up", status: "offline", after: ["link", "set", namespace.inside, "up"])
        try expect("route-added", status: "path-ok", after: ["route", "add", "default", "via", NetworkNamespace.gateway])
        try expect("route-removed", status: "offline", after: ["route", "del", "default"])

        let offlineLine = watch.lines.last { $0.json["changes"]?.arrayValue?.contains { $0["change"]?.stringValue == "route-removed" } ?? false }
        XCTAssertEqual(offlineLine?.json["event"]?.stringValue, "offline", "the status changed, so the event names it")

        watch.signal(SIGINT)
        XCTAssertEqual(try watch.waitForExit(timeout: 5), 0, "SIGINT ends the watch with status 0")
    }

    func testWatchPrintsTimestampedLinesAndStopsOnSIGTERM() throws {
        let watch = try namespace.start(["status", "--watch", "--no-probe"])
        defer { watch.kill() }
        let initial = try watch.waitForText(timeout: 5)
        XCTAssertTrue(initial.text.hasSuffix("  offline · no interface with a default route"), initial.text)
        XCTAssertNotNil(initial.text.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  "#, options: .regularExpression), initial.text)

        try namespace.connect()
        let online = try watch.waitForText(timeout: 5) { $0.contains("→ path ok") }
        XCTAssertTrue(online.text.contains("default route via \(NetworkNamespace.gateway) on \(namespace.inside) added"), online.text)
        XCTAssertTrue(online.text.hasSuffix("→ path ok · ethernet \(namespace.inside)"), online.text)

        watch.signal(SIGTERM)
        XCTAssertEqual(try watch.waitForExit(timeout: 5), 0, "SIGTERM ends the watch with status 0")
        XCTAssertEqual(watch.stderr, "")
    }

    func testWatchIsIdleBetweenChanges() throws {
        let watch = try namespace.start(["status", "--watch", "--format", "jsonl", "--no-probe"])
        defer { watch.kill() }
        _ = try watch.waitForLine(timeout: 5) { _ in true }
        let before = try cpuTicks(watch.pid)
        Thread.sleep(forTimeInterval: 1)
        let after = try cpuTicks(watch.pid)
        XCTAssertLessThanOrEqual(after - before, 2, "no busy polling: at most 2 clock ticks (20 ms) in an idle second")
        XCTAssertEqual(watch.lines.count, 1, "nothing changed, nothing printed")
    }

    /// utime + stime of a process, in clock ticks.
    private func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) in parentheses.
        guard let close = stat.lastIndex(of: ")") else { throw HarnessError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { throw HarnessError("unreadable /proc/\(pid)/stat") }
        return user + system
    }

    // MARK: Commands that need the network

    func testSearchFailsFastWhenOffline() throws {
        let environment = ["SHOPY_API_BASE": "http://192.0.2.1", "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"]
        let result = try namespace.shopy(["search", "x", "--source", "naver", "--timeout", "10"], environment: environment)
        // Offline (69) before anything is sent, not a timeout (75) after 10 s.
        assertErrorReport(result, status: 69, contains: ["offline: no interface with a default route", "192.0.2.1", "--source catalog"])
    }

    func testSearchOfALoopbackAPISkipsThePathCheck() throws {
        // Loopback needs no route: the request is sent (and refused: nothing listens on port 9).
        let environment = ["SHOPY_API_BASE": "http://127.0.0.1:9", "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"]
        let result = try namespace.shopy(["search", "x", "--source", "naver", "--timeout", "5"], environment: environment)
        assertErrorReport(result, status: 69, contains: ["refused"])
        XCTAssertFalse(result.stderr.contains("offline:"), result.stderr)
    }

    func testSearchIsNotRefusedOnceThereIsARoute() throws {
        try namespace.connect()
        let environment = ["SHOPY_API_BASE": "http://192.0.2.1", "NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"]
        let result = try namespace.shopy(["search", "x", "--source", "naver", "--timeout", "1"], environment: environment)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stderr.contains("offline:"), "a satisfied path lets the request go: \(result.stderr)")
    }
}

/// A network namespace with one veth link to the host's namespace, removed by `destroy`.
///
///     host: <outside> (up, no address)  <—veth—>  namespace: lo, <inside>
///
/// `connect` brings <inside> up with 10.213.0.2/24 and a default route via 10.213.0.1 (which
/// does not exist: nothing here leaves the machine).
final class NetworkNamespace: @unchecked Sendable {
    static let address = "10.213.0.2/24"
    static let gateway = "10.213.0.1"
    nonisolated(unsafe) private static var counter = 0

    let ipPath: String
    let name: String
    /// The veth end inside the namespace, and the one left in the host's.
    let inside: String
    let outside: String
    private var running: [WatchProcess] = []

    init(ip: String) throws {
        Self.counter += 1
        let pid = getpid()
        ipPath = ip
        name = "shopy-test-\(pid)-\(Self.counter)"
        // Interface names are at most 15 bytes.
        inside = "sy\(pid)n\(Self.counter)"
        outside = "sy\(pid)h\(Self.counter)"
        destroy()  // leftovers of a crashed run with the same pid
        do {
            try run(["netns", "add", name])
        } catch {
            throw XCTSkip("cannot create a network namespace here: \(error)")
        }
        do {
            try run(["link", "add", outside, "type", "veth", "peer", "name", inside])
            try run(["link", "set", inside, "netns", name])
            try run(["link", "set", outside, "up"])
            try self.ip("link", "set", "lo", "up")
        } catch {
            destroy()
            throw error
        }
    }

    /// Removes the namespace (which takes its veth end, and so the pair, with it) and the host's
    /// end in case it is still there. Safe to call more than once.
    func destroy() {
        for process in running { process.kill() }
        running.removeAll()
        _ = try? runProcess(ipPath, ["netns", "del", name], environment: [:], timeout: 10)
        _ = try? runProcess(ipPath, ["link", "del", outside], environment: [:], timeout: 10)
    }

    /// Up, with an address and a default route.
    func connect() throws {
        try ip("link", "set", inside, "up")
        try ip("addr", "add", Self.address, "dev", inside)
        try ip("route", "add", "default", "via", Self.gateway)
    }

    /// `ip -n <namespace> …`.
    func ip(_ arguments: String...) throws { try ip(arguments) }

    func ip(_ arguments: [String]) throws { try run(["-n", name] + arguments) }

    private func run(_ arguments: [String]) throws {
        let result = try runProcess(ipPath, arguments, environment: [:], timeout: 10)
        guard result.status == 0 else {
            throw HarnessError("ip \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
    }

    /// Runs the built shopy inside the namespace and waits for it.
    func shopy(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        try runProcess(ipPath, ["netns", "exec", name, Binary.path("shopy")] + arguments, environment: environment, timeout: 30)
    }

    /// Starts the built shopy inside the namespace (`ip netns exec` execs it: same pid).
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> WatchProcess {
        let process = try WatchProcess(ipPath, ["netns", "exec", name, Binary.path("shopy")] + arguments, environment: environment)
        running.append(process)
        return process
    }
}

/// A running process whose stdout lines are collected as they arrive, with their arrival time.
final class WatchProcess: @unchecked Sendable {
    struct Line {
        var text: String
        var arrived: Date
        var json: JSONValue { (try? JSONParser.parse(text)) ?? .null }
    }

    private let process = Process()
    private let condition = NSCondition()
    private var collected: [Line] = []
    private var consumed = 0
    private var errorText = Data()
    private var ended = false
    private let exited = DispatchSemaphore(value: 0)

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": TestHome.shared.path]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let reader = Thread { [self] in
            let handle = out.fileHandleForReading
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                let now = Date()
                while let newline = pending.firstIndex(of: 0x0A) {
                    let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    condition.lock()
                    collected.append(Line(text: text, arrived: now))
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        reader.start()
        // stderr as it arrives (a scan's "network lost" lines are read while it runs).
        let errorReader = Thread { [self] in
            let handle = err.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                condition.lock()
                errorText.append(chunk)
                condition.broadcast()
                condition.unlock()
            }
        }
        errorReader.start()
    }

    var pid: Int32 { process.processIdentifier }

    var lines: [Line] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }

    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errorText, as: UTF8.self)
    }

    /// The next line not yet consumed that matches (skipping those that do not), waiting up
    /// to `timeout` seconds for it.
    func waitForLine(timeout: Double, file: StaticString = #filePath, line: UInt = #line,
                     where matches: (JSONValue) -> Bool) throws -> Line {
        try waitForText(timeout: timeout, file: file, line: line) { matches((try? JSONParser.parse($0)) ?? .null) }
    }

    func waitForText(timeout: Double, file: StaticString = #filePath, line: UInt = #line,
                     where matches: (String) -> Bool = { _ in true }) throws -> Line {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while consumed < collected.count {
                let candidate = collected[consumed]
                consumed += 1
                if matches(candidate.text) { return candidate }
            }
            if ended || !condition.wait(until: deadline) {
                let seen = collected.map(\.text).joined(separator: "\n")
                throw HarnessError("no matching line within \(timeout) s\(ended ? " (the process ended)" : ""); lines so far:\n\(seen)\nstderr: \(String(decoding: errorText, as: UTF8.self))")
            }
        }
    }

    /// Waits up to `timeout` seconds for stderr to contain `text` (a server may log a request
    /// just after answering it, so a client can see the answer first).
    func waitForStderr(containing text: String, timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: errorText, as: UTF8.self).contains(text) {
            guard condition.wait(until: deadline) else {
                throw HarnessError("stderr did not say '\(text)' within \(timeout) s: \(String(decoding: errorText, as: UTF8.self))")
            }
        }
    }

    func signal(_ signal: Int32) {
        sendSignal(signal, to: process.processIdentifier)
    }

    /// The exit status, waiting up to `timeout` seconds for it.
    func waitForExit(timeout: Double) throws -> Int32 {
        guard exited.wait(timeout: .now() + timeout) == .success else { throw HarnessError("still running after \(timeout) s") }
        exited.signal()  // for a later call
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            throw HarnessError("ended by signal \(process.terminationStatus), not by exit")
        }
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning {
            sendSignal(SIGKILL, to: process.processIdentifier)
            process.waitUntilExit()
        }
    }
}

/// kill(2), out of reach of the methods named `kill`.
private func sendSignal(_ signal: Int32, to pid: pid_t) {
    _ = kill(pid, signal)
}
