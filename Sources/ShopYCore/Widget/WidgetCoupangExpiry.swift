import ShopYBase
import Foundation

/// Coupang's terms let an app keep its data for 60 minutes. A widget item that shows Coupang's
/// results (a popular section's top items, a history query's top result) carries when they were
/// fetched (`WidgetItem.coupangFetchedAt`); past the hour it is neither shown nor carried into a
/// new timeline, and `shopy widget` rewrites the timeline file without it (`removeExpired`).
public enum WidgetCoupangExpiry {
    /// The item with `fetchedAt` noted when `shown` (the products its line shows) holds Coupang's.
    static func stamped(_ item: WidgetItem, shown: some Sequence<Product>, at fetchedAt: Date) -> WidgetItem {
        guard shown.contains(where: { $0.source == .coupang }) else { return item }
        var item = item
        item.coupangFetchedAt = fetchedAt
        return item
    }

    /// Whether `item` shows Coupang data the hour no longer allows at `now` (older than an hour,
    /// or dated past now by more than a minute: a clock set back).
    public static func isExpired(_ item: WidgetItem, at now: Date) -> Bool {
        guard let fetched = item.coupangFetchedAt else { return false }
        return fetched <= now.addingTimeInterval(-CoupangSource.keptFor) || fetched > now.addingTimeInterval(60)
    }

    /// What an expired item's line says in place of Coupang's results.
    static let expiredText = "Coupang's results are kept an hour; they return with the next refresh"

    /// `item`, or in its place a line that says Coupang's results expired (nothing of them).
    static func shown(_ item: WidgetItem, at now: Date) -> WidgetItem {
        guard isExpired(item, at: now) else { return item }
        let symbol = item.kind == .history ? "⌕" : "★"
        let subject = item.optionID.split(separator: ":", maxSplits: 1).dropFirst().first.map { " " + WidgetItems.title(String($0), width: 10) } ?? ""
        return WidgetItem(optionID: item.optionID, kind: item.kind, short: "\(symbol)\(subject) …", line: "\(symbol)\(subject): " + expiredText, tone: .muted)
    }

    /// Whether a failed refresh may keep showing `item` (its last good value): not when it shows
    /// Coupang's results past the hour, nor when it is the line that says they expired.
    static func mayCarry(_ item: WidgetItem, at now: Date) -> Bool {
        !isExpired(item, at: now) && !(item.tone == .muted && item.line.hasSuffix(": " + expiredText))
    }

    /// The timeline with every expired item replaced (`shown`), and whether there was one.
    static func withoutExpired(_ timeline: WidgetTimeline, at now: Date) -> (WidgetTimeline, Bool) {
        var timeline = timeline
        var found = false
        for e in timeline.entries.indices {
            for i in timeline.entries[e].items.indices where isExpired(timeline.entries[e].items[i], at: now) {
                timeline.entries[e].items[i] = shown(timeline.entries[e].items[i], at: now)
                found = true
            }
        }
        return (timeline, found)
    }

    /// The timeline of widget `name` as it may be shown at `now` (see `withoutExpired`), and
    /// whether the file still holds expired Coupang data.
    static func load(directory: String, name: String, now: Date) -> (timeline: WidgetTimeline?, expired: Bool) {
        guard let stored = WidgetTimeline.load(directory: directory, name: name) else { return (nil, false) }
        let (timeline, expired) = withoutExpired(stored, at: now)
        return (timeline, expired)
    }

    /// Rewrites the timeline file without expired Coupang data (the caller holds the refresh
    /// lock, so no refresh writes meanwhile); true when it was rewritten.
    public static func removeExpired(directory: String, name: String, now: Date) throws(StoreError) -> Bool {
        let (timeline, expired) = load(directory: directory, name: name, now: now)
        guard expired, let timeline else { return false }
        try timeline.save(directory: directory)
        return true
    }
}
