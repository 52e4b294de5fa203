/// The popular sections shown when none are saved: `shopy popular`'s built-in ones for each
/// source. Browse's Home and the widget's options pick them the same way.
public struct PopularDefaults: Sendable, Equatable {
    public var naver: [String]
    public var catalog: [String]

    public init(naver: [String], catalog: [String]) {
        self.naver = naver
        self.catalog = catalog
    }

    /// The saved sections, else the built-in ones of `source`.
    package func keywords(saved: [String]?, source: SourceKind) -> [String] {
        saved ?? (source == .catalog ? catalog : naver)
    }
}
