import Foundation


/// Whether a refresh is due: the policy, the store's fingerprint and the back-off after a
/// failed refresh, at `now` (injected, so that tests set the clock).
public enum WidgetDue {
    public enum Reason: String, Sendable, Equatable {
        case noTimeline = "no timeline yet"
        case storeChanged = "the store changed"
        case policy = "the policy says so"
        case configurationChanged = "the configuration changed"
    }

    /// nil: not due. A recent `attempt` that left no newer timeline (a refresh that failed or
    /// died) holds the next one back, as `retryAt` does after a refresh that failed in full.
    public static func reason(timeline: WidgetTimeline?, policy: WidgetPolicy, fingerprint: StoreFingerprint, shownIDs: [String], now: Date,
                              attempt: WidgetRefreshAttempt? = nil) -> Reason? {
        if let attempt, attempt.holdsBack(timeline: timeline, now: now) { return nil }
        guard let timeline else { return .noTimeline }
        if let retryAt = timeline.retryAt, now < retryAt { return nil }
        if timeline.fingerprint != fingerprint { return .storeChanged }
        if timeline.shownIDs != shownIDs { return .configurationChanged }
        switch policy {
        case .never: return nil
        case .after(let date): return now >= date && timeline.generatedAt < date ? .policy : nil
        case .atEnd:
            guard let last = timeline.entries.last else { return .policy }
            return now >= last.date ? .policy : nil
        }
    }
}
