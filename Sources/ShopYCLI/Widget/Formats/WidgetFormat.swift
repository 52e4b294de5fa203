import ShopYCore
/// The widget's sizes (WidgetKit's families).
public enum WidgetFamily: String, Sendable, CaseIterable {
    /// One line: `● online · ♥ 12 · ★ 고양이: 캣타워…`.
    case small
    /// Up to four lines, one an item.
    case medium
}

/// `--format`: the protocol of the bar or menu the widget feeds.
public enum WidgetFormat: String, Sendable, CaseIterable {
    case plain, json, waybar, i3blocks, polybar, tmux, swiftbar
}

/// What an encoder gets: the state, the family and whether to colour.
public struct WidgetRendering: Sendable {
    public var state: WidgetState
    public var family: WidgetFamily
    public var color: Bool
    public var name: String

    public init(state: WidgetState, family: WidgetFamily, color: Bool, name: String) {
        self.state = state
        self.family = family
        self.color = color
        self.name = name
    }

    public var entry: WidgetEntry { state.entry }

    /// The texts of the first `count` items for this family, made safe by `clean` (the
    /// protocol's own sanitizer). Coupang's terms ask for its partner disclosure beside its
    /// results: a line carries it already; the small family's few words cannot, so when they
    /// show Coupang's results the disclosure follows them, once, as the last text.
    public func texts(_ clean: (String) -> String, first count: Int = .max) -> [String] {
        styledTexts(clean, first: count).map(\.text)
    }

    /// The same with each text's tone (the disclosure muted).
    func styledTexts(_ clean: (String) -> String, first count: Int = .max) -> [(text: String, tone: WidgetItem.Tone)] {
        if let message = entry.message { return [(clean(message), .bad)] }
        let shown = entry.items.prefix(count)
        var texts = shown.map { (text: clean(family == .small ? $0.short : $0.line), tone: $0.tone) }
        if family == .small, shown.contains(where: { $0.coupangFetchedAt != nil }) {
            texts.append((clean(CoupangSource.disclosure), .muted))
        }
        return texts
    }

    /// One line for a bar that styles text inline (polybar, tmux): each item's text made safe by
    /// `clean`, wrapped by `style(text, hex)` in its tone's colour when colour is on; a message
    /// in the bad tone; `shopy` when there is nothing.
    public func styledLine(_ clean: (String) -> String, style: (_ text: String, _ hex: String) -> String) -> String {
        let parts = styledTexts(clean).map { text, tone -> String in
            guard color, let hex = WidgetColors.hex(tone) else { return text }
            return style(text, hex)
        }
        return (parts.isEmpty ? "shopy" : parts.joined(separator: " · ")) + "\n"
    }

    /// The worst tone among the items (for a single colour or class).
    public var tone: WidgetItem.Tone {
        if entry.kind == .failure { return .bad }
        let tones = entry.items.map(\.tone)
        for tone in [WidgetItem.Tone.bad, .warning] where tones.contains(tone) { return tone }
        return tones.allSatisfy { $0 == .muted } && !tones.isEmpty ? .muted : .normal
    }
}

/// Encodes the current entry for one protocol. Every text from the network (titles, keywords,
/// queries) goes through the protocol's sanitizer before it is placed.
public protocol WidgetEncoder {
    static func encode(_ rendering: WidgetRendering) -> String
}

extension WidgetFormat {
    public var encoder: any WidgetEncoder.Type {
        switch self {
        case .plain: return PlainWidgetEncoder.self
        case .json: return JSONWidgetEncoder.self
        case .waybar: return WaybarWidgetEncoder.self
        case .i3blocks: return I3blocksWidgetEncoder.self
        case .polybar: return PolybarWidgetEncoder.self
        case .tmux: return TmuxWidgetEncoder.self
        case .swiftbar: return SwiftBarWidgetEncoder.self
        }
    }
}

/// Colours of the tones (`#rrggbb`), nil for the bar's own.
public enum WidgetColors {
    public static func hex(_ tone: WidgetItem.Tone) -> String? {
        switch tone {
        case .normal: return nil
        case .good: return "#a6e3a1"
        case .warning: return "#f9e2af"
        case .bad: return "#f38ba8"
        case .muted: return "#7f849c"
        }
    }
}
