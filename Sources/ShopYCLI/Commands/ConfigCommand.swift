import ShopYCore
import ShopYBase
/// `shopy config`: defaults for options, kept in preferences.json.
public struct ConfigCommand: Command {
    public static let spec = CommandSpec(
        name: "config",
        abstract: "Show or change the defaults of options (source, size, sort, format, color, quiet, rate, timeout).",
        discussion: "A command-line option beats the environment (SHOPY_SOURCE, SHOPY_SIZE, SHOPY_SORT, SHOPY_FORMAT, SHOPY_COLOR or NO_COLOR/CLICOLOR_FORCE, SHOPY_QUIET, SHOPY_RATE, SHOPY_TIMEOUT), which beats the config, which beats the built-in default. 'shopy config' alone is 'shopy config list'.",
        options: [ConfigListCommand.jsonOption.withHelp("List as JSON: {\"config\": [{key, value, origin, variable, default, problem}]}.").spec],
        examples: ["shopy config list", "shopy config set source catalog", "shopy config set size 50", "shopy config get format",
                   "shopy config unset size", "shopy config list --json"])

    public static var subcommands: [any Command.Type] { [ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self, ConfigListCommand.self] }

    let list: ConfigListCommand

    /// (A mistyped subcommand never gets here: the dispatcher refuses it, with did-you-mean.)
    public init(_ parsed: ParsedArguments) throws(UsageError) {
        list = try ConfigListCommand(parsed)
    }

    public func run(_ context: Context) async throws -> ExitCode { try await list.run(context) }

    static func resolution(_ context: Context) throws -> ConfigResolution {
        let stored = try LikeSupport.store(context).read { $0.config }
        return ConfigResolution.resolve(environment: context.io.environment, stored: stored)
    }

    static func json(_ entry: ConfigResolution.Entry) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("key", .string(entry.key.name))
        o.appendUnchecked("value", .string(entry.shown))
        o.appendUnchecked("origin", .string(entry.origin.name))
        o.appendUnchecked("variable", .string(orNull: { if case .environment(let v) = entry.origin { return v } else { return nil } }()))
        o.appendUnchecked("default", .string(entry.key.builtIn))
        // Why the value is refused (commands that would use it stop with 64); null when fine.
        o.appendUnchecked("problem", .string(orNull: entry.invalid?.message))
        return .object(o)
    }

    static func key(_ parsed: ParsedArguments, verb: String, count: Int) throws(UsageError) -> ConfigKey {
        guard parsed.positionals.count == count else {
            let usage = count == 2 ? "KEY VALUE" : "KEY"
            throw UsageError("config \(verb) needs \(usage)", hint: "keys: \(ConfigKey.names.joined(separator: ", "))")
        }
        return try ConfigKey.named(parsed.positionals[0])
    }
}

/// `shopy config list`
public struct ConfigListCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "list", abstract: "Show every key, its value and where the value comes from (environment, config or default).",
        options: [jsonOption.spec],
        examples: ["shopy config list", "shopy config list --json"])

    static let jsonOption = Option.flag("json", help: "As JSON: {\"config\": [{key, value, origin, variable, default, problem}]}.")

    var json: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("config list takes no arguments") }
        json = parsed[Self.jsonOption]
    }

    /// Every key with its value and where the value comes from.
    public func execute(_ context: Context) async throws -> ConfigResolution { try ConfigCommand.resolution(context) }

    public var presenter: ConfigListPresenter { ConfigListPresenter(json: json) }
}

/// `shopy config get KEY`
public struct ConfigGetCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "get", abstract: "Print the value a key has now (from the environment, the config or the default).",
        arguments: [ArgumentSpec("key", help: "One of: \(ConfigKey.names.joined(separator: ", ")).")],
        options: [jsonOption.spec],
        examples: ["shopy config get size"])

    static let jsonOption = Option.flag("json", help: "As JSON: {key, value, origin, variable, default, problem}.")

    var key: ConfigKey
    var json: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        key = try ConfigCommand.key(parsed, verb: "get", count: 1)
        json = parsed[Self.jsonOption]
    }

    /// The key's value now and its origin.
    public func execute(_ context: Context) async throws -> ConfigResolution.Entry? { try ConfigCommand.resolution(context).entry(key.name) }

    public var presenter: ConfigGetPresenter { ConfigGetPresenter(json: json) }
}

/// `shopy config set KEY VALUE`
public struct ConfigSetCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "set", abstract: "Store a default; the value is checked first.",
        arguments: [ArgumentSpec("key", help: "One of: \(ConfigKey.names.joined(separator: ", "))."),
                    ArgumentSpec("value", help: "A value the key accepts (an unknown one is refused with the valid ones listed).")],
        examples: ["shopy config set source catalog", "shopy config set color never", "shopy config set timeout 2.5"])

    var key: ConfigKey
    var value: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        key = try ConfigCommand.key(parsed, verb: "set", count: 2)
        value = try key.validate(parsed.positionals[1], origin: "value")
    }

    public func execute(_ context: Context) async throws -> ConfigChange {
        let key = key, value = value
        try LikeSupport.store(context).update([.preferences]) { settings in
            var config = settings.config
            config[key.name] = value
            settings.config = config
        }
        return ConfigChange(key: key, outcome: .set(value))
    }

    public var presenter: ConfigChangePresenter { ConfigChangePresenter() }
}

/// `shopy config unset KEY`
public struct ConfigUnsetCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "unset", abstract: "Forget a stored default: the built-in one applies again.",
        arguments: [ArgumentSpec("key", help: "One of: \(ConfigKey.names.joined(separator: ", ")).")],
        examples: ["shopy config unset size"])

    var key: ConfigKey

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        key = try ConfigCommand.key(parsed, verb: "unset", count: 1)
    }

    public func execute(_ context: Context) async throws -> ConfigChange {
        let key = key
        let removed: Bool = try LikeSupport.store(context).update([.preferences]) { settings in
            var config = settings.config
            guard config.removeValue(forKey: key.name) != nil else { return false }
            settings.config = config
            return true
        }
        return ConfigChange(key: key, outcome: removed ? .unset : .wasNotSet)
    }

    public var presenter: ConfigChangePresenter { ConfigChangePresenter() }

    /// The environment beats the config: say so when it does.
    static func warnIfOverridden(_ key: ConfigKey, context: Context) {
        let env = context.io.environment
        var variable: String?
        if key.name == "color", let found = ColorMode.fromEnvironment(env) { variable = found.variable }
        if let text = env[key.variable], !text.isEmpty { variable = key.variable }
        if let variable {
            context.diagnostics.warning("\(variable) is set in the environment and takes precedence over the config")
        }
    }
}
