import ShopYCore
/// `--format polybar` (custom/script, `exec`): one line; with colour, each item in
/// `%{F#rrggbb}…%{F-}` by its tone.
public enum PolybarWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        r.styledLine(WidgetTextSafety.polybar) { text, hex in "%{F\(hex)}\(text)%{F-}" }
    }
}
