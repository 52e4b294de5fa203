import ShopYCore
import ShopYBase
/// `shopy help --man`: shopy(1) as roff (man macros), from the same declarations as `--help`.
public enum ManPage {
    public static func exitMeaning(_ code: ExitCode) -> String {
        switch code {
        case .ok: return "Success (no results is success; so is \"not in the top N\")."
        case .failure: return "Anything else (the API refused or redirected a request, a bad SHOPY_API_BASE)."
        case .usage: return "Usage: unknown command, option, config key or bad value; nothing was sent."
        case .dataError: return "Bad data: an API answer that does not parse; a damaged file; a malformed import."
        case .unavailable: return "Unavailable: offline, DNS failure, refused, 5xx after retries, the retired API; no clipboard for copy."
        case .ioError: return "A local file or the output could not be read or written."
        case .temporary: return "Temporary: timeout, rate limited after retries, daily quota used up."
        case .authentication: return "Keys missing (with --source naver) or refused (401/403)."
        }
    }

    public static func render(commands: [CommandSpec], version: String) -> String {
        var out: [String] = []
        out.append(".TH SHOPY 1 2026-12-01 \"shopy \(version)\" \"User Commands\"")
        out.append(".SH NAME")
        out.append("shopy \\- Naver Shopping from the shell")
        out.append(".SH SYNOPSIS")
        out.append(".B shopy")
        out.append(".I command")
        out.append("[\\fIarguments\\fR] [\\fIoptions\\fR]")
        out.append(".br")
        out.append(".B shopy help")
        out.append("[\\fIcommand\\fR] | \\fB\\-\\-man\\fR")
        out.append(".SH DESCRIPTION")
        out += filled("Search products, keep likes, watch rankings and check where a product ranks. Without NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, commands run on the built-in offline catalog. Every command takes -h/--help, -v/--verbose, -q/--quiet and --color auto|always|never.")
        out.append(".SH OPTIONS")
        out += filled("These work with every command:")
        for option in CommandSpec.commonOptions { tagged(option.displayName, option.help, into: &out, bold: true) }
        tagged("--version", "Show the version (before any command).", into: &out, bold: true)
        out.append(".SH COMMANDS")
        // Every command and subcommand, to any depth.
        for (spec, path) in CommandTree.all(commands) { command(spec, path: path, into: &out) }
        out.append(".SH ENVIRONMENT")
        for row in EnvironmentTable.variables { tagged(row.label, row.meaning, into: &out) }
        out.append(".SH FILES")
        out += filled("In $SHOPY_HOME, else $XDG_DATA_HOME/shopy, else ~/.local/share/shopy:")
        for row in EnvironmentTable.files { tagged(row.label, row.meaning, into: &out) }
        out.append(".SH EXIT STATUS")
        for code in ExitCode.allCases { tagged(String(code.rawValue), exitMeaning(code), into: &out) }
        out.append(".SH SEE ALSO")
        out.append(".BR shopy\\-emulator (1)")
        return out.joined(separator: "\n") + "\n"
    }

    static func command(_ spec: CommandSpec, path: String, into out: inout [String]) {
        out.append(".SS " + text(Help.usage(for: spec, path: path)))
        out += filled(spec.abstract)
        if let discussion = spec.discussion {
            for paragraph in discussion.components(separatedBy: "\n") where !paragraph.isEmpty {
                out.append(".PP")
                out += filled(paragraph)
            }
        }
        for argument in spec.arguments { tagged(argument.displayName, argument.help, into: &out, italic: true) }
        let own = spec.options.filter { option in !CommandSpec.commonOptions.contains { $0.name == option.name } }
        for option in own { tagged(option.displayName, option.help, into: &out, bold: true) }
        if !spec.examples.isEmpty {
            out.append(".PP")
            out.append("Examples:")
            out.append(".RS")
            out.append(".nf")
            for example in spec.examples { out.append(text(example)) }
            out.append(".fi")
            out.append(".RE")
        }
    }

    static func tagged(_ label: String, _ meaning: String, into out: inout [String], bold: Bool = false, italic: Bool = false) {
        out.append(".TP")
        out.append(bold ? "\\fB" + text(label) + "\\fR" : (italic ? "\\fI" + text(label) + "\\fR" : text(label)))
        out += filled(meaning)
    }

    /// Text for fill mode, a line at most 78 bytes where the words allow (roff joins them again).
    static func filled(_ value: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in value.split(separator: " ") {
            let escaped = text(String(word))
            if !current.isEmpty && current.utf8.count + 1 + escaped.utf8.count > 78 {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? escaped : " " + escaped
        }
        if !current.isEmpty { lines.append(current) }
        return lines.map { $0.hasPrefix("\\&") ? $0 : ($0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0) }
    }

    /// Text as roff: backslashes escaped, hyphens as minus signs, non-ASCII as \[uXXXX], and a
    /// line that would start with a control character guarded.
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in Sanitizer.clean(value).unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "\"": out += "\\(dq"
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
