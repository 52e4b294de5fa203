import ShopYCore
import ShopYBase
/// Help texts, laid out like swift-argument-parser's and wrapped to the terminal width.
public enum Help {
    static let labelColumn = 26

    /// Help for one command (`shopy help search`, `shopy search --help`).
    public static func text(for spec: CommandSpec, path: String, width: Int) -> String {
        var out: [String] = []
        out += wrap("OVERVIEW: " + spec.abstract, width: width, indent: 0, hanging: 10)
        if let discussion = spec.discussion {
            out.append("")
            for paragraph in discussion.components(separatedBy: "\n") {
                out += paragraph.isEmpty ? [""] : wrap(paragraph, width: width, indent: 2, hanging: 2)
            }
        }
        out.append("")
        out += wrap("USAGE: " + usage(for: spec, path: path), width: width, indent: 0, hanging: 7)
        out += section("SUBCOMMANDS", spec.subcommands.map { ($0.name, $0.abstract) }, width: width)
        out += section("ARGUMENTS", spec.arguments.map { ($0.displayName, $0.help) }, width: width)
        out += section("OPTIONS", spec.options.map { ($0.displayName, $0.help) }, width: width)
        if !spec.examples.isEmpty {
            out.append("")
            out.append("EXAMPLES:")
            for example in spec.examples {
                out += wrap(example, width: width, indent: 2, hanging: 4)
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The forms of `shopy help` the root help lists after the commands (and the command
    /// reference, `CommandReference`, too). `help --markdown` is left out: it writes that reference.
    static let topicRows: [(label: String, text: String)] = [
        ("help [<command>]", "Show help for shopy or one command."),
        ("help environment", "The environment variables shopy reads."),
        ("help files", "The files shopy keeps in SHOPY_HOME."),
        ("help --man", "Write the manual page shopy(1) as roff: shopy help --man | man -l -"),
    ]

    /// `shopy --help`: the commands.
    public static func rootText(commands: [CommandSpec], version: String, width: Int) -> String {
        var out: [String] = []
        out += wrap("OVERVIEW: shopy \(version): Naver Shopping from the shell. Search products, keep likes, watch rankings and check where a product ranks.", width: width, indent: 0, hanging: 10)
        out.append("")
        out += wrap("USAGE: shopy <command> [<arguments>] [<options>]", width: width, indent: 0, hanging: 7)
        out.append("")
        out.append("COMMANDS:")
        for command in commands {
            out += row(label: command.name, text: command.abstract, width: width)
        }
        for topic in topicRows { out += row(label: topic.label, text: topic.text, width: width) }
        out.append("")
        out.append("OPTIONS:")
        out += row(label: "--version", text: "Show the version.", width: width)
        out += row(label: "-h, --help", text: "Show help information.", width: width)
        out.append("")
        out += wrap("See 'shopy help <command>' for a command's options and examples. Without NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, search runs on the built-in offline catalog.", width: width, indent: 0, hanging: 0)
        return out.joined(separator: "\n") + "\n"
    }

    public static func usage(for spec: CommandSpec, path: String) -> String {
        var parts = ["shopy", path]
        if !spec.subcommands.isEmpty { parts.append("[<subcommand>]") }
        parts += spec.arguments.map(\.displayName)
        let specific = spec.options.filter { option in !CommandSpec.commonOptions.contains { $0.name == option.name } }
        for option in specific.prefix(4) {
            parts.append("[--\(option.name)\(option.valueName.map { option.bareValue == nil ? " <\($0)>" : "[=<\($0)>]" } ?? "")]")
        }
        if specific.count > 4 || specific.count < spec.options.count { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    /// A titled list of label/text rows, after a blank line; nothing when there are no rows.
    static func section(_ title: String, _ rows: [(String, String)], width: Int) -> [String] {
        guard !rows.isEmpty else { return [] }
        return ["", title + ":"] + rows.flatMap { row(label: $0.0, text: $0.1, width: width) }
    }

    static func row(label: String, text: String, width: Int) -> [String] {
        // On narrow terminals the text moves under the label, indented less.
        let column = width - labelColumn >= 30 ? labelColumn : 6
        let labelWidth = column - 2
        let lines = wrapWords(text, width: max(10, width - column))
        var out: [String] = []
        let padding = String(repeating: " ", count: column)
        if column == labelColumn && DisplayWidth.of(label) <= labelWidth - 1 {
            let first = "  " + label + String(repeating: " ", count: labelWidth - DisplayWidth.of(label)) + (lines.first ?? "")
            out.append(first)
            out += lines.dropFirst().map { padding + $0 }
        } else {
            out.append("  " + label)
            out += lines.map { padding + $0 }
        }
        return out
    }

    /// Wraps `text` to `width`: the first line at `indent`, the others at `hanging`.
    public static func wrap(_ text: String, width: Int, indent: Int, hanging: Int) -> [String] {
        let first = max(10, width - indent)
        let rest = max(10, width - hanging)
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in words {
            let limit = lines.isEmpty ? first : rest
            let w = DisplayWidth.of(word)
            if current.isEmpty {
                current = word
                currentWidth = w
            } else if currentWidth + 1 + w <= limit {
                current += " " + word
                currentWidth += 1 + w
            } else {
                lines.append(current)
                current = word
                currentWidth = w
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines.enumerated().map { i, line in String(repeating: " ", count: i == 0 ? indent : hanging) + line }
    }

    static func wrapWords(_ text: String, width: Int) -> [String] {
        wrap(text, width: width, indent: 0, hanging: 0)
    }
}
