import ShopYCore
/// `--format swiftbar` (SwiftBar and xbar plugins): the bar line, `---`, one menu line an item
/// (`| href=…` when it has a link), then `---` and a Refresh item (`refresh=true`).
public enum SwiftBarWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let bar = WidgetRendering(state: r.state, family: .small, color: r.color, name: r.name).texts(WidgetTextSafety.swiftbar)
        var barLine = (bar.isEmpty ? "shopy" : bar.prefix(r.family == .small ? 4 : 2).joined(separator: " · ")) + " | emojize=false"
        if r.color, let hex = WidgetColors.hex(r.tone) { barLine += " color=\(hex)" }
        var lines = [barLine, "---"]
        if let message = r.entry.message {
            lines.append(WidgetTextSafety.swiftbar(message) + " | emojize=false")
        }
        for item in r.entry.items {
            var line = WidgetTextSafety.swiftbar(item.line) + " | emojize=false"
            if let link = WidgetTextSafety.parameterLink(item.link) { line += " href=\(link)" }
            if r.color, let hex = WidgetColors.hex(item.tone) { line += " color=\(hex)" }
            lines.append(line)
        }
        lines.append("---")
        lines.append("Updated \(WidgetClock.format(r.entry.date))\(r.entry.stale ? " (a refresh is due)" : "") | disabled=true")
        lines.append("Refresh | refresh=true")
        return lines.joined(separator: "\n") + "\n"
    }
}
