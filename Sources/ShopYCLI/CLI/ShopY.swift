import Foundation
import ShopYCore
import ShopYBase

/// One subcommand: validated options in (`init`), work and output out (`run`).
public protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// Commands under this one (`likes export`); their names come first after the parent's.
    static var subcommands: [any Command.Type] { get }
    init(_ parsed: ParsedArguments) throws(UsageError)
    func run(_ context: Context) async throws -> ExitCode
}

extension Command {
    public static var subcommands: [any Command.Type] { [] }

    /// The spec with its subcommands (and theirs, to any depth) listed, for help.
    static var fullSpec: CommandSpec {
        var spec = self.spec
        spec.subcommands = subcommands.map { $0.fullSpec }
        return spec
    }
}

/// The command line as a library call, so that tests run it in process.
public enum ShopY {
    public static let version = ShopYVersion.current

    /// Every command, in the order help lists them.
    public static let commands: [any Command.Type] = [
        SearchCommand.self,
        PopularCommand.self,
        RankCommand.self,
        LikeCommand.self,
        UnlikeCommand.self,
        LikesCommand.self,
        HistoryCommand.self,
        DoctorCommand.self,
        StatusCommand.self,
        TrendsCommand.self,
        ConfigCommand.self,
        OpenCommand.self,
        CopyCommand.self,
        ShowCommand.self,
        CompletionsCommand.self,
        BrowseCommand.self,
        WidgetCommand.self,
        CatalogCommand.self,
    ]

    /// Parses `arguments` (without the program name), runs the command, reports errors, and
    /// returns the exit code. Output goes through `io`; nothing is printed after it returns.
    /// `transport` nil means URLSession, created only when a command needs the network.
    /// `network` nil means the machine's (`SystemNetworkProvider`); tests hand in fakes.
    public static func main(_ arguments: [String], io: IO, transport: (any HTTPTransport)? = nil,
                            network: (any NetworkProvider)? = nil) async -> Int32 {
        var code = await run(arguments, io: io, transport: transport, network: network ?? SystemNetworkProvider())
        io.stdout.flush()
        if let errno = io.stdout.writeError {
            code = report(StoreError.io(path: "standard output", operation: "write to", errno: errno), io: io)
        }
        io.stderr.flush()
        return code.rawValue
    }

    /// `commands`: the command tree (tests hand in one of their own).
    static func run(_ arguments: [String], io: IO, transport: (any HTTPTransport)?, network: any NetworkProvider,
                    commands: [any Command.Type] = ShopY.commands) async -> ExitCode {
        // The one store of this run (constructing it touches no file).
        let store = SettingsStore(environment: io.environment)
        let specs = commands.map { $0.fullSpec }
        guard let first = arguments.first else {
            io.stdout.write(Help.rootText(commands: specs, version: version, width: io.columns))
            return .ok
        }
        switch first {
        case "-h", "--help":
            io.stdout.write(Help.rootText(commands: specs, version: version, width: io.columns))
            return .ok
        case "--version", "-V":
            io.stdout.line("shopy \(version)")
            return .ok
        case "help":
            return help(Array(arguments.dropFirst()), io: io, commands: commands)
        case "__complete":
            return CompletionsCommand.answer(Array(arguments.dropFirst()), io: io, store: store)
        default:
            break
        }
        guard let top = commands.first(where: { $0.spec.name == first }) else {
            let error: UsageError
            if first.hasPrefix("-"), let near = Suggest.closest(to: first, among: ["--version", "--help"]) {
                error = UsageError("unknown option '\(Echo.value(first))'", hint: "did you mean '\(near)'?")
            } else if first.hasPrefix("-") {
                error = UsageError("unknown option '\(Echo.value(first))'", hint: "options come after the command; see 'shopy --help'")
            } else if let near = Suggest.closest(to: first, among: specs.map(\.name) + ["help"]) {
                error = UsageError("unknown command '\(Echo.value(first))'", hint: "did you mean '\(near)'?")
            } else {
                error = UsageError("unknown command '\(Echo.value(first))'", hint: "see 'shopy --help' for the commands")
            }
            return report(error, io: io)
        }
        let (type, path, rest) = CommandTree.descend(top, path: first, words: Array(arguments.dropFirst()))
        let spec = type.fullSpec
        do {
            var parsed = try ArgumentParser.parse(rest, for: spec, commandPath: path)
            if parsed.wantsHelp {
                io.stdout.write(Help.text(for: spec, path: path, width: io.columns))
                return .ok
            }
            if let error = CommandTree.unknownSubcommand(type, path: path, parsed: parsed) { throw error }
            var io = io
            let config = ConfigDefaults.resolve(io: io, store: store, path: path)
            try config.apply(to: &parsed, spec: spec, path: path)
            io.colorMode = try config.colorMode(parsed)
            io.quiet = parsed[GlobalOptions.quiet]
            let command = try type.init(parsed)
            var context = Context(io: io, verbose: parsed.verbose, transport: transport, store: store, network: network)
            context.coupangBudget = CoupangBudgetSetting.resolve(config)
            return try await command.run(context)
        } catch {
            return report(error, io: io)
        }
    }

    /// `shopy help`, `shopy help --man`, `shopy help --markdown`, `shopy help a b c` (any depth).
    static func help(_ arguments: [String], io: IO, commands: [any Command.Type] = ShopY.commands) -> ExitCode {
        let specs = commands.map { $0.fullSpec }
        // `shopy help search --help` is `shopy help search`; `shopy help -h` the root help.
        let arguments = arguments.filter { $0 != "-h" && $0 != "--help" }
        guard arguments.first != nil else {
            io.stdout.write(Help.rootText(commands: specs, version: version, width: io.columns))
            return .ok
        }
        if arguments.first == "--man" {
            guard arguments.count == 1 else { return report(UsageError("help --man takes no other arguments"), io: io) }
            io.stdout.write(ManPage.render(commands: specs, version: version))
            return .ok
        }
        // Hidden: writes docs/commands.md (`CommandReference.regenerate`).
        if arguments.first == "--markdown" {
            guard arguments.count == 1 else { return report(UsageError("help --markdown takes no other arguments"), io: io) }
            io.stdout.write(CommandReference.render(commands: specs))
            return .ok
        }
        if HelpTopics.names.contains(arguments[0]) {
            guard arguments.count == 1, let text = HelpTopics.text(arguments[0], width: io.columns) else {
                return report(UsageError("help \(arguments[0]) takes no other arguments", hint: "it is a help topic, not a command"), io: io)
            }
            io.stdout.write(text)
            return .ok
        }
        switch CommandTree.spec(arguments, in: specs, topics: HelpTopics.names) {
        case .success(let (spec, path)):
            io.stdout.write(Help.text(for: spec, path: path, width: io.columns))
            return .ok
        case .failure(let error):
            return report(error, io: io)
        }
    }

    /// `shopy: message` and at most one `hint:` line on stderr; the exit code for the error.
    @discardableResult
    public static func report(_ error: Error, io: IO) -> ExitCode {
        let code = ExitCode(for: error)
        let message: String
        var hint: String?
        if let error = error as? ShopyError {
            message = error.message
            hint = error.hint
        } else if error is CancellationError {
            message = "cancelled"
        } else {
            message = "unexpected error: \(String(describing: error))"
        }
        let prefix = io.stderrUsesColor ? Style.red.apply("shopy:", enabled: true) : "shopy:"
        io.stderr.line("\(prefix) \(Sanitizer.clean(message))")
        if let hint { io.stderr.line("hint: \(Sanitizer.clean(hint))") }
        return code
    }
}
