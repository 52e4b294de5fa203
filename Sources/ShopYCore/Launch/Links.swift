import ShopYBase
import Foundation

/// Links come from the network: only a plain http(s) URL is ever handed to another program.
public enum SafeLink {
    /// The link when it is an absolute http or https URL with a host and nothing a terminal or
    /// another program could misread (no whitespace, no control or non-ASCII characters, no
    /// leading `-`); nil otherwise.
    public static func check(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.count <= 4096 else { return nil }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        return text
    }

    /// The link for a `%s` in $BROWSER, which may be inside a shell's script
    /// (`BROWSER="sh -c 'firefox %s'"`): every character a POSIX shell acts on in or out of
    /// quotes is percent-encoded (dollar, parentheses, backquote, both quotes, semicolon, bar,
    /// angle brackets, backslash, exclamation mark, braces), so that the link can neither leave
    /// a quoted word nor start a command. A web server reads them the same encoded or not
    /// (RFC 3986: sub-delimiters, or not allowed unencoded at all). What structures a URL stays
    /// (`& ? # = / : @ [ ] * ~ % +`): a `%s` left unquoted in a shell's script is the script's
    /// own bug, since `&` and `?` would split or glob even a plain link.
    public static func shellInert(_ link: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in link.unicodeScalars {
            if shellSyntax.contains(scalar) {
                // All of them are printable ASCII: two hex digits.
                out.append(contentsOf: "%\(String(scalar.value, radix: 16, uppercase: true))".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static let shellSyntax = Set("$()`'\";|<>\\!{}".unicodeScalars)
}

/// A program that opens a link, and its argv.
public struct LinkHandler: Equatable, Sendable {
    /// What the user is told: `xdg-open`, `$BROWSER (firefox)`, `xclip`.
    public var name: String
    public var argv: [String]
    /// Shares the terminal (a $BROWSER may be a text browser) and is waited for.
    public var attached: Bool
    /// For clipboard tools: the link goes on stdin.
    public var input: [UInt8]?
}

public enum Openers {
    /// The openers to try, in order: each $BROWSER entry (`BrowserVariable`: colon-separated
    /// commands split without a shell, `%s` for the link, else the link last), then the platform's: `open` on macOS; `wslview` first on WSL;
    /// `xdg-open` where a display is set; `wslview`. Only programs found on PATH.
    public static func candidates(for link: String, environment: [String: String], launcher: any Launcher) -> [LinkHandler] {
        let path = environment["PATH"]
        var handlers: [LinkHandler] = []
        for entry in BrowserVariable.entries(environment["BROWSER"] ?? "") {
            guard let found = launcher.find(entry.program, searchPath: path) else { continue }
            var argv = entry.argv(for: link)
            argv[0] = found
            handlers.append(LinkHandler(name: "$BROWSER (\(entry.program))", argv: argv, attached: true))
        }
        var platform: [String] = []
        #if os(macOS)
        platform.append("open")
        #else
        // On Linux `open` is often openvt: never run it.
        let wsl = environment["WSL_DISTRO_NAME"] != nil || environment["WSL_INTEROP"] != nil
        if wsl { platform.append("wslview") }
        if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil { platform.append("xdg-open") }
        if !wsl { platform.append("wslview") }
        #endif
        for name in platform {
            if let found = launcher.find(name, searchPath: path) {
                handlers.append(LinkHandler(name: name, argv: [found, link], attached: false))
            }
        }
        return handlers
    }
}

extension Openers {
    /// What in $BROWSER cannot be run as meant, each said once so that it is not skipped
    /// silently: an entry with an unclosed quote or a trailing backslash, a program not found.
    public static func browserProblems(environment: [String: String], launcher: any Launcher) -> [String] {
        var problems: [String] = []
        for (n, words) in CommandWords.commands(environment["BROWSER"] ?? "", separator: ":").enumerated() {
            guard let words else {
                problems.append("$BROWSER's entry \(n + 1) has an unclosed quote or a trailing backslash")
                continue
            }
            guard let program = words.first else { continue }  // an empty entry (`a::b`) means nothing
            if launcher.find(program, searchPath: environment["PATH"]) == nil {
                // Named as an error message quotes a value: cleaned and cut (it may be huge).
                let shown = DisplayWidth.truncate(Sanitizer.clean(String(program.prefix(256))), toWidth: 64)
                problems.append("$BROWSER (\(shown)) is not found" + (program.contains("/") ? " or not executable" : " on PATH"))
            }
        }
        return problems
    }
}

public enum Clipboards {
    /// Clipboard tools to try, in order: wl-copy (Wayland), xclip and xsel (X11), pbcopy (macOS);
    /// the link goes on their stdin.
    public static func candidates(for link: String, environment: [String: String], launcher: any Launcher) -> [LinkHandler] {
        var tools: [(String, [String])] = []
        if environment["WAYLAND_DISPLAY"] != nil { tools.append(("wl-copy", [])) }
        if environment["DISPLAY"] != nil {
            tools.append(("xclip", ["-selection", "clipboard", "-in"]))
            tools.append(("xsel", ["--clipboard", "--input"]))
        }
        tools.append(("pbcopy", []))
        return tools.compactMap { name, arguments in
            launcher.find(name, searchPath: environment["PATH"]).map {
                LinkHandler(name: name, argv: [$0] + arguments, attached: false, input: Array(link.utf8))
            }
        }
    }

    /// OSC 52: the terminal puts the text on the system clipboard (where it allows it).
    public static func osc52(_ text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }
}
