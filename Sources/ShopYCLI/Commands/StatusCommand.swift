import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import ShopYBase

/// `shopy status`: whether the network path is usable and the API host answers; `--watch`
/// follows changes until interrupted.
public struct StatusCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "status",
        abstract: "Show whether the network and the API can be reached; --watch follows changes.",
        discussion: """
            online: a default route goes through an interface that is up, has link and a usable address, and the API host (SHOPY_API_BASE, default openapi.naver.com) resolves and accepts a TCP connection within --timeout; nothing is sent to it. limited: the path is usable but that probe failed (DNS, refused, unreachable, timeout). path ok (path-ok in JSON): with --no-probe, the path is usable and the API was not tried. offline: no usable default route; the probe is skipped. Then one line a source (naver, 11st, coupang, catalog): whether its keys are set (never the keys), whether commands use it by default, its address, and for Coupang the requests counted this hour against its budget and any hold after a 429 (JSON: "sources"). Exit status 0 when online or path ok, 69 when limited or offline.

            With --watch, the current state comes first, then one timestamped line for each change (interfaces, link up/down, usable addresses, default routes; the probe runs again on each change, and every 15 s while limited) until Ctrl-C or SIGTERM, which end it with status 0. Changes are reported by the kernel as they happen; nothing is polled.

            --format json prints one object: status (online, limited, path-ok, offline), path (satisfied, unsatisfied), reason (why unsatisfied, else null), interfaces [{name, type}] (type: wifi, ethernet, cellular, loopback, other), api {host, port, address, ok, latencyMs, dnsMs, failure, message} or null when not probed (failure: dns, dns-timeout, refused, unreachable, timeout, error). --format jsonl prints the same object compact, one a line, with time (UTC) and event first: initial, then online, limited, path-ok or offline when the status changed, else change; and changes [{change, interface, …}] (change: interface-added, interface-removed, link-up, link-down, address-added, address-removed, route-added, route-removed, api-reachable, api-unreachable).
            """,
        options: [watchOption.spec, noProbe.spec] + formats.specs + [timeoutOption.spec],
        examples: [
            "shopy status",
            "shopy status --no-probe --format json",
            "shopy status --watch",
            "shopy status --watch --format jsonl | grep --line-buffered offline",
        ])

    public enum StatusFormat: String, CaseIterable, Sendable {
        case text, json, jsonl
    }

    static let watchOption = Option.flag("watch", short: "w", help: "Keep running and print a line for each change, until Ctrl-C or SIGTERM.")
    static let noProbe = Option.flag("no-probe", help: "Check the network path only; do not contact the API host.")
    static let formats = FormatOptions(accepting: StatusFormat.allCases,
                                       notes: [.text: "default", .json: "one object; not with --watch", .jsonl: "one object a line"], lead: "")
    /// The shared timeout, for the probe alone and at most a minute.
    static let timeoutOption = SharedOptions.timeout(help: "Give up the API probe (DNS and connect) after this many seconds (default 2).",
                                                     maximum: 60, default: APIProbe.defaultTimeout)

    public var watch: Bool
    public var probe: Bool
    public var format: StatusFormat
    public var timeout: Double

    /// Seconds between probes while limited, in --watch.
    static let limitedReprobeInterval = 15.0

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("status takes no arguments", hint: "see 'shopy help status'")
        }
        watch = parsed[Self.watchOption]
        probe = !parsed[Self.noProbe]
        let format = try Self.formats.read(parsed)
        if watch && format == .json {
            throw UsageError("--watch prints one line for each change; --format json is a single object", hint: "use --format jsonl with --watch")
        }
        self.format = format ?? .text
        timeout = try Self.timeoutOption.read(parsed)
    }

    /// One report, through `execute` and the presenter; `--watch` is a loop of its own.
    public func run(_ context: Context) async throws -> ExitCode {
        guard watch else { return presenter.present(try await execute(context), context: context) }
        // Before any thread of ours starts, so that all of them inherit the blocked signals.
        let signals = StopSignals.install()
        let target = probe ? try ProbeTarget.from(environment: context.io.environment) : nil
        return await runWatch(context, target: target, signals: signals)
    }

    /// The path now and, when asked and the path is usable, the probe.
    public func execute(_ context: Context) async throws -> StatusReport {
        let target = probe ? try ProbeTarget.from(environment: context.io.environment) : nil
        let snapshot = context.network.snapshot()
        Self.traceSnapshot(snapshot, context.trace)
        var report = await makeReport(snapshot.path, target: target, context: context)
        report.sources = SourceStatus.all(context)
        return report
    }

    public var presenter: StatusPresenter { StatusPresenter(format: format) }

    /// Probes when asked to and when the path is usable (offline, it could only fail, slowly).
    func makeReport(_ path: PathStatus, target: ProbeTarget?, context: Context) async -> StatusReport {
        let trace = context.trace
        guard let target, path.isSatisfied else { return StatusReport(path: path, probe: nil) }
        let result = await context.network.probe(target, timeout: timeout)
        if let latency = result.latencyMilliseconds {
            trace("probe: \(target.display) → \(result.address ?? "?") connected in \(latency) ms (DNS \(Int(((result.dnsTime ?? 0) * 1000).rounded())) ms)")
        } else {
            trace("probe: \(result.message ?? "failed")" + (result.detail.map { " (\($0))" } ?? ""))
        }
        return StatusReport(path: path, probe: result)
    }

    static func traceSnapshot(_ snapshot: NetworkSnapshot, _ trace: Tracer) {
        guard trace.isOn else { return }
        for interface in snapshot.interfaces {
            let flags = [interface.isUp ? "up" : "down", interface.isRunning ? "link" : "no link"].joined(separator: ", ")
            let addresses = interface.addresses.map(\.address).joined(separator: " ")
            trace("interface \(interface.name) (\(interface.type.rawValue)): \(flags)" + (addresses.isEmpty ? "" : "; \(addresses)"))
        }
        if snapshot.routes.isEmpty { trace("no default route") }
        for route in snapshot.routes {
            trace(route.summary + " metric \(route.metric)")
        }
    }

    // MARK: - Watch

    private enum WatchInput: Sendable {
        /// A new state, and when it was read: lines carry that time even when a probe held
        /// them back.
        case snapshot(NetworkSnapshot, Date)
        /// Probe again while limited; ignored unless `generation` is still current.
        case reprobe(generation: Int)
        case stop(Int32)
    }

    private func runWatch(_ context: Context, target: ProbeTarget?, signals: StopSignals) async -> ExitCode {
        let io = context.io
        let (inputs, continuation) = AsyncStream.makeStream(of: WatchInput.self)
        signals.onSignal { continuation.yield(.stop($0)) }
        let monitor = context.network.monitor(trace: context.trace)
        let queue = DispatchQueue(label: "shopy.status.watch")
        let now = io.now
        monitor.pathUpdateHandler = { continuation.yield(.snapshot($0, now())) }
        monitor.start(queue: queue)
        Self.watchForClosedOutput(io) { continuation.yield(.stop(SIGPIPE)) }
        defer {
            monitor.cancel()
            continuation.finish()
        }

        var last: NetworkSnapshot?
        var report: StatusReport?
        var generation = 0
        for await input in inputs {
            switch input {
            case .stop(let signal):
                context.trace("watch: stopped by \(signal == SIGINT ? "SIGINT" : signal == SIGPIPE ? "the reader of stdout going away" : "SIGTERM")")
                return .ok
            case .snapshot(let snapshot, let time):
                Self.traceSnapshot(snapshot, context.trace)
                let changes = last.map { snapshot.changes(from: $0) } ?? []
                let path = snapshot.path
                // Nothing a person would notice (a link-local address, lo): no probe, no line.
                if let report, changes.isEmpty, report.path == path {
                    last = snapshot
                    continue
                }
                let new = await makeReport(path, target: target, context: context)
                // The status itself when it changed (what scripts wait for), else just "change".
                let event = report.map { new.state != $0.state ? new.state.rawValue : "change" } ?? "initial"
                var all = changes.map(StatusChange.path)
                if let old = report, let change = StatusChange.api(from: old.probe, to: new.probe) { all.append(change) }
                emit(new, event: event, changes: all, time: time, io: io)
                last = snapshot
                report = new
            case .reprobe(let due):
                guard due == generation, let old = report, old.state == .limited else { continue }
                let new = await makeReport(old.path, target: target, context: context)
                report = new
                if let change = StatusChange.api(from: old.probe, to: new.probe) {
                    emit(new, event: new.state != old.state ? new.state.rawValue : "change", changes: [change], time: io.now(), io: io)
                }
            }
            if io.stdout.brokenPipe { return .ok }  // `… | head -3` has read enough
            generation += 1
            if report?.state == .limited {
                let due = generation, clock = io.clock
                Task {
                    guard (try? await clock.sleep(for: .seconds(Self.limitedReprobeInterval))) != nil else { return }
                    continuation.yield(.reprobe(generation: due))
                }
            }
        }
        return .ok
    }

    /// When stdout is a pipe or socket, a thread waits (in poll, no timeout: nothing is
    /// polled repeatedly) for its reader to go away, so `status --watch | head -1` ends at once
    /// instead of at the next change, which may never come.
    static func watchForClosedOutput(_ io: IO, _ gone: @escaping @Sendable () -> Void) {
        guard io.isProcessStdout else { return }
        var info = stat()
        guard fstat(1, &info) == 0, info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK else { return }
        let thread = Thread {
            var entry = pollfd(fd: 1, events: 0, revents: 0)
            while true {
                let n = poll(&entry, 1, -1)
                if n < 0 && errno == EINTR { continue }
                if n > 0 && entry.revents & Int16(POLLERR | POLLHUP) != 0 { gone() }
                return
            }
        }
        thread.start()
    }

    private func emit(_ report: StatusReport, event: String, changes: [StatusChange], time now: Date, io: IO) {
        switch format {
        case .jsonl, .json:
            io.stdout.line(JSONWriter.string(report.jsonLine(time: now, event: event, changes: changes)))
        case .text:
            var line = Timestamp.local(now) + "  "
            if !changes.isEmpty { line += changes.map(\.summary).joined(separator: ", ") + " → " }
            line += report.text(color: io.useColor)
            io.stdout.line(line)
        }
        // Each line goes out as it happens: a reader of the pipe must not wait for a buffer.
        io.stdout.flush()
    }
}

/// One `shopy status` answer: the path and, when probed, the API.
public struct StatusReport: Sendable, Equatable {
    public enum State: String, Sendable {
        case online, limited, offline
        /// --no-probe and the path is usable: what is known, without claiming the API answers.
        case pathOK = "path-ok"

        /// As text says it: `path ok`.
        public var display: String { self == .pathOK ? "path ok" : rawValue }
    }

    public var path: PathStatus
    /// Nil when not probed (--no-probe, or offline).
    public var probe: ProbeResult?
    /// Each source and whether its keys are set (the one report; not in --watch lines).
    public var sources: [SourceStatus]

    public init(path: PathStatus, probe: ProbeResult?, sources: [SourceStatus] = []) {
        self.path = path
        self.probe = probe
        self.sources = sources
    }

    /// online: path satisfied and the probe passed; limited: satisfied but the probe failed;
    /// path-ok: satisfied and not probed (--no-probe); offline: unsatisfied.
    public var state: State {
        guard path.isSatisfied else { return .offline }
        guard let probe else { return .pathOK }
        return probe.ok ? .online : .limited
    }

    /// `online · ethernet eth0 · api openapi.naver.com 23 ms`.
    public func text(color: Bool = false) -> String {
        let style: Style = state == .online || state == .pathOK ? .green : (state == .limited ? .yellow : .red)
        var parts = [style.apply(state.display, enabled: color), path.interfaceSummary]
        if let probe {
            let target = probe.target
            let host = target.port == 443 || target.port == 80 ? target.host : target.display
            if let latency = probe.latencyMilliseconds {
                parts.append("api \(host) \(latency) ms")
            } else {
                parts.append("api: " + (probe.message ?? "unreachable"))
            }
        }
        return ([parts.joined(separator: " · ")] + sources.map(\.line)).joined(separator: "\n")
    }

    /// The `--format json` object.
    public func json() -> JSONValue {
        var object = JSONObject()
        appendFields(to: &object)
        if !sources.isEmpty { object["sources"] = .array(sources.map(\.json)) }
        return .object(object)
    }

    /// A `--format jsonl` line: time and event first, then the changes, then the report.
    public func jsonLine(time: Date, event: String, changes: [StatusChange]) -> JSONValue {
        var object = JSONObject()
        object["time"] = .string(Timestamp.utc(time))
        object["event"] = .string(event)
        object["status"] = .string(state.rawValue)
        object["changes"] = .array(changes.map { $0.json })
        appendFields(to: &object)
        return .object(object)
    }

    private func appendFields(to object: inout JSONObject) {
        object["status"] = .string(state.rawValue)
        object["path"] = .string(path.status.rawValue)
        object["reason"] = .string(orNull: path.unsatisfiedReason)
        object["interfaces"] = .array(path.interfaces.map { interface in
            .object(JSONObject(["name": .string(interface.name), "type": .string(interface.type.rawValue)]))
        })
        guard let probe else {
            object["api"] = .null
            return
        }
        var api = JSONObject()
        api["host"] = .string(probe.target.host)
        api["port"] = .int(probe.target.port)
        api["address"] = .string(orNull: probe.address)
        api["ok"] = .bool(probe.ok)
        api["latencyMs"] = .int(orNull: probe.latencyMilliseconds)
        api["dnsMs"] = .int(orNull: probe.dnsTime.map { Int(($0 * 1000).rounded()) })
        api["failure"] = .string(orNull: probe.failure?.rawValue)
        api["message"] = .string(orNull: probe.message)
        object["api"] = .object(api)
    }
}

/// One item of a watch line's `changes`: a change of the path, or of the API probe's outcome.
public enum StatusChange: Sendable, Equatable {
    case path(PathChange)
    case apiReachable
    case apiUnreachable(ProbeResult.Failure, String)

    /// The probe's outcome changed (reachable ↔ not, or failing another way); nil when it did not
    /// or when either side was not probed (offline: the path change says it all).
    static func api(from old: ProbeResult?, to new: ProbeResult?) -> StatusChange? {
        guard let old, let new, old.failure != new.failure else { return nil }
        if let failure = new.failure { return .apiUnreachable(failure, new.message ?? failure.rawValue) }
        return .apiReachable
    }

    public var summary: String {
        switch self {
        case .path(let change): return change.summary
        case .apiReachable: return "api reachable"
        case .apiUnreachable(_, let message): return "api: \(message)"
        }
    }

    public var json: JSONValue {
        var object = JSONObject()
        switch self {
        case .apiReachable:
            object["change"] = .string("api-reachable")
        case .apiUnreachable(let failure, _):
            object["change"] = .string("api-unreachable")
            object["failure"] = .string(failure.rawValue)
        case .path(let change):
            object["change"] = .string(change.event)
            object["interface"] = .string(change.interface)
            switch change {
            case .addressAdded(_, let address), .addressRemoved(_, let address):
                object["family"] = .string(address.family.rawValue)
                object["address"] = .string(address.address)
            case .routeAdded(let route), .routeRemoved(let route):
                object["family"] = .string(route.family.rawValue)
                object["destination"] = .string(route.isDefault ? "default" : "\(route.destination)/\(route.prefixLength)")
                object["gateway"] = .string(orNull: route.gateway)
                object["metric"] = .int(route.metric)
            default:
                break
            }
        }
        return .object(object)
    }
}
