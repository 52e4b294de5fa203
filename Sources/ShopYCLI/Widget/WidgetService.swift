import Foundation
import ShopYCore
import ShopYBase

/// The widget's operations, each returning a typed value the commands render.
public enum WidgetService {
    /// `shopy widget`: the current entry; when due, one background refresh is started (the
    /// entry is printed either way, never waiting for it).
    public static func show(_ provider: WidgetProvider, now: Date, starter: any WidgetRefreshStarter) -> WidgetState {
        let state = provider.current(now: now)
        if state.holdsExpiredCoupang { removeExpiredCoupang(provider, now: now) }
        if state.due != nil {
            _ = starter.start(directory: provider.store.directory, name: provider.name, environment: provider.environment) {
                // Under the refresh lock, just before the refresh starts: still due, then the
                // attempt is recorded, so that a refresh that dies is not started again at once.
                guard provider.current(now: now).due != nil else { return false }
                WidgetRefreshAttempt(startedAt: now).save(directory: provider.store.directory, name: provider.name)
                return true
            }
        }
        return state
    }

    /// Rewrites the timeline without Coupang's results older than an hour (its terms), under the
    /// refresh lock (a running refresh writes a new timeline anyway: then nothing is done here).
    static func removeExpiredCoupang(_ provider: WidgetProvider, now: Date) {
        guard let fd = WidgetRefreshLock.tryLock(directory: provider.store.directory) else { return }
        defer { close(fd) }
        _ = try? WidgetCoupangExpiry.removeExpired(directory: provider.store.directory, name: provider.name, now: now)
    }

    /// What `widget configure` did or shows.
    public struct ConfigureResult: Sendable {
        public var configuration: WidgetConfiguration
        public var selection: WidgetSelection
        public var changed: Bool
        /// Chosen options that exist but cannot be shown now, with the reason.
        public var unavailable: [WidgetOption]
    }

    /// `widget configure [--show IDS | --reset] [--policy P]`. Unknown ids are refused (64) with
    /// the close ones; nothing is written then.
    public static func configure(_ provider: WidgetProvider, show: [String]?, reset: Bool, policy: WidgetPolicy?) throws -> ConfigureResult {
        let options = try provider.options()
        if let show {
            let known = options.map(\.id)
            let unknown = show.filter { !known.contains($0) }
            if !unknown.isEmpty {
                let close = unknown.compactMap { id in closeIDs(id, among: known).first.map { "'\($0)'" } }
                let listed = unknown.map { "'\(Sanitizer.clean($0))'" }.joined(separator: ", ")
                throw UsageError("unknown widget option\(unknown.count == 1 ? "" : "s") \(listed)",
                                 hint: close.isEmpty ? "'shopy widget options' lists them" : "did you mean \(close.joined(separator: ", "))? 'shopy widget options' lists them")
            }
        }
        let changes = show != nil || reset || policy != nil
        let configuration: WidgetConfiguration = try changes
            ? provider.store.update([.preferences]) { settings in
                var widgets = settings.widgets
                var configuration = widgets[provider.name] ?? WidgetConfiguration()
                if reset { configuration = WidgetConfiguration() }
                if let show {
                    var seen = Set<String>()
                    configuration.show = show.filter { seen.insert($0).inserted }
                }
                if let policy { configuration.policy = policy }
                widgets[provider.name] = configuration
                settings.widgets = widgets
                return configuration
            }
            : provider.store.read { $0.widgets[provider.name] ?? WidgetConfiguration() }
        let selection = WidgetSelection.resolve(configuration, options: options)
        return ConfigureResult(configuration: configuration, selection: selection, changed: changes,
                               unavailable: selection.shown.filter { !$0.available })
    }

    /// Ids near `id`: same kind and a subject within a small edit distance, or a plain typo.
    static func closeIDs(_ id: String, among known: [String]) -> [String] {
        if let near = Suggest.closest(to: id, among: known) { return [near] }
        let kind = id.split(separator: ":", maxSplits: 1).first.map(String.init) ?? id
        return known.filter { $0.hasPrefix(kind + ":") }.prefix(3).map { $0 }
    }

    /// `widget open N`: the checked link of the Nth shown item; `widget open` (n nil, a bar's
    /// click): that of the first shown item that has one (the default set starts with the
    /// status, which has none).
    public static func link(ofItem n: Int?, _ provider: WidgetProvider, now: Date) throws -> String {
        let state = provider.current(now: now)
        if let errorClass = state.entry.errorClass {
            throw UsageError("the widget has nothing to open: the store cannot be read (\(errorClass))", hint: "run shopy doctor")
        }
        let items = state.entry.items
        guard let n else {
            if let link = items.lazy.compactMap({ SafeLink.check($0.link) }).first { return link }
            throw UsageError("none of the widget's \(items.count) shown item\(items.count == 1 ? "" : "s") has an http or https link to open",
                             hint: "show a popular section, a search or a like: shopy widget configure --show status,likes,popular:KEYWORD")
        }
        guard (1...max(1, items.count)).contains(n), n <= items.count else {
            throw UsageError("the widget shows \(items.count) item\(items.count == 1 ? "" : "s"); there is no item \(n)")
        }
        guard let link = SafeLink.check(items[n - 1].link) else {
            throw UsageError("item \(n) (\(Sanitizer.clean(items[n - 1].optionID))) has no http or https link to open")
        }
        return link
    }
}
