import ShopYCore
import ShopYBase
/// The snippets `shopy widget install BAR` prints, with this shopy's path filled in, and the
/// store when SHOPY_HOME chooses it (a bar does not read the shell's startup files).
///
/// Every bar runs its command through /bin/sh, so the command is quoted for sh first
/// (`ShellWords`); then for the file that holds it, as the bar reads that file: a JSON string
/// (waybar), a raw one-line ini value (i3blocks), an ini value whose `\` is doubled (polybar),
/// a double-quoted tmux string in a user option (tmux), a script (SwiftBar).
/// A path with a control character fits none of them as one line: it is refused.
public enum WidgetInstall {
    public enum Bar: String, Sendable, CaseIterable {
        case waybar, i3blocks, polybar, tmux, swiftbar
    }

    /// What the snippet is made of: this shopy, the widget's name, SHOPY_HOME when it is set.
    public struct Target: Sendable {
        public var executable: String
        public var name: String
        public var storeVariable: String?

        public init(executable: String, name: String, storeVariable: String?) {
            self.executable = executable
            self.name = name
            self.storeVariable = storeVariable
        }

        /// The block or module: `shopy`, `shopy-NAME` for another widget (so that both fit in one bar).
        var id: String { name == WidgetConfiguration.defaultName ? "shopy" : "shopy-\(name)" }

        /// The sh command `shopy widget ARGUMENTS` (with `--name` as needed).
        func bare(_ arguments: String) -> String {
            let named = name == WidgetConfiguration.defaultName ? "" : " --name \(ShellWords.quoted(name))"
            return ShellWords.quoted(executable) + " widget " + arguments + named
        }

        /// The same with SHOPY_HOME set for it, when set.
        func command(_ arguments: String) -> String {
            (storeVariable.map { "SHOPY_HOME=\(ShellWords.quoted($0)) " } ?? "") + bare(arguments)
        }

        /// `export SHOPY_HOME=…` and `separator` for what follows in the same script, or nothing.
        func exports(_ separator: String) -> String {
            storeVariable.map { "export SHOPY_HOME=\(ShellWords.quoted($0))" + separator } ?? ""
        }
    }

    public static func snippet(_ bar: Bar, target t: Target) throws(WidgetInstallError) -> String {
        for (what, text) in [("this shopy's path", t.executable), ("SHOPY_HOME", t.storeVariable ?? "")]
        where text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw WidgetInstallError(bar: bar, what: what)
        }
        switch bar {
        case .waybar:
            // Waybar runs exec and on-click with sh -c; the JSON string carries the sh command.
            func json(_ command: String) -> String { JSONWriter.string(.string(command)) }
            return """
            // ~/.config/waybar/config: add "custom/\(t.id)" to modules-right, then:
            "custom/\(t.id)": {
                "exec": \(json(t.command("--format waybar"))),
                "return-type": "json",
                "interval": 30,
                "tooltip": true,
                "on-click": \(json(t.command("open"))),
                "on-click-right": \(json(t.command("refresh")))
            }

            """
        case .i3blocks:
            // i3blocks runs the value as it stands with sh -c; a click sets BLOCK_BUTTON
            // (Debian's 1.4) or `button` (1.5 on). The block's text is what the command prints,
            // and its exit status must be 0 (anything else but 33 is "bad exit code").
            return """
            # ~/.config/i3blocks/config
            [\(t.id)]
            command=\(t.exports("; "))case "${button:-${BLOCK_BUTTON:-}}" in 1) \(t.bare("open")) >/dev/null 2>&1;; esac; exec \(t.bare("--format i3blocks"))
            interval=30

            """
        case .polybar:
            // Polybar reads `\\` as one backslash in a value and runs it with sh -c.
            func ini(_ command: String) -> String { ShellWords.replacingScalars(command) { $0 == "\\" ? "\\\\" : nil } }
            return """
            ; ~/.config/polybar/config.ini: add \(t.id) to modules-right, then:
            [module/\(t.id)]
            type = custom/script
            exec = \(ini(t.command("--format polybar --color=always")))
            interval = 30
            click-left = \(ini(t.command("open")))
            click-right = \(ini(t.command("refresh")))

            """
        case .tmux:
            // The command lives in a user option (one a widget name): tmux ends `#(` at an
            // unbalanced `)`, which no escape hides, and runs an option's value as it is.
            let option = "@\(t.id)-widget"
            return """
            # ~/.tmux.conf
            set -g status-interval 30
            set -g \(option) "\(tmuxString(t.command("--format tmux")))"
            set -g status-right "#(#{\(option)}) %H:%M"

            """
        case .swiftbar:
            return """
            #!/bin/sh
            # SwiftBar / xbar plugin: save as shopy.5m.sh in the plugin folder and chmod +x it.
            # <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
            \(t.exports("\n"))exec \(t.bare("--format swiftbar --family medium"))

            """
        }
    }

    /// A double-quoted tmux string: `\`, `"` and `$` escaped (tmux expands `$NAME` there).
    /// The option's value reaches the shell as it is: `#(#{@option})` expands neither formats
    /// nor strftime in it (tmux 3.3a, tested in WidgetHostTests).
    static func tmuxString(_ text: String) -> String {
        ShellWords.replacingScalars(text) { scalar in
            switch scalar {
            case "\\": return "\\\\"
            case "\"": return "\\\""
            case "$": return "\\$"
            default: return nil
            }
        }
    }
}

/// `widget install` cannot write a snippet the bar would read as meant.
public struct WidgetInstallError: ShopyError, Equatable {
    public var bar: WidgetInstall.Bar
    public var what: String

    public var message: String { "the \(bar.rawValue) snippet cannot hold \(what): it has a control character (a newline or the like)" }
    public var hint: String? { "run shopy from a path without control characters, or set SHOPY_HOME to one" }
}

/// Words for a POSIX shell.
public enum ShellWords {
    /// `text` as one sh word: as it is when it holds only characters no shell acts on, else
    /// in single quotes (`'` written as `'\''`). Scalar by scalar: sh reads bytes, and a `'`
    /// before a combining mark is one Character to Swift.
    public static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ plain.contains($0) }) { return text }
        return "'" + replacingScalars(text) { $0 == "'" ? "'\\''" : nil } + "'"
    }

    /// `text` with each scalar for which `replacement` gives a text replaced by it.
    static func replacingScalars(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out.append(contentsOf: replaced.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+@:,".unicodeScalars)
}
