import ShopYCore
import ShopYBase
/// `--format json`: the whole entry, for scripts (and the error's class when the store failed).
public enum JSONWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let e = r.entry
        let items: [JSONValue] = e.items.enumerated().map { i, item in
            .object(JSONObject(["n": .int(i + 1), "option": .string(item.optionID), "kind": .string(item.kind.rawValue),
                                "short": .string(Sanitizer.clean(item.short)), "line": .string(Sanitizer.clean(item.line)),
                                "link": .string(orNull: SafeLink.check(item.link)), "tone": .string(item.tone.rawValue)]))
        }
        var o = JSONObject(["name": .string(r.name), "family": .string(r.family.rawValue), "kind": .string(e.kind.rawValue),
                            "date": .string(WidgetClock.format(e.date)), "stale": .bool(e.stale),
                            "text": .string(PlainWidgetEncoder.encode(r).trimmingASCIIWhitespace()), "items": .array(items),
                            "policy": .string(r.state.policy.description), "due": .string(orNull: r.state.due?.rawValue)])
        o["error"] = e.errorClass.map { .object(JSONObject(["class": .string($0), "message": .string(e.message ?? "")])) } ?? .null
        o["lastRefreshError"] = .string(orNull: r.state.lastRefreshError)
        if !r.state.selection.overflow.isEmpty { o["notShown"] = .array(r.state.selection.overflow.map(JSONValue.string)) }
        return JSONWriter.string(.object(o)) + "\n"
    }
}
