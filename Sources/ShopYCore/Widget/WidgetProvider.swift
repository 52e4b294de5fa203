import Foundation
import ShopYBase


/// What `shopy widget` shows now, and whether a refresh is due.
public struct WidgetState: Sendable {
    public var entry: WidgetEntry
    public var selection: WidgetSelection
    public var policy: WidgetPolicy
    public var timeline: WidgetTimeline?
    /// nil: not due.
    public var due: WidgetDue.Reason?
    /// The last refresh started, when one was recorded.
    public var attempt: WidgetRefreshAttempt?
    /// The timeline file still holds Coupang results older than an hour (not shown: `timeline`
    /// and `entry` have them replaced); `shopy widget` rewrites the file without them.
    public var holdsExpiredCoupang = false

    public init(entry: WidgetEntry, selection: WidgetSelection, policy: WidgetPolicy, timeline: WidgetTimeline?, due: WidgetDue.Reason?,
                attempt: WidgetRefreshAttempt? = nil) {
        self.entry = entry
        self.selection = selection
        self.policy = policy
        self.timeline = timeline
        self.due = due
        self.attempt = attempt
    }

    /// Why the last refresh failed: a newer failed attempt's class, else the timeline's.
    public var lastRefreshError: String? {
        attempt?.failure(over: timeline) ?? timeline?.lastError
    }
}

/// The timeline provider: the current entry from the shared store and the widget's timeline
/// file, never from the network. Items about likes are read live from the store (a like shows
/// at once); items that need the network (popular, history, trends, status) come from the
/// entry the last background refresh wrote.
public struct WidgetProvider: Sendable {
    public var store: SettingsStore
    public var name: String
    public var environment: [String: String]
    public var priceTracking: any PriceTracking
    /// The popular sections offered when none are saved.
    public var popularDefaults: PopularDefaults

    /// The price drops come from `priceTracking`; the CLI passes the prices `shopy likes refresh`
    /// keeps in the store.
    public init(store: SettingsStore, name: String, environment: [String: String], priceTracking: any PriceTracking,
                popularDefaults: PopularDefaults) {
        self.store = store
        self.name = name
        self.environment = environment
        self.priceTracking = priceTracking
        self.popularDefaults = popularDefaults
    }

    /// Every option, from everything in the store (`widget options`).
    public func options() throws(StoreError) -> [WidgetOption] {
        let view = try WidgetStoreView.load(store, name: name, allLikes: true)
        return WidgetOptionCatalog.options(view, environment: environment, priceTracking: priceTracking, popularDefaults: popularDefaults)
    }

    /// The selection, the policy and the store view for widget `name`.
    public func resolve(allLikes: Bool = false) throws(StoreError) -> (WidgetStoreView, WidgetSelection, WidgetPolicy) {
        let view = try WidgetStoreView.load(store, name: name, allLikes: allLikes)
        let options = WidgetOptionCatalog.options(view, environment: environment, priceTracking: priceTracking, popularDefaults: popularDefaults)
        return (view, WidgetSelection.resolve(view.configuration, options: options), view.configuration.policy ?? .atEnd)
    }

    /// The current entry at `now`. A store that cannot be read gives the short failure entry.
    public func current(now: Date) -> WidgetState {
        let view: WidgetStoreView, selection: WidgetSelection, policy: WidgetPolicy
        do {
            (view, selection, policy) = try resolve()
        } catch {
            let empty = WidgetSelection(shown: [], isDefault: true, overflow: [], missing: [])
            return WidgetState(entry: .failure(error, at: now), selection: empty, policy: .atEnd, timeline: nil, due: nil)
        }
        let (timeline, expired) = WidgetCoupangExpiry.load(directory: store.directory, name: name, now: now)
        let attempt = WidgetRefreshAttempt.load(directory: store.directory, name: name)
        let due = WidgetDue.reason(timeline: timeline, policy: policy, fingerprint: StoreFingerprint.of(directory: store.directory),
                                   shownIDs: selection.shown.map(\.id), now: now, attempt: attempt)
        let cached = timeline?.current(at: now)
        let items = selection.shown.map { option in
            liveItem(option, view: view) ?? cached?.items.first(where: { $0.optionID == option.id }) ?? WidgetItems.pending(option)
        }
        let entry = WidgetEntry(date: cached?.date ?? now, items: items, stale: due != nil)
        var state = WidgetState(entry: entry, selection: selection, policy: policy, timeline: timeline, due: due, attempt: attempt)
        state.holdsExpiredCoupang = expired
        return state
    }

    /// Items read from the store itself; nil for those the refresh fills.
    func liveItem(_ option: WidgetOption, view: WidgetStoreView) -> WidgetItem? {
        switch option.kind {
        case .likes:
            return WidgetItems.likesCount(view.likeIDs.count, drops: priceTracking.unavailableReason == nil ? priceTracking.drops(among: view.likes).count : nil)
        case .like:
            guard let like = view.likes.first(where: { $0.product.productId == option.subject }) else { return WidgetItems.pending(option) }
            return WidgetItems.like(like, drop: priceTracking.drops(among: [like]).first)
        case .priceDrops:
            if let reason = priceTracking.unavailableReason { return WidgetItems.unavailable(option, reason: reason) }
            return WidgetItems.priceDrops(priceTracking.drops(among: view.likes))
        case .trends:
            if let reason = option.reason, !option.available { return WidgetItems.unavailable(option, reason: reason) }
            return nil
        case .popular, .history, .status:
            return nil
        }
    }
}
