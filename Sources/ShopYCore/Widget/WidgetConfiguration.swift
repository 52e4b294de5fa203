/// What one widget shows (`shopy widget configure`), kept in preferences.json under `widgets`
/// (one entry per `--name`) through the `@Stored` settings layer.
public struct WidgetConfiguration: Codable, Equatable, Sendable {
    /// Option ids in the order chosen; empty: the default set.
    public var show: [String]
    /// When the background refresh is due (see `WidgetPolicy`); nil: `atEnd`.
    public var policy: WidgetPolicy?

    public init(show: [String] = [], policy: WidgetPolicy? = nil) {
        self.show = show
        self.policy = policy
    }

    /// At most this many items are shown, so a bar or a menu never overflows.
    public static let maxShown = 4
    public static let defaultName = "default"

    /// A widget name: letters, digits, `-`, `_`, `.` (it names a file), 1 to 32 of them.
    public static func checkName(_ name: String) -> Bool {
        guard (1...32).contains(name.utf8.count), name.first != "." else { return false }
        return name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E
        }
    }
}

/// The options a widget shows, resolved against what exists now.
public struct WidgetSelection: Equatable, Sendable {
    /// What is shown, in order (at most `WidgetConfiguration.maxShown`).
    public var shown: [WidgetOption]
    /// True when nothing was chosen and the default set is shown.
    public var isDefault: Bool
    /// Chosen ids past the cap (kept in the configuration, not shown).
    public var overflow: [String]
    /// Chosen ids that no longer exist (an unliked product, a removed history query).
    public var missing: [String]

    package init(shown: [WidgetOption], isDefault: Bool, overflow: [String], missing: [String]) {
        self.shown = shown
        self.isDefault = isDefault
        self.overflow = overflow
        self.missing = missing
    }

    /// Nothing chosen: status, the likes count, the first popular section, price drops when
    /// available. Chosen: those, in the order chosen, the first four that still exist.
    public static func resolve(_ configuration: WidgetConfiguration, options: [WidgetOption]) -> WidgetSelection {
        if configuration.show.isEmpty {
            var shown: [WidgetOption] = []
            if let status = options.first(where: { $0.kind == .status }) { shown.append(status) }
            if let likes = options.first(where: { $0.kind == .likes }) { shown.append(likes) }
            if let popular = options.first(where: { $0.kind == .popular }) { shown.append(popular) }
            if let drops = options.first(where: { $0.kind == .priceDrops }), drops.available { shown.append(drops) }
            return WidgetSelection(shown: shown, isDefault: true, overflow: [], missing: [])
        }
        let byID = Dictionary(options.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [WidgetOption] = []
        var missing: [String] = []
        for id in configuration.show {
            if let option = byID[id] { found.append(option) } else { missing.append(id) }
        }
        let cap = WidgetConfiguration.maxShown
        return WidgetSelection(shown: Array(found.prefix(cap)), isDefault: false,
                               overflow: found.count > cap ? found[cap...].map(\.id) : [], missing: missing)
    }
}
