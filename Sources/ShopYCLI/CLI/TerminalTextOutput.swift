import ShopYCore
import ShopYBase

extension TerminalText {
    /// Wrapped in an ANSI style when `enabled` (the escape is the program's own).
    public func styled(_ style: Style, enabled: Bool) -> TerminalText {
        var styled = self
        styled.rendered = style.apply(rendered, enabled: enabled)
        return styled
    }
}

extension OutputSink {
    /// Writes a terminal line (adds the newline).
    public func line(_ text: TerminalText) {
        write(text.rendered + "\n")
    }
}
