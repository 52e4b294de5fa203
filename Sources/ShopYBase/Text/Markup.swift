/// Text for a reader of markup (Pango in waybar, the body of a desktop notification): `&`, `<`,
/// `>` and both quotes as entities, scalar by scalar, since a `<` followed by a combining mark
/// is one Character to Swift but still a tag to the reader.
public enum Markup {
    public static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }
}
