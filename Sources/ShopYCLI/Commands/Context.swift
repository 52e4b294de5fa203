import Foundation
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

    /// `coupang-per-hour` (config, SHOPY_COUPANG_PER_HOUR) as resolved for this run, or why
    /// it is refused (a command that asks Coupang stops with it: 64).
    package var coupangBudget: Result<Int, UsageError> = .success(CoupangClient.defaultBudget)

    /// The sources a command asks, in order: `--source` (a list, or `all`) when given, else
    /// every live source whose keys are set, else the catalog (`fellBack`: with its notice).
    /// A source named without its keys fails before anything is sent (77, naming the variables).
    public func sourceKinds(_ requested: SourceSelection?) throws -> (kinds: [SourceKind], fellBack: Bool) {
        try SourceSelection.resolve(requested, keys: SourceKeys(environment: io.environment))
    }

    /// The source a command should use (`sourceKinds`): one source, or several merged into one
    /// listing (`SourceMerge`).
    public func source(_ requested: SourceSelection?, timeout: Double, beforeRequest: (@Sendable () async -> Void)? = nil) throws -> any ProductSource {
        let (kinds, fellBack) = try sourceKinds(requested)
        if fellBack {
            // On a terminal, wrapped to its width; in a pipe or a log, one line.
            diagnostics.notice(TerminalText(sanitizing: CatalogSource.notice(environment: io.environment)), wraps: true)
        }
        let sources = try kinds.map { try source(of: $0, timeout: timeout, beforeRequest: beforeRequest) }
        return sources.count == 1 ? sources[0] : SourceMerge(sources)
    }

    /// One source, its keys set (checked by `sourceKinds`, or here).
    package func source(of kind: SourceKind, timeout: Double, beforeRequest: (@Sendable () async -> Void)? = nil) throws -> any ProductSource {
        let keys = SourceKeys(environment: io.environment)
        switch kind {
        case .catalog:
            let diagnostics = self.diagnostics
            let current = { () throws(StoreError) in
                try Catalog.current(environment: io.environment) { diagnostics.warning(TerminalText(sanitizing: $0)) }
            }
            return CatalogSource(catalog: usesLocalCatalog ? try current() : catalog())
        case .naver:
            guard let credentials = keys.naver else { throw SourceError.missingKeys }
            let base = try reachable(kind)
            trace("source: \(URLRedaction.redact(base.absoluteString)) (keys from NAVER_CLIENT_ID / NAVER_CLIENT_SECRET)")
            let client = NaverClient(base: base, credentials: credentials, transport: transport ?? SystemTransport.shared, trace: trace,
                                     beforeRequest: beforeRequest, clock: io.clock)
            var source = NaverSource(client: client, timeout: timeout)
            source.record = CatalogRecording.recorder(self)
            return source
        case .elevenst:
            return try elevenStreetSource(timeout: timeout, beforeRequest: beforeRequest)
        case .coupang:
            return try coupangSource(timeout: timeout, beforeRequest: beforeRequest)
        }
    }

    package func elevenStreetSource(timeout: Double, beforeRequest: (@Sendable () async -> Void)? = nil) throws -> ElevenStreetSource {
        let keys = SourceKeys(environment: io.environment)
        guard let key = keys.elevenStreet else { throw SourceError.keysNotSet(source: .elevenst, variables: keys.missing(.elevenst)) }
        try SourceKeys.checkUsable(.elevenst, environment: io.environment)
        let base = try reachable(.elevenst)
        trace("source: \(URLRedaction.redact(base.absoluteString)) (11st; key from ELEVENST_API_KEY)")
        let client = ElevenStreetClient(base: base, key: key, transport: transport ?? SystemTransport.shared, trace: trace, beforeRequest: beforeRequest,
                                        clock: io.clock)
        return ElevenStreetSource(client: client, timeout: timeout)
    }

    package func coupangSource(timeout: Double, beforeRequest: (@Sendable () async -> Void)? = nil) throws -> CoupangSource {
        let keys = SourceKeys(environment: io.environment)
        guard let credentials = keys.coupang else { throw SourceError.keysNotSet(source: .coupang, variables: keys.missing(.coupang)) }
        try SourceKeys.checkUsable(.coupang, environment: io.environment)
        let budget = try coupangBudget.get()
        let base = try reachable(.coupang)
        trace("source: \(URLRedaction.redact(base.absoluteString)) (coupang; keys from COUPANG_ACCESS_KEY / COUPANG_SECRET_KEY; \(budget) requests an hour)")
        let client = CoupangClient(base: base, credentials: credentials, transport: transport ?? SystemTransport.shared, trace: trace,
                                   ledger: CoupangLedger(directory: store.directory), budget: budget, now: io.now, beforeRequest: beforeRequest,
                                   clock: io.clock)
        return CoupangSource(client: client, timeout: timeout)
    }

    /// The base of a live source, and on a dead network `offline` at once instead of after the
    /// whole --timeout: one reading of the interfaces and routes (no monitor, no netlink). A
    /// loopback base (the emulator, a local proxy) needs no route, so it skips the check.
    func reachable(_ kind: SourceKind) throws -> URL {
        let base = try SourceKeys.base(of: kind, environment: io.environment)
        let target = ProbeTarget(base: base)
        if !target.isLoopback {
            let path = network.currentPath()
            trace("path: \(path.isSatisfied ? "satisfied via " + path.interfaceSummary : "unsatisfied: " + path.interfaceSummary)")
            guard path.isSatisfied else {
                throw NetworkError.offline("\(path.interfaceSummary); cannot reach \(target.host)")
            }
        }
        return base
    }
}
