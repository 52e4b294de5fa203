import ShopYCore
import ShopYBase
/// The settings `shopy config` manages: each one's name, what it accepts, the environment
/// variable that overrides it and the command options it is the default of.
public struct ConfigKey: Sendable {
    public var name: String
    public var help: String
    /// The accepted values, as listed to the user (`naver, catalog`, `1 to 100`).
    public var accepts: String
    /// The environment variable that beats the stored value.
    public var variable: String
    /// The command option whose default this is (`--size`); nil for `quiet`, `color`, which every command takes.
    public var option: String
    /// The commands (their paths, e.g. `search`) whose option this sets; empty: every command.
    public var commands: [String]
    /// The built-in default as shown, when it does not depend on the situation.
    public var builtIn: String
    /// A closed set of values, for completion and the man page.
    public var choices: [String]
    /// Checks a value; returns its normal form (`yes` → `true`) or nil when it is not accepted.
    let normalize: @Sendable (String) -> String?

    public func validate(_ value: String, origin: String) throws(UsageError) -> String {
        guard let normal = normalize(value.trimmingASCIIWhitespace()) else {
            throw UsageError("invalid \(origin) '\(Echo.value(value))' for \(name); valid values: \(accepts)",
                             hint: Suggest.closest(to: value, among: choices).map { "did you mean '\($0)'?" })
        }
        return normal
    }

    /// Every key, in the order `config list` shows them.
    public static let all: [ConfigKey] = [
        ConfigKey(name: "source", help: "Where products come from.", accepts: "naver, 11st, coupang, catalog, a comma list of them, or all",
                  variable: "SHOPY_SOURCE", option: "source", commands: ["search", "popular", "rank", "likes refresh", "browse"],
                  builtIn: "every live source whose keys are set, else catalog", choices: SourceSelection.words,
                  normalize: { text in if case .success(let selection) = SourceSelection.parse(text) { return selection.text } else { return nil } }),
        ConfigKey(name: "size", help: "Results a page (search) or items a section (popular).", accepts: "a whole number from 1 to \(SearchRequest.maxDisplay)",
                  variable: "SHOPY_SIZE", option: "size", commands: ["search", "popular"], builtIn: "20 (popular: 10)", choices: [],
                  normalize: { ArgumentParser.wholeNumber($0, signed: false).flatMap { (1...SearchRequest.maxDisplay).contains($0) ? String($0) : nil } }),
        choice("sort", SortOrder.allCases.map(\.rawValue), help: "The order of search results.", commands: ["search"], builtIn: "sim"),
        choice("format", OutputFormat.allCases.map(\.rawValue), help: "The output format of listings.",
               commands: ["search", "popular", "rank", "likes", "history", "trends"], builtIn: "table on a terminal, else tsv"),
        choice("color", ColorMode.allCases.map(\.rawValue), help: "Colour: auto (on a terminal), always or never.", commands: [], builtIn: "auto"),
        ConfigKey(name: "quiet", help: "Leave out notices (errors and warnings still print).", accepts: "true or false (also yes/no, on/off, 1/0)",
                  variable: "SHOPY_QUIET", option: "quiet", commands: [], builtIn: "false", choices: ["true", "false"],
                  normalize: ConfigKey.boolean),
        ConfigKey(name: "rate", help: "Requests a second in rank scans.",
                  accepts: "a decimal number from \(ArgumentParser.format(RateLimiter.rates.lowerBound)) to \(ArgumentParser.format(RateLimiter.rates.upperBound))",
                  variable: "SHOPY_RATE", option: "rate", commands: ["rank"], builtIn: "8", choices: [],
                  normalize: { text in
                      (try? ArgumentParser.decimal(text, option: "rate", in: RateLimiter.rates, unit: "requests a second")).map(ConfigKey.plain)
                  }),
        ConfigKey(name: "timeout", help: "Seconds before a search, popular, rank, trends or browse request gives up.", accepts: "seconds, more than 0 and at most 3600",
                  variable: "SHOPY_TIMEOUT", option: "timeout", commands: ["search", "popular", "rank", "trends", "browse"], builtIn: "10", choices: [],
                  normalize: { text in
                      (try? ArgumentParser.decimal(text, option: "timeout", in: 0...3600, unit: "seconds", aboveLowerBound: true)).map(ConfigKey.plain)
                  }),
        choice("images", ImagesMode.allCases.map(\.rawValue), help: "How pictures are drawn in show and browse.",
               commands: ["show", "browse"], builtIn: "auto"),
        ConfigKey(name: "coupang-per-hour", help: "Requests to Coupang a key may send in a rolling hour (Coupang blocks a key for 24 hours after one violation of its limit).",
                  accepts: "a whole number from \(CoupangClient.budgets.lowerBound) to \(CoupangClient.budgets.upperBound)",
                  variable: "SHOPY_COUPANG_PER_HOUR", option: "coupang-per-hour", commands: [], builtIn: "\(CoupangClient.defaultBudget)", choices: [],
                  normalize: { ArgumentParser.wholeNumber($0, signed: false).flatMap { CoupangClient.budgets.contains($0) ? String($0) : nil } }),
        ConfigKey(name: "catalog.record", help: "Add the items the naver source lists to the local catalog.", accepts: "true or false (also yes/no, on/off, 1/0)",
                  variable: "SHOPY_CATALOG_RECORD", option: "catalog-record", commands: ["search", "popular", "rank"], builtIn: "false",
                  choices: ["true", "false"], normalize: ConfigKey.boolean),
    ]

    public static var names: [String] { all.map(\.name) }

    public static func named(_ name: String) throws(UsageError) -> ConfigKey {
        if let key = all.first(where: { $0.name == name.lowercased() }) { return key }
        let hint = Suggest.closest(to: name, among: names).map { "did you mean '\($0)'?" }
        throw UsageError("unknown config key '\(Echo.value(name))'; valid keys: \(names.joined(separator: ", "))", hint: hint)
    }

    static func choice(_ name: String, _ values: [String], help: String, commands: [String], builtIn: String) -> ConfigKey {
        ConfigKey(name: name, help: help, accepts: values.joined(separator: ", "), variable: "SHOPY_" + name.uppercased(), option: name,
                  commands: commands, builtIn: builtIn, choices: values,
                  normalize: { value in values.first { $0 == value.lowercased() } })
    }

    static func boolean(_ text: String) -> String? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return "true"
        case "false", "no", "off", "0": return "false"
        default: return nil
        }
    }

    /// A checked number as stored and passed on: `8`, `2.5`.
    static func plain(_ value: Double) -> String {
        WholeNumber.text(value)
    }

    /// Whether this key sets an option of the command at `path`: a key of `trends` reaches
    /// `trends keywords` too (when that subcommand takes the option).
    func applies(to path: String) -> Bool {
        guard !commands.isEmpty else { return true }
        let words = path.split(separator: " ")
        return (1...max(words.count, 1)).contains { commands.contains(words.prefix($0).joined(separator: " ")) }
    }
}

/// `--color`.
public enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, never

    /// What the colour environment variables ask for, strongest first: NO_COLOR (set at all),
    /// CLICOLOR_FORCE (set and not 0), CLICOLOR=0; then SHOPY_COLOR. Nil: they say nothing.
    public static func fromEnvironment(_ environment: [String: String]) -> (mode: ColorMode, variable: String)? {
        if environment["NO_COLOR"] != nil { return (.never, "NO_COLOR") }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return (.always, "CLICOLOR_FORCE") }
        if environment["CLICOLOR"] == "0" { return (.never, "CLICOLOR") }
        if let text = environment["SHOPY_COLOR"], let mode = ColorMode(rawValue: text.lowercased().trimmingASCIIWhitespace()) {
            return (mode, "SHOPY_COLOR")
        }
        return nil
    }
}
