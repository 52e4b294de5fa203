import ShopYCore
/// `--format i3blocks`: three lines, full_text, short_text and color (empty for the bar's own).
public enum I3blocksWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let full = r.texts(WidgetTextSafety.plain).joined(separator: " · ")
        let short = WidgetRendering(state: r.state, family: .small, color: r.color, name: r.name).texts(WidgetTextSafety.plain, first: 2).joined(separator: " · ")
        let color = r.color ? (WidgetColors.hex(r.tone) ?? "") : ""
        return (full.isEmpty ? "shopy" : full) + "\n" + (short.isEmpty ? "shopy" : short) + "\n" + color + "\n"
    }
}
