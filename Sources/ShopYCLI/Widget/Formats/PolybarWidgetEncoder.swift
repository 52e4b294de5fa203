import ShopYCore
/// `--format polybar` (custom/script, `exec`): one line; with colour, each item in
/// `%{F#rrggbb}…%{F-}` by its tone.
public enum PolybarWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let texts = r.texts(WidgetTextSafety.polybar)
        let tones = r.entry.message != nil ? [WidgetItem.Tone.bad] : r.entry.items.map(\.tone)
        let parts = zip(texts, tones).map { text, tone -> String in
            guard r.color, let hex = WidgetColors.hex(tone) else { return text }
            return "%{F\(hex)}\(text)%{F-}"
        }
        return (parts.isEmpty ? "shopy" : parts.joined(separator: " · ")) + "\n"
    }
}
