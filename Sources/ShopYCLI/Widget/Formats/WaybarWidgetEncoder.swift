import ShopYCore
import ShopYBase
/// `--format waybar` (custom module, `return-type: json`): one JSON object on one line with
/// `text`, `tooltip`, `class`, `alt` and `percentage`. Text and tooltip are Pango-escaped.
public enum WaybarWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let texts = r.texts(WidgetTextSafety.pango)
        let lines = r.entry.message.map { [WidgetTextSafety.pango($0)] } ?? r.entry.items.map { WidgetTextSafety.pango($0.line) }
        var classes = ["shopy", r.tone.rawValue, r.entry.kind.rawValue]
        if r.entry.stale { classes.append("stale") }
        if let error = r.entry.errorClass { classes.append(error) }
        let o = JSONObject(["text": .string(texts.joined(separator: "  ·  ")), "tooltip": .string(lines.joined(separator: "\n")),
                            "class": .array(classes.map(JSONValue.string)), "alt": .string(r.entry.errorClass ?? r.entry.kind.rawValue),
                            "percentage": .int(percentage(r))])
        return JSONWriter.string(.object(o)) + "\n"
    }

    /// 100 when every item is fine, less for each failed or pending one (for format-icons).
    static func percentage(_ r: WidgetRendering) -> Int {
        if r.entry.kind == .failure { return 0 }
        let items = r.entry.items
        guard !items.isEmpty else { return 0 }
        let fine = items.filter { $0.tone != .bad && $0.tone != .muted }.count
        return fine * 100 / items.count
    }
}
