import Foundation
import ShopYCore

/// Browse's services on the code the subcommands use: the product source of `Context`, the
/// settings store of `like`, `likes` and `history`, the openers of `open` and `copy`, the path
/// monitor of `status --watch`. (One file, to re-point at the services of the composition root.)
public final class LiveBrowseServices: BrowseServices, @unchecked Sendable {
    let context: Context
    let requested: SourceKind?
    let timeout: Double
    let limiter = RateLimiter(perSecond: 8)
    private let lock = NSLock()
    private var made: (any ProductSource)?
    public let sourceKind: SourceKind
    let store: SettingsStore
    /// Writes bytes to the terminal (OSC 52).
    let terminalWrite: @Sendable ([UInt8]) -> Void
    /// Runs a program that shares the terminal (a text browser in $BROWSER) with the terminal
    /// handed back to it; the driver sets this.
    public var withTerminalReleased: @Sendable (() -> LaunchOutcome) -> LaunchOutcome = { $0() }

    /// Throws what `search` throws for the source (`--source naver` without keys, a bad
    /// SHOPY_API_BASE); being offline is not an error here: browse opens with its banner, and
    /// each search checks the path again.
    public init(context: Context, source: SourceKind?, timeout: Double, terminalWrite: @escaping @Sendable ([UInt8]) -> Void) throws {
        self.context = context
        self.requested = source
        self.timeout = timeout
        self.store = context.store
        self.terminalWrite = terminalWrite
        sourceKind = source ?? (NaverCredentials.from(environment: context.io.environment) == nil ? .catalog : .naver)
        do {
            made = try makeSource()
        } catch let error as NetworkError {
            if case .offline = error {} else { throw error }
        }
    }

    /// The source of `search`; popular sections and pages share the API's per-second limit, as in `popular`.
    func makeSource() throws -> any ProductSource {
        let limiter = self.limiter
        return try context.source(requested, timeout: timeout, beforeRequest: { await limiter.acquire() })
    }

    func source() throws -> any ProductSource {
        if let made = lock.withLock({ made }) { return made }
        let source = try makeSource()
        lock.withLock { made = source }
        return source
    }

    public func popularKeywords() throws -> [String] {
        PopularDefaults.shopy.keywords(saved: try store.read { $0.popularSections }, source: sourceKind)
    }

    /// A page of `search` from the context's source (the one `shopy search` uses).
    public func search(_ request: SearchRequest) async throws -> SearchPage {
        try await source().search(request)
    }

    public func section(_ keyword: String, count: Int) async throws -> SearchPage {
        try await TopItems.fetch(keyword, count: count, from: source())
    }

    public func recordQuery(_ query: String) throws {
        guard try store.read({ $0.historyEnabled }) else { return }
        let now = Like.timestamp(context.io.now())
        try store.update([.state]) { settings in settings.history = HistoryEntry.record(query, at: now, in: settings.history) }
    }

    public func likes() throws -> [Like] {
        try store.read { settings in try settings.allLikes() }
    }

    public func like(_ product: Product) throws -> String {
        // The checks of `shopy like`.
        guard ProductID.usable(product.productId) == product.productId else {
            throw UsageError("product '\(Sanitizer.clean(product.productId))' has no usable productId; nothing was liked")
        }
        let now = Like.timestamp(context.io.now())
        return try store.update([.likes]) { settings in
            var likes = settings.likes
            if let existing = try? likes.like(product.productId) { return existing.likedAt }
            _ = likes.add(Like(product: product, likedAt: now, likedPrice: product.price))
            settings.likes = likes
            return now
        }
    }

    public func unlike(_ productId: String) throws {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            if likes.remove(productId) { settings.likes = likes }
        }
    }

    public func history() throws -> [HistoryEntry] {
        try store.read { $0.history }
    }

    public func removeHistory(_ query: String) throws {
        try store.update([.state]) { settings in
            let kept = settings.history.filter { $0.query != query }
            if kept.count != settings.history.count { settings.history = kept }
        }
    }

    public func open(_ link: String) -> StatusMessage {
        let io = context.io
        var problems: [String] = []
        for handler in Openers.candidates(for: link, environment: io.environment, launcher: io.launcher) {
            let outcome = handler.attached
                ? withTerminalReleased { io.launcher.run(handler.argv, input: nil, attached: true, wait: 5) }
                : io.launcher.run(handler.argv, input: nil, attached: false, wait: 5)
            switch outcome {
            case .exited(0), .stillRunning: return StatusMessage("opened with \(handler.name): \(link)")
            case .exited(let status): problems.append("\(handler.name) failed (exit status \(status))")
            case .failedToStart(let code): problems.append("\(handler.name) could not be started (\(String(cString: strerror(code))))")
            }
        }
        let why = problems.isEmpty ? "no browser opener found ($BROWSER, xdg-open, open, wslview)" : problems.joined(separator: "; ")
        return StatusMessage("\(why): \(link)", isError: true)
    }

    public func copy(_ link: String) -> StatusMessage {
        let io = context.io
        for handler in Clipboards.candidates(for: link, environment: io.environment, launcher: io.launcher) {
            switch io.launcher.run(handler.argv, input: handler.input, attached: false, wait: 5) {
            case .exited(0), .stillRunning: return StatusMessage("copied with \(handler.name): \(link)")
            default: continue
            }
        }
        terminalWrite(Array(Clipboards.osc52(link).utf8))
        return StatusMessage("sent to the terminal's clipboard with OSC 52 (if the terminal allows it): \(link)")
    }

    public func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void {
        let monitor = context.network.monitor(trace: .off)
        monitor.pathUpdateHandler = { snapshot in onChange(snapshot.path) }
        monitor.start(queue: DispatchQueue(label: "shopy.browse.path"))
        return { monitor.cancel() }
    }
}
