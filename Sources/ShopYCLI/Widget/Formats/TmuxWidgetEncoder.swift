import ShopYCore
/// `--format tmux` (`status-right '#(shopy widget --format tmux)'`): one line, each item styled
/// with `#[fg=#rrggbb]…#[default]` by its tone unless colour is off.
public enum TmuxWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let texts = r.texts(WidgetTextSafety.tmux)
        let tones = r.entry.message != nil ? [WidgetItem.Tone.bad] : r.entry.items.map(\.tone)
        let parts = zip(texts, tones).map { text, tone -> String in
            guard r.color, let hex = WidgetColors.hex(tone) else { return text }
            return "#[fg=\(hex)]\(text)#[default]"
        }
        return (parts.isEmpty ? "shopy" : parts.joined(separator: " · ")) + "\n"
    }
}
