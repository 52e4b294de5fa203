import Foundation
import ShopYBase


/// What one refresh did.
public struct WidgetRefreshReport: Sendable {
    public var timeline: WidgetTimeline
    /// HTTP requests sent (only what the shown items need).
    public var requests: Int
    /// Items that failed, with their error class.
    public var failures: [(id: String, errorClass: String)]

    /// `3 requests`, and the failed items with their class (widget.log and the refresh line).
    public var summary: String {
        let failed = failures.map { "\($0.id) \($0.errorClass)" }.joined(separator: ", ")
        return "\(requests) request\(requests == 1 ? "" : "s")" + (failed.isEmpty ? "" : "; failed: \(failed)")
    }
}

/// `shopy widget refresh`: fetches what the shown items need (a popular section's top items, a
/// history query's top result, the trends, the status), builds the timeline and writes it to
/// the store. Items that fail keep the last good value when there is one.
public enum WidgetRefresher {
    /// Entries of a timeline, this far apart; `atEnd` refreshes after the last.
    public static let entrySpacing: TimeInterval = 5 * 60
    public static let entryCount = 4
    /// After a refresh where everything that needed the network failed: no new one before this.
    public static let retryDelay: TimeInterval = 60
    public static let requestTimeout: Double = 10

    /// Builds and saves the timeline at `now`: `source` makes the product source (it may throw:
    /// no keys, offline), `trends` asks DataLab for the trends item.
    package static func refresh(_ provider: WidgetProvider, now: Date, source makeSource: () throws -> any ProductSource,
                                trends: TrendsService) async throws -> WidgetRefreshReport {
        // The fingerprint is taken before reading, so a change during the refresh is seen next time.
        let fingerprint = StoreFingerprint.of(directory: provider.store.directory)
        let (_, selection, policy) = try provider.resolve()
        let previous = WidgetTimeline.load(directory: provider.store.directory, name: provider.name)?.current(at: now)
        var items: [WidgetItem] = []
        var failures: [(String, String)] = []
        var requests = 0
        var networkItems = 0
        var sourceOutcome: Result<SourceKind, Error>?
        let needsSource = selection.shown.contains { $0.kind == .popular || $0.kind == .history }
        var source: (any ProductSource)?
        if needsSource || selection.shown.contains(where: { $0.kind == .status }) {
            do {
                let s = try makeSource()
                source = s
                sourceOutcome = .success(s.kind)
            } catch {
                sourceOutcome = .failure(error)
            }
        }
        for option in selection.shown {
            switch option.kind {
            case .likes, .like, .priceDrops:
                continue  // read live from the store by `shopy widget`
            case .popular, .history:
                networkItems += 1
                do {
                    guard let source else { throw sourceError(sourceOutcome) }
                    let size = option.kind == .popular ? 3 : 1
                    if source.kind != .catalog { requests += source.kinds.filter { $0 != .catalog }.count }
                    let page = try await TopItems.fetch(option.subject ?? "", count: size, from: source)
                    let item = option.kind == .popular ? WidgetItems.popular(option.subject ?? "", page.items)
                                                       : WidgetItems.history(option.subject ?? "", page.items.first)
                    items.append(WidgetCoupangExpiry.stamped(item, shown: page.items.prefix(size), at: now))
                } catch {
                    let errorClass = WidgetErrors.errorClass(error)
                    failures.append((option.id, errorClass))
                    // The last good value, unless it is Coupang's past the hour its terms allow.
                    let last = previous?.items.first { $0.optionID == option.id && WidgetCoupangExpiry.mayCarry($0, at: now) }
                    items.append(last ?? WidgetItems.failed(option, errorClass: errorClass))
                }
            case .trends:
                guard option.available else { continue }
                networkItems += 1
                do {
                    let (item, sent) = try await WidgetTrends.fetch(trends, today: CalendarDate.todayInKorea(now), timeout: requestTimeout)
                    requests += sent
                    items.append(item)
                } catch {
                    let errorClass = WidgetErrors.errorClass(error)
                    failures.append((option.id, errorClass))
                    items.append(previous?.items.first(where: { $0.optionID == option.id }) ?? WidgetItems.failed(option, errorClass: errorClass))
                }
            case .status:
                continue  // after the others: it reports how they went
            }
        }
        if let status = selection.shown.first(where: { $0.kind == .status }) {
            let searchFailures = failures.filter { $0.0.hasPrefix("popular:") || $0.0.hasPrefix("history:") }.map(\.1)
            let searched = selection.shown.contains { $0.kind == .popular || $0.kind == .history }
            items.append(WidgetStatusItem.item(status, source: sourceOutcome, searched: searched, failures: searchFailures))
        }
        let allFailed = networkItems > 0 && failures.count == networkItems
        let entries = (0..<entryCount).map { k in
            WidgetEntry(date: now.addingTimeInterval(Double(k) * entrySpacing), items: items)
        }
        let timeline = WidgetTimeline(name: provider.name, generatedAt: now, policy: policy, fingerprint: fingerprint,
                                      shownIDs: selection.shown.map(\.id), entries: entries,
                                      retryAt: allFailed ? now.addingTimeInterval(retryDelay) : nil,
                                      lastError: failures.first?.1)
        try timeline.save(directory: provider.store.directory)
        return WidgetRefreshReport(timeline: timeline, requests: requests, failures: failures)
    }

    static func sourceError(_ outcome: Result<SourceKind, Error>?) -> Error {
        if case .failure(let error) = outcome { return error }
        return SourceError.missingKeys
    }
}

/// The status item, from how the source could be reached.
enum WidgetStatusItem {
    static func item(_ option: WidgetOption, source: Result<SourceKind, Error>?, searched: Bool, failures: [String]) -> WidgetItem {
        switch source {
        case .success(.catalog)?:
            return WidgetItem(optionID: option.id, kind: .status, short: "● catalog", line: "● offline catalog (no Naver keys)", tone: .normal)
        case .success(let kind)?:
            if !searched { return WidgetItem(optionID: option.id, kind: .status, short: "● keys set", line: "● \(kind.displayName) keys set (nothing searched)") }
            if failures.isEmpty { return WidgetItem(optionID: option.id, kind: .status, short: "● online", line: "● online · API answering", tone: .good) }
            let first = failures[0]
            return WidgetItem(optionID: option.id, kind: .status, short: first == "retired" ? "● API retired" : "● \(first)",
                              line: "● API: \(first)", tone: first == "retired" ? .warning : .bad)
        case .failure(let error)?:
            let errorClass = WidgetErrors.errorClass(error)
            return WidgetItem(optionID: option.id, kind: .status, short: "● \(errorClass)", line: "● \(errorClass)", tone: .bad)
        case nil:
            return WidgetItems.pending(option)
        }
    }
}

/// Error classes: a word or two that names what went wrong, never a server's text.
public enum WidgetErrors {
    public static func errorClass(_ error: Error) -> String {
        switch error {
        case let error as SourceError:
            return caseName(error)
        case let error as NamedSourceError:
            return errorClass(error.underlying)
        case let error as NetworkError:
            if case .offline = error { return "offline" }
            return "network-unsupported"
        case let error as DataLabError:
            return "datalab-" + caseName(error)
        case let error as StoreError:
            return "store-" + caseName(error)
        case is CancellationError:
            return "cancelled"
        default:
            return "error"
        }
    }

    /// An error class read back from a file (the timeline, the attempt): text from a file is
    /// hostile, so it comes back one clean line of at most 64 characters.
    public static func readBack(_ text: String) -> String {
        FieldLimits.cut(Sanitizer.clean(text), to: 64)
    }

    static func caseName(_ value: Any) -> String {
        if let label = Mirror(reflecting: value).children.first?.label { return label }
        return String(String(describing: value).prefix(while: { $0.isLetter || $0.isNumber }))
    }
}
