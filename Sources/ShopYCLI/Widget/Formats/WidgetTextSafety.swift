import ShopYCore
/// Per-protocol sanitizers. All start from `Sanitizer.clean` (no controls, no newlines, no bidi
/// overrides), then neutralize what the protocol itself would read as markup.
public enum WidgetTextSafety {
    public static func plain(_ text: String) -> String { Sanitizer.clean(text) }

    /// Waybar reads `text` and `tooltip` as Pango markup.
    public static func pango(_ text: String) -> String {
        var out = ""
        for c in Sanitizer.clean(text) {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// Polybar opens a format tag with `%{`: broken up, and a trailing `%` kept off the tags
    /// that follow.
    public static func polybar(_ text: String) -> String {
        var out = Sanitizer.clean(text).replacingOccurrences(of: "%{", with: "% {")
        if out.hasSuffix("%") { out += " " }
        return out
    }

    /// tmux reads `#[…]` styles, `#{…}` formats and runs `#(…)`: every `#` is doubled (`##` is a
    /// literal `#`).
    public static func tmux(_ text: String) -> String {
        Sanitizer.clean(text).replacingOccurrences(of: "#", with: "##")
    }

    /// SwiftBar/xbar: `|` starts the parameters, a line starting with `--` is a submenu item and
    /// `---` a separator.
    public static func swiftbar(_ text: String) -> String {
        var out = Sanitizer.clean(text).replacingOccurrences(of: "|", with: "│")
        while out.hasPrefix("-") { out = "‐" + out.dropFirst() }
        return out
    }

    /// A link for a parameter value (`href=`): a checked http(s) URL with `|`, quotes and `\`
    /// percent-encoded; nil when the link is not safe.
    public static func parameterLink(_ link: String?) -> String? {
        guard let link = SafeLink.check(link) else { return nil }
        var out = ""
        for c in link {
            switch c {
            case "|": out += "%7C"
            case "\"": out += "%22"
            case "'": out += "%27"
            case "\\": out += "%5C"
            default: out.append(c)
            }
        }
        return out
    }
}
