import ShopYCore
import ShopYBase
/// Per-protocol sanitizers. All start from `Sanitizer.clean` (no controls, no newlines, no bidi
/// overrides), then neutralize what the protocol itself would read as markup.
public enum WidgetTextSafety {
    public static func plain(_ text: String) -> String { Sanitizer.clean(text) }

    /// Waybar reads `text` and `tooltip` as Pango markup (`Markup.escaped`: scalar by scalar).
    public static func pango(_ text: String) -> String {
        Markup.escaped(Sanitizer.clean(text))
    }

    /// Polybar opens a format tag with `%{`: broken up, and a trailing `%` kept off the tags
    /// that follow. Bars read bytes, so this works on scalars (`%{` + a combining mark is one
    /// Character to Swift, and Foundation's search would not see the `%{` in it).
    public static func polybar(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for s in Sanitizer.clean(text).unicodeScalars {
            if s == "{", previous == "%" { out.append(" ") }
            out.append(s)
            previous = s
        }
        if previous == "%" { out.append(" ") }
        return String(out)
    }

    /// tmux reads `#[…]` styles, `#{…}` formats and runs `#(…)`: every `#` scalar is doubled
    /// (`##` is a literal `#`).
    public static func tmux(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in Sanitizer.clean(text).unicodeScalars {
            if s == "#" { out.append("#") }
            out.append(s)
        }
        return String(out)
    }

    /// SwiftBar/xbar: `|` starts the parameters, a line starting with `--` is a submenu item and
    /// `---` a separator. Scalar by scalar, as the bars read it.
    public static func swiftbar(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var leading = true
        for s in Sanitizer.clean(text).unicodeScalars {
            if leading, s == "-" { out.append("\u{2010}"); continue }
            leading = false
            out.append(s == "|" ? "\u{2502}" : s)
        }
        return String(out)
    }

    /// A link for a parameter value (`href=`): a checked http(s) URL with `|`, quotes and `\`
    /// percent-encoded; nil when the link is not safe.
    public static func parameterLink(_ link: String?) -> String? {
        guard let link = SafeLink.check(link) else { return nil }
        var out = String.UnicodeScalarView()
        for s in link.unicodeScalars {
            switch s {
            case "|": out.append(contentsOf: "%7C".unicodeScalars)
            case "\"": out.append(contentsOf: "%22".unicodeScalars)
            case "'": out.append(contentsOf: "%27".unicodeScalars)
            case "\\": out.append(contentsOf: "%5C".unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }
}
