import Foundation
import ShopYCore
import ShopYBase

/// Browse's services on the code the subcommands use: the product source of `Context`, the
/// settings store of `like`, `likes` and `history`, the openers of `open` and `copy`, the path
/// monitor of `status --watch`. (One file, to re-point at the services of the composition root.)
public final class LiveBrowseServices: BrowseServices, @unchecked Sendable {
    let context: Context
    let requested: SourceSelection?
    let timeout: Double
    let limiter: RateLimiter
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
    public init(context: Context, source: SourceSelection?, timeout: Double, terminalWrite: @escaping @Sendable ([UInt8]) -> Void) throws {
        self.context = context
        self.limiter = RateLimiter(perSecond: 8, clock: context.io.clock)
        self.requested = source
        self.timeout = timeout
        self.store = context.store
        self.terminalWrite = terminalWrite
        sourceKind = try context.sourceKinds(source).kinds[0]
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
        try PopularDefaults.shopy.keywords(store: store, source: sourceKind)
    }

    /// A page of `search` from the context's source (the one `shopy search` uses).
    public func search(_ request: SearchRequest) async throws -> SearchPage {
        // Cancelled (the screen was left) before its turn: nothing is sent.
        try Task.checkCancellation()
        return try await source().search(request)
    }

    public func section(_ keyword: String, count: Int) async throws -> SearchPage {
        try Task.checkCancellation()
        return try await TopItems.fetch(keyword, count: count, from: source())
    }

    /// The listings' store service (`ListingMemory`) at this moment; its warnings are not
    /// written under the screen: browse shows the errors it throws.
    var memory: ListingMemory {
        ListingMemory(store: store, diagnostics: DiscardedDiagnostics(), now: Like.timestamp(context.io.now()))
    }

    public func recordQuery(_ query: String) throws {
        try memory.record(query)
    }

    public func likes() throws -> [Like] {
        try store.read { settings in try settings.allLikes() }
    }

    /// `shopy like`'s transaction and checks (`LikeChanges`), on the product the screen shows.
    public func like(_ product: Product) throws -> String {
        let now = Like.timestamp(context.io.now())
        let change = try LikeChanges.like(products: [product], store: store, at: now).first
        return change?.likedAt ?? now
    }

    /// `shopy unlike --id`'s transaction (`LikeChanges`), the id resolved as it resolves it.
    public func unlike(_ productId: String) throws {
        _ = try LikeChanges.unlike([.id(productId)], store: store, catalog: context.catalogLookup)
    }

    public func history() throws -> [HistoryEntry] {
        try store.read { $0.history }
    }

    public func removeHistory(_ query: String) throws {
        try memory.forget(query)
    }

    /// The one opener loop of `open` and `copy` (`LinkTargets.opener`), with the terminal handed
    /// to an attached $BROWSER and nothing written under the screen: what a failing candidate
    /// says goes to the status line.
    var opener: LinkOpener {
        var opener = LinkTargets.opener(context)
        opener.trace = .off
        opener.diagnostics = DiscardedDiagnostics()
        opener.withTerminalReleased = withTerminalReleased
        return opener
    }

    public func open(_ link: String) -> StatusMessage {
        var problems: [String] = []
        if let opener = opener.open(link, failed: { problem, _ in problems.append(problem) }) {
            return StatusMessage("opened with \(opener): \(link)")
        }
        let why = problems.isEmpty ? "no browser opener found ($BROWSER, xdg-open, open, wslview)" : problems.joined(separator: "; ")
        return StatusMessage("\(why): \(link)", isError: true)
    }

    public func copy(_ link: String) -> StatusMessage {
        if let tool = opener.copy(link, failed: { _, _ in }) {
            return StatusMessage("copied with \(tool): \(link)")
        }
        terminalWrite(Array(Clipboards.osc52(link).utf8))
        return StatusMessage("sent to the terminal's clipboard with OSC 52 (if the terminal allows it): \(link)")
    }

    /// `shopy show`'s picture service (the context's transport, the XDG cache), within the
    /// browse timeout; decoded at most 800 pixels a side when the format allows (a JPEG).
    public func picture(_ url: String) async -> Result<DecodedPicture, PictureFailure> {
        let deadline = context.io.clock.deadline(after: timeout)
        return await PictureSetup.service(context, trace: .off).picture(url, deadline: deadline, want: (800, 800))
    }

    /// The like's record in the `prices` suite, as `shopy show` reads it.
    public func tracked(_ productId: String) throws -> (record: PriceRecord?, likedPrice: Int?) {
        try store.read { settings in
            guard let like = try settings.likes.like(productId) else { return (nil, nil) }
            return (try settings.prices[productId], like.likedPrice)
        }
    }

    public func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void {
        let monitor = context.network.monitor(trace: .off)
        monitor.pathUpdateHandler = { snapshot in onChange(snapshot.path) }
        monitor.start(queue: DispatchQueue(label: "shopy.browse.path"))
        return { monitor.cancel() }
    }
}
