/// Everything shopy asks of the machine's network: the path now, the full snapshot, a monitor
/// of changes and the API probe. The command line holds one (the system's) in its composition
/// root; tests hand in a fake to run `status` or the offline check online or offline at will.
public protocol NetworkProvider: Sendable {
    /// One reading of the interfaces and default routes: is there a usable path?
    func currentPath() -> PathStatus
    /// Interfaces, routes and the path they give.
    func snapshot() -> NetworkSnapshot
    /// A monitor of changes (not started).
    func monitor(trace: Tracer) -> PathMonitor
    /// DNS and a TCP connect to the API host, at most about `timeout` seconds.
    func probe(_ target: ProbeTarget, timeout: Double) async -> ProbeResult
}

/// The machine's own network.
public struct SystemNetworkProvider: NetworkProvider {
    public init() {}

    public func currentPath() -> PathStatus { SystemNetwork.currentPath() }

    public func snapshot() -> NetworkSnapshot { SystemNetwork.snapshot() }

    public func monitor(trace: Tracer) -> PathMonitor { PathMonitor(trace: trace) }

    public func probe(_ target: ProbeTarget, timeout: Double) async -> ProbeResult {
        await APIProbe.run(target, timeout: timeout)
    }
}
