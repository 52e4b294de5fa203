import Foundation
import ShopYCore
import ShopYBase

/// What browse needs of the rest of shopy: the seam between the pure MVI core and the product
/// source, the likes store, the history, the openers and the path monitor. `LiveBrowseServices`
/// calls the code the subcommands use; tests give a fake.
public protocol BrowseServices: Sendable {
    var sourceKind: SourceKind { get }
    /// The saved popular sections, else the built-in ones for the source.
    func popularKeywords() throws -> [String]
    func search(_ request: SearchRequest) async throws -> SearchPage
    /// A Home section: the keyword's top items (`TopItems`, as popular and the widget fetch them).
    func section(_ keyword: String, count: Int) async throws -> SearchPage
    /// Records a query in the history (when recording is on).
    func recordQuery(_ query: String) throws
    func likes() throws -> [Like]
    /// Likes the product (a liked one stays as it is); returns its likedAt.
    func like(_ product: Product) throws -> String
    func unlike(_ productId: String) throws
    func history() throws -> [HistoryEntry]
    func removeHistory(_ query: String) throws
    /// Opens or copies a checked link; what to say in the status line.
    func open(_ link: String) -> StatusMessage
    func copy(_ link: String) -> StatusMessage
    /// Starts the path monitor; every reading goes to `onChange`. Returns the stop function.
    func watchPath(_ onChange: @escaping @Sendable (PathStatus) -> Void) -> @Sendable () -> Void
    /// A product's picture, fetched (or read from the cache) and decoded.
    func picture(_ url: String) async -> Result<DecodedPicture, PictureFailure>
    /// A like's price record (from `likes refresh`) and its liked price; nil, nil when not liked.
    func tracked(_ productId: String) throws -> (record: PriceRecord?, likedPrice: Int?)
}

extension BrowseServices {
    /// Services without pictures (tests' fakes) say so.
    public func picture(_ url: String) async -> Result<DecodedPicture, PictureFailure> {
        .failure(.off("these services draw no pictures"))
    }

    /// Services without a price book (tests' fakes) track nothing.
    public func tracked(_ productId: String) throws -> (record: PriceRecord?, likedPrice: Int?) { (nil, nil) }
}

/// Runs effects through the services and answers with intents. Store reads and writes run in
/// order on one serial queue (a like then an unlike of the same item land in that order);
/// searches run concurrently (a screen's loads cancelled together: `.cancelLoads`); one picture is loaded at a time (a new one, `.dropPicture` or
/// `stop` cancels the one in flight, whose answer is then never sent).
public final class BrowseEffectRunner: @unchecked Sendable {
    let services: any BrowseServices
    let send: @Sendable (BrowseIntent) -> Void
    private let storeQueue = DispatchQueue(label: "shopy.browse.store")
    private let lock = NSLock()
    private var stopPath: (@Sendable () -> Void)?
    /// Detail's picture in flight: its number (counted from 1) and its task.
    private var picture: (number: Int, task: Task<Void, Never>)?
    private var picturesAsked = 0
    /// Search's pages and Home's sections in flight, by screen and number (`.cancelLoads`).
    private var loads: [BrowseTab: [Int: Task<Void, Never>]] = [:]
    private var loadsAsked = 0

    public init(services: any BrowseServices, send: @escaping @Sendable (BrowseIntent) -> Void) {
        self.services = services
        self.send = send
    }

    /// Items a Home section shows.
    static let sectionSize = 10

    /// The words of `shopy: …` for an error, as `ShopY.report` writes them.
    public static func failure(_ error: Error) -> BrowseFailure {
        if let error = error as? ShopyError { return BrowseFailure(error.message) }
        if error is CancellationError { return BrowseFailure("cancelled") }
        return BrowseFailure("unexpected error: \(String(describing: error))")
    }

    static func result<T>(_ body: () throws -> T) -> Result<T, BrowseFailure> {
        do { return .success(try body()) } catch { return .failure(failure(error)) }
    }

    public func run(_ effect: BrowseEffect) {
        let services = self.services, send = self.send
        switch effect {
        case .monitorPath:
            let stop = services.watchPath { send(.path($0)) }
            lock.withLock { stopPath = stop }
        case .searchPage(let generation, let request, let skip):
            load(.search) {
                do {
                    return .page(generation: generation, skip: skip, .success(try await services.search(request)))
                } catch {
                    return .page(generation: generation, skip: skip, .failure(Self.failure(error)))
                }
            }
        case .loadHomeSection(let index, let keyword):
            load(.home) {
                do {
                    let page = try await services.section(keyword, count: Self.sectionSize)
                    return .homeSection(index: index, keyword: keyword, .success(page))
                } catch {
                    return .homeSection(index: index, keyword: keyword, .failure(Self.failure(error)))
                }
            }
        case .cancelLoads(let tab):
            cancelLoads(tab)
        case .loadPicture(let id, let url):
            // Fetched and decoded off the main loop (the decode off the cooperative pool too);
            // the answer is an intent like any other, unless the picture was dropped meanwhile.
            lock.withLock {
                picture?.task.cancel()
                picturesAsked += 1
                let number = picturesAsked
                picture = (number, Task { [weak self] in
                    let result = await services.picture(url)
                    self?.pictureAnswered(number) { send(.pictureLoaded(productId: id, url: url, result)) }
                })
            }
        case .dropPicture:
            dropPicture()
        case .open(let link):
            DispatchQueue.global().async { send(.linkDone(services.open(link))) }
        case .copy(let link):
            DispatchQueue.global().async { send(.linkDone(services.copy(link))) }
        default:
            storeQueue.async { send(Self.storeIntent(effect, services)) }
        }
    }

    static func storeIntent(_ effect: BrowseEffect, _ services: any BrowseServices) -> BrowseIntent {
        switch effect {
        case .loadHomeKeywords: return .homeKeywords(result { try services.popularKeywords() })
        case .recordQuery(let query):
            if case .failure(let failure) = result({ try services.recordQuery(query) }) { return .queryRecorded(failure) }
            return .queryRecorded(nil)
        case .loadLikes: return .likesLoaded(result { try services.likes() })
        case .like(let product):
            switch result({ try services.like(product) }) {
            case .success(let at): return .likeSaved(productId: product.productId, likedAt: at)
            case .failure(let failure): return .likeFailed(productId: product.productId, failure)
            }
        case .unlike(let id):
            switch result({ try services.unlike(id) }) {
            case .success: return .likeSaved(productId: id, likedAt: nil)
            case .failure(let failure): return .likeFailed(productId: id, failure)
            }
        case .loadHistory: return .historyLoaded(result { try services.history() })
        case .loadTracked(let id):
            // A price book that cannot be read leaves Detail without tracked prices, as before.
            let found: (record: PriceRecord?, likedPrice: Int?) = (try? services.tracked(id)) ?? (nil, nil)
            return .trackedLoaded(productId: id, record: found.record, likedPrice: found.likedPrice)
        case .removeHistory(let query):
            if case .failure(let failure) = result({ try services.removeHistory(query) }) { return .historyRemoved(query: query, failure) }
            return .historyRemoved(query: query, nil)
        default:
            return .linkDone(StatusMessage("internal: \(effect) is not a store effect", isError: true))
        }
    }

    /// Sends a picture's answer when it is still the one in flight (under the lock, so that a
    /// drop or a new picture either comes first and silences it, or comes after it is sent).
    private func pictureAnswered(_ number: Int, _ deliver: () -> Void) {
        lock.withLock {
            guard picture?.number == number else { return }
            picture = nil
            deliver()
        }
    }

    /// Runs a screen's load; its answer is sent unless the screen's loads were cancelled meanwhile
    /// (checked under the lock, as a picture's).
    private func load(_ tab: BrowseTab, _ body: @escaping @Sendable () async -> BrowseIntent) {
        let send = self.send
        lock.withLock {
            loadsAsked += 1
            let number = loadsAsked
            loads[tab, default: [:]][number] = Task { [weak self] in
                let answer = await body()
                guard let self else { return }
                self.lock.withLock {
                    guard self.loads[tab]?.removeValue(forKey: number) != nil else { return }
                    send(answer)
                }
            }
        }
    }

    private func cancelLoads(_ tab: BrowseTab) {
        lock.withLock {
            for task in (loads[tab] ?? [:]).values { task.cancel() }
            loads[tab] = nil
        }
    }

    private func dropPicture() {
        lock.withLock {
            picture?.task.cancel()
            picture = nil
        }
    }

    /// Drops the picture in flight (nothing waits for its decode), stops the path monitor and
    /// waits for store writes already queued.
    public func stop() {
        dropPicture()
        for tab in BrowseTab.allCases { cancelLoads(tab) }
        lock.withLock { stopPath }?()
        storeQueue.sync {}
    }
}
