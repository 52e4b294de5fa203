/// Which popular sections to show: those asked for, else the saved ones, else the built-in ones
/// for the source. The one place that decides it, for `shopy popular`, browse's Home and the
/// widget's options; `TopItems` fetches each section's items.
import ShopYBase

public struct PopularDefaults: Sendable, Equatable {
    public var naver: [String]
    public var catalog: [String]

    public init(naver: [String], catalog: [String]) {
        self.naver = naver
        self.catalog = catalog
    }

    /// shopy's built-in sections: the app's on Naver; on the offline catalog, keywords it covers
    /// well (it holds household and pet goods, not shoes).
    public static let shopy = PopularDefaults(naver: ["신발", "옷", "사무용품"], catalog: ["고양이", "세제", "방충망"])

    /// The built-in sections of `source`.
    package func builtIn(for source: SourceKind) -> [String] {
        source == .catalog ? catalog : naver
    }

    /// The saved sections, else the built-in ones of `source`.
    package func keywords(saved: [String]?, source: SourceKind) -> [String] {
        saved ?? builtIn(for: source)
    }

    /// The saved sections, else the built-in ones; a store that cannot be read is the error
    /// (browse's Home shows it).
    package func keywords(store: SettingsStore, source: SourceKind) throws -> [String] {
        keywords(saved: try store.read { $0.popularSections }, source: source)
    }

    /// Those asked for, else the saved ones, else the built-in ones (`shopy popular`). A damaged
    /// preferences file falls back to the built-in ones, with a warning.
    package func keywords(requested: [String], store: SettingsStore, source: SourceKind, diagnostics: any DiagnosticsSink) -> [String] {
        if !requested.isEmpty { return requested }
        do {
            return try keywords(store: store, source: source)
        } catch {
            ListingMemory(store: store, diagnostics: diagnostics, now: "").warn(error, "using the built-in sections")
            return builtIn(for: source)
        }
    }

    /// Saves `sections` as the default ones, or forgets the saved ones (nil).
    package static func save(_ sections: [String]?, store: SettingsStore) throws {
        try store.update([.preferences]) { settings in settings.popularSections = sections }
    }
}
