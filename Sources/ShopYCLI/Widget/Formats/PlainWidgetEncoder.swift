import ShopYCore
/// `--format plain`: small is one line (`● online · ♥ 12`), medium one line an item.
public enum PlainWidgetEncoder: WidgetEncoder {
    public static func encode(_ r: WidgetRendering) -> String {
        let texts = r.texts(WidgetTextSafety.plain)
        let body = r.family == .small ? texts.joined(separator: " · ") : texts.joined(separator: "\n")
        return (body.isEmpty ? "shopy" : body) + "\n"
    }
}
