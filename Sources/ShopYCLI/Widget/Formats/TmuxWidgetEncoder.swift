import ShopYCore
/// `--format tmux` (`status-right '#(shopy widget --format tmux)'`): one line, each item styled
/// with `#[fg=#rrggbb]…#[default]` by its tone unless colour is off.
public enum TmuxWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        r.styledLine(WidgetTextSafety.tmux) { text, hex in "#[fg=\(hex)]\(text)#[default]" }
    }
}
