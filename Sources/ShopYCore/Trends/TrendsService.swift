/// The trends work every front end shares (`shopy trends categories|keywords`, the widget's
/// trends item): the keys and base from the environment, the offline check, the comparison
/// (the anchor plan's requests, stitched onto one scale) and what to say about series that could
/// not be placed. Nothing is printed: the result is typed, the side remarks go to `diagnostics`.
package struct TrendsService: Sendable {
    package var environment: [String: String]
    /// nil: the system's transport.
    package var transport: (any HTTPTransport)?
    package var network: any NetworkProvider
    package var trace: Tracer
    package var diagnostics: any DiagnosticsSink
    /// What the requests' deadline and backoff are timed by.
    package var clock: any TimerClock

    package init(environment: [String: String], transport: (any HTTPTransport)?, network: any NetworkProvider,
                 trace: Tracer, diagnostics: any DiagnosticsSink, clock: any TimerClock = SystemClock()) {
        self.environment = environment
        self.transport = transport
        self.network = network
        self.trace = trace
        self.diagnostics = diagnostics
        self.clock = clock
    }

    /// Why the trends cannot be asked for at all (no keys), or nil.
    package static func unavailableReason(environment: [String: String]) -> String? {
        DataLabKeys.from(environment: environment) == nil
            ? "needs DataLab keys: NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY (or NAVER_CLIENT_ID and NAVER_CLIENT_SECRET)" : nil
    }

    /// Runs `comparison`. Throws `DataLabError.missingKeys` without keys, a bad base's error,
    /// `NetworkError.offline` when a non-loopback base has no path, else what DataLab answers.
    /// Series that could not be put on the common scale are left out of the rows, listed in
    /// `unplaced`, and reported as one warning.
    package func compare(_ comparison: TrendsComparison, timeout: Double) async throws -> TrendsResult {
        let client = try self.client()
        let result = try await TrendsFetcher(client: client, timeout: timeout, trace: trace).run(comparison)
        if !result.unplaced.isEmpty {
            let names = result.unplaced.map { "'\($0.name)'" }.joined(separator: ", ")
            diagnostics.warning("cannot put \(names) on the common scale: no series shared with their answer had clicks; left out")
        }
        return result
    }

    /// The client for the keys and base of the environment, after the offline check.
    package func client() throws -> DataLabClient {
        guard let keys = DataLabKeys.from(environment: environment) else { throw DataLabError.missingKeys }
        let base = try keys.base(environment: environment)
        let target = ProbeTarget(base: base)
        if !target.isLoopback {
            let path = network.currentPath()
            trace("path: \(path.isSatisfied ? "satisfied via " + path.interfaceSummary : "unsatisfied: " + path.interfaceSummary)")
            guard path.isSatisfied else { throw NetworkError.offline("\(path.interfaceSummary); cannot reach \(target.host)") }
        }
        switch keys.scheme {
        case .apiHub:
            trace("DataLab: \(base.absoluteString) with API HUB keys (\(keys.variableNames))" +
                  (keys.bothSet ? "; NAVER_CLIENT_ID / NAVER_CLIENT_SECRET are set too but not used: Developers Center keys stop working on 2027-06-30" : ""))
        case .developers:
            trace("DataLab: \(base.absoluteString) with Developers Center keys (\(keys.variableNames)); they stop working on 2027-06-30: move to API HUB (NAVER_API_HUB_KEY_ID / NAVER_API_HUB_KEY)")
        }
        return DataLabClient(base: base, keys: keys, transport: transport ?? SystemTransport.shared, trace: trace, clock: clock)
    }
}
