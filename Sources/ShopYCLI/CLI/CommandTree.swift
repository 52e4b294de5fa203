import ShopYCore
import ShopYBase
/// Commands under commands, to any depth (`shopy widget configure`, `shopy likes refresh`,
/// `shopy a b c`): finding the one a command line names, with did-you-mean at every level.
enum CommandTree {
    /// The command named by the leading words of `words` under `type` (whose path is `path`),
    /// the path to it and the words left for its parser.
    static func descend(_ type: any Command.Type, path: String, words: [String]) -> (type: any Command.Type, path: String, rest: [String]) {
        var type = type, path = path, rest = words
        while let name = rest.first, let sub = type.subcommands.first(where: { $0.spec.name == name }) {
            type = sub
            path += " " + name
            rest.removeFirst()
        }
        return (type, path, rest)
    }

    /// A command that has subcommands and takes no arguments of its own was given a word it
    /// does not know: the usage error, with the nearest subcommand.
    static func unknownSubcommand(_ type: any Command.Type, path: String, parsed: ParsedArguments) -> UsageError? {
        guard !type.subcommands.isEmpty, type.spec.arguments.isEmpty, let first = parsed.positionals.first else { return nil }
        let names = type.subcommands.map { $0.spec.name }
        let hint = Suggest.closest(to: first, among: names).map { "did you mean 'shopy \(path) \($0)'?" } ?? "subcommands: \(names.joined(separator: ", "))"
        return UsageError("unknown subcommand '\(path) \(Echo.value(first))'", hint: hint)
    }

    /// The spec that `names` (`["config", "get"]`) lead to in `specs`, with its path; the usage
    /// error naming the first word that is not a command there.
    /// `topics`: other words the first one may be (`environment`), for did-you-mean.
    static func spec(_ names: [String], in specs: [CommandSpec], topics: [String] = []) -> Result<(CommandSpec, String), UsageError> {
        var level = specs
        var found: CommandSpec?
        var path: [String] = []
        for name in names {
            guard let spec = level.first(where: { $0.name == name }) else {
                let what = path.isEmpty ? "command" : "subcommand"
                let shown = (path + [Echo.value(name)]).joined(separator: " ")
                let hint = Suggest.closest(to: name, among: level.map(\.name) + (path.isEmpty ? topics : [])).map { "did you mean '\((path + [$0]).joined(separator: " "))'?" }
                    ?? (path.isEmpty ? "see 'shopy --help' for the commands" : "subcommands of '\(path.joined(separator: " "))': \(level.map(\.name).joined(separator: ", "))")
                return .failure(UsageError("no help for unknown \(what) '\(shown)'", hint: level.isEmpty ? "'shopy \(path.joined(separator: " "))' has no subcommands" : hint))
            }
            found = spec
            path.append(name)
            level = spec.subcommands
        }
        guard let found else { return .failure(UsageError("no command given")) }
        return .success((found, path.joined(separator: " ")))
    }

    /// Every command and subcommand with its path, depth first, in help order.
    static func all(_ specs: [CommandSpec], under path: String = "") -> [(spec: CommandSpec, path: String)] {
        specs.flatMap { spec -> [(spec: CommandSpec, path: String)] in
            let full = path.isEmpty ? spec.name : path + " " + spec.name
            return [(spec, full)] + all(spec.subcommands, under: full)
        }
    }
}
