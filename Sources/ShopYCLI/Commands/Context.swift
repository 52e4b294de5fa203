import ShopYCore
import ShopYBase
import ShopYCatalog
/// The composition root: everything a running command may touch, made once by `ShopY.run`
/// (tests replace any part). Nothing else constructs a store, reads the system's network or
/// probes the API: commands reach them through here.
public struct Context: Sendable {
    /// stdout, stderr, stdin, the environment, the clock, the terminal, the launcher.
    public var io: IO
    public var trace: Tracer
    /// The store under SHOPY_HOME (likes, history, the last listing, preferences).
    public var store: SettingsStore
    /// The path, snapshot, monitor and API probe.
    public var network: any NetworkProvider
    /// The HTTP transport for the Naver source (tests may replace it); nil: the system's
    /// (`SystemTransport.shared`: libcurl on Linux, loaded at the first request).
    public var transport: (any HTTPTransport)?
    /// The catalog behind `--source catalog` (tests may replace it).
    public var catalog: @Sendable () -> Catalog

    /// Where notices, warnings and hints go instead of the CLI's stderr (tests collect them; a
    /// screen that owns the terminal discards them). nil: `StderrDiagnostics`.
    package var diagnosticsSink: (any DiagnosticsSink)?

    /// Notices, warnings and hints from the work: printed by the CLI in one place (notices not
    /// with --quiet), or wherever `diagnosticsSink` sends them.
    package var diagnostics: any DiagnosticsSink { diagnosticsSink ?? StderrDiagnostics(io: io) }

    /// Finds a productId in the catalog commands see (embedded plus local): `like --id`,
    /// `open --id` and `copy --id` on an item no listing shows.
    /// The catalog is opened at the first id looked up and kept for the others of one command.
    package var catalogLookup: LikeResolution.CatalogLookup {
        let opened = OpenedOnce(self.catalog)
        return { id in opened.value.item(productId: id) }
    }

    /// Whether `catalog` is the default (the embedded items plus the local catalog in SHOPY_HOME).
    let usesLocalCatalog: Bool

    public init(io: IO, verbose: Bool = false, transport: (any HTTPTransport)? = nil,
                store: SettingsStore, network: any NetworkProvider = SystemNetworkProvider(),
                catalog: (@Sendable () -> Catalog)? = nil) {
        self.io = io
        self.trace = verbose ? Tracer(io.stderr) : .off
        self.store = store
        self.network = network
        self.transport = transport
        let environment = io.environment
        self.catalog = catalog ?? { (try? Catalog.current(environment: environment)) ?? Catalog.embedded }
        self.usesLocalCatalog = catalog == nil
    }

    /// The source a command should use: `--source` when given, else Naver when both keys are
    /// set, else the catalog. `--source naver` without keys fails before anything is sent.
    public func source(_ requested: SourceKind?, timeout: Double, beforeRequest: (@Sendable () async -> Void)? = nil) throws -> any ProductSource {
        let credentials = NaverCredentials.from(environment: io.environment)
        let kind = requested ?? (credentials == nil ? .catalog : .naver)
        switch kind {
        case .catalog:
            if requested == nil {
                // On a terminal, wrapped to its width; in a pipe or a log, one line.
                diagnostics.notice(TerminalText(sanitizing: CatalogSource.notice(environment: io.environment)), wraps: true)
            }
            let diagnostics = self.diagnostics
            let current = { () throws(StoreError) in
                try Catalog.current(environment: io.environment) { diagnostics.warning(TerminalText(sanitizing: $0)) }
            }
            return CatalogSource(catalog: usesLocalCatalog ? try current() : catalog())
        case .naver:
            guard let credentials else { throw SourceError.missingKeys }
            let base = try RequestBuilder.base(from: io.environment)
            // On a dead network, fail at once with "offline" instead of after the whole
            // --timeout: one reading of the interfaces and routes (no monitor, no netlink). A
            // loopback API (the emulator, a local proxy) needs no route, so it skips the check.
            let target = ProbeTarget(base: base)
            if !target.isLoopback {
                let path = network.currentPath()
                trace("path: \(path.isSatisfied ? "satisfied via " + path.interfaceSummary : "unsatisfied: " + path.interfaceSummary)")
                guard path.isSatisfied else {
                    throw NetworkError.offline("\(path.interfaceSummary); cannot reach \(target.host)")
                }
            }
            trace("source: \(URLRedaction.redact(base.absoluteString)) (keys from NAVER_CLIENT_ID / NAVER_CLIENT_SECRET)")
            let client = NaverClient(base: base, credentials: credentials, transport: transport ?? SystemTransport.shared, trace: trace,
                                     beforeRequest: beforeRequest)
            var source = NaverSource(client: client, timeout: timeout)
            source.record = CatalogRecording.recorder(self)
            return source
        }
    }
}
