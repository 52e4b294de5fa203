import ShopYCore
import ShopYBase
/// A small hand-written command-line parser: subcommands, `--opt value` and `--opt=value`,
/// `--` to end options, `-h`/`--help` everywhere, did-you-mean for near misses.

/// One option of a command.
public struct OptionSpec: Sendable {
    /// Long name without the dashes (`sort` for `--sort`).
    public var name: String
    public var short: Character?
    /// The placeholder of the value (`order` for `--sort <order>`); nil for a flag.
    public var valueName: String?
    public var help: String
    public var repeatable: Bool
    /// For did-you-mean on values and for the help text.
    public var choices: [String]
    /// The value of the option given alone, GNU style (`--color` is `--color=always`): then the
    /// next argument is its value only when it is one of `choices`; `--opt=VALUE` always is.
    public var bareValue: String?

    public init(_ name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false,
                choices: [String] = []) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }

    public var isFlag: Bool { valueName == nil }

    var displayName: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += bareValue == nil ? " <\(valueName)>" : "[=<\(valueName)>]" }
        return text
    }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var variadic: Bool
    public var optional: Bool

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.variadic = variadic
        self.optional = optional
    }

    var displayName: String {
        let core = "<\(name)>" + (variadic ? "..." : "")
        return optional ? "[\(core)]" : core
    }
}

/// Everything the parser and the help text need to know about a command.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var examples: [String]
    public var subcommands: [CommandSpec]

    public init(name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
                options: [OptionSpec] = [], examples: [String] = [], subcommands: [CommandSpec] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + CommandSpec.commonOptions
        self.examples = examples
        self.subcommands = subcommands
    }

    /// Options every command takes.
    public static let commonOptions: [OptionSpec] = [GlobalOptions.verbose.spec, GlobalOptions.help.spec, GlobalOptions.quiet.spec, GlobalOptions.color.spec]

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }
}

/// The options every command takes, declared once (the parser adds them to every spec).
public enum GlobalOptions {
    public static let verbose = Option.flag("verbose", short: "v", help: "Trace what shopy does (requests, retries, files) on stderr. Keys are never shown.")
    public static let help = Option.flag("help", short: "h", help: "Show help information.")
    public static let quiet = Option.flag("quiet", short: "q", help: "Leave out notices (which source, what was saved); errors and warnings still print.")
    public static let color = Option.optional("color", value: "when", help: "Colour: auto (default: on a terminal, not with NO_COLOR or TERM=dumb), always or never; --color alone is always.",
                                              type: ValueType<ColorMode>.choice()).bare(ColorMode.always.rawValue)
}

/// What the parser found. Commands read it through their `Option` declarations
/// (`try Self.size.read(parsed)`, `parsed[Self.watch]`).
public struct ParsedArguments: Sendable, Equatable {
    public var positionals: [String] = []
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    /// The options of the command this was parsed for; reading any other one is a programming
    /// error (it traps in debug builds). Nil when built by hand (tests).
    public var declared: Set<String>?

    public init() {}

    public var wantsHelp: Bool { self[GlobalOptions.help] }
    public var verbose: Bool { self[GlobalOptions.verbose] }

    /// Traps (debug builds, so every test) when `name` is not an option of the command.
    func checkDeclared(_ name: String) {
        assert(declared?.contains(name) ?? true, "option --\(name) is read but not declared by the command")
    }
}

public enum ArgumentParser {
    /// Parses the arguments after the command name.
    public static func parse(_ arguments: [String], for spec: CommandSpec, commandPath: String) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        parsed.declared = Set(spec.options.map(\.name))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let option: OptionSpec
            var inlineValue: String?
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let found = spec.option(named: name) else {
                    throw unknownOption("--" + name, spec: spec, commandPath: commandPath)
                }
                option = found
            } else {
                // -h, -v, or a short option with its value attached (-s5) or following.
                let letters = Array(argument.dropFirst())
                guard let first = letters.first, let found = spec.option(short: first) else {
                    if Int(argument) != nil {
                        throw UsageError("unexpected '\(Echo.value(argument))'", hint: "put -- before arguments that start with '-'")
                    }
                    throw unknownOption(argument, spec: spec, commandPath: commandPath)
                }
                option = found
                if letters.count > 1 {
                    if found.isFlag {
                        throw UsageError("unknown option '\(Echo.value(argument))'", hint: "give short options one at a time; see 'shopy help \(commandPath)'")
                    }
                    inlineValue = String(letters.dropFirst())
                }
            }
            if option.isFlag {
                if inlineValue != nil { throw UsageError("option '--\(option.name)' takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let bare = option.bareValue {
                // `--color never` takes the word and `--color 방충망` leaves it to be a
                // positional; a near miss (`--color nevr`) is refused as a mistyped value.
                let next = index < arguments.count ? arguments[index] : nil
                if let next, option.choices.contains(next.lowercased()) {
                    value = next.lowercased()
                    index += 1
                } else if let next, !next.hasPrefix("-"), let near = Suggest.closest(to: next, among: option.choices) {
                    throw UsageError("invalid --\(option.name) '\(Echo.value(next))'; valid values: \(option.choices.joined(separator: ", "))",
                                     hint: "did you mean '\(near)'? (--\(option.name)=\(bare) \(Echo.value(next)) if '\(Echo.value(next))' is not meant for it)")
                } else {
                    value = bare
                }
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                let choices = option.choices.isEmpty ? "" : " (\(option.choices.joined(separator: ", ")))"
                throw UsageError("option '--\(option.name)' needs a value\(choices)", hint: "see 'shopy help \(commandPath)'")
            }
            if parsed.values[option.name] != nil && !option.repeatable {
                throw UsageError("option '--\(option.name)' is given more than once")
            }
            parsed.values[option.name, default: []].append(value)
        }
        // An empty file name ("") would name the current directory: refused here, once, for
        // every command that takes files.
        if spec.arguments.contains(where: { $0.name == "file" }), parsed.positionals.contains("") {
            throw UsageError("the file argument is empty", hint: "name a file, or '-' for standard input or output")
        }
        return parsed
    }

    static func unknownOption(_ text: String, spec: CommandSpec, commandPath: String) -> UsageError {
        let candidates = spec.options.map { "--\($0.name)" }
        if let suggestion = Suggest.closest(to: text, among: candidates) {
            return UsageError("unknown option '\(Echo.value(text))' for 'shopy \(commandPath)'", hint: "did you mean '\(suggestion)'?")
        }
        return UsageError("unknown option '\(Echo.value(text))' for 'shopy \(commandPath)'", hint: "see 'shopy help \(commandPath)'")
    }

    /// Checks a value against a closed set, with did-you-mean.
    /// How a message names what was given: `--size` for an option, `<n>` for an argument
    /// (callers pass an argument's name in angle brackets).
    static func named(_ option: String) -> String { option.hasPrefix("<") ? option : "--" + option }

    public static func choice<T: RawRepresentable>(_ value: String, option: String, as type: T.Type, allowed: [T]) throws(UsageError) -> T where T.RawValue == String {
        if let found = allowed.first(where: { $0.rawValue == value.lowercased() }) { return found }
        let names = allowed.map(\.rawValue)
        let hint = Suggest.closest(to: value, among: names).map { "did you mean '\($0)'?" }
        throw UsageError("invalid \(named(option)) '\(Echo.value(value))'; valid values: \(names.joined(separator: ", "))", hint: hint)
    }

    /// A plain decimal number in `range`: digits with at most one point (`2`, `0.5`, `.5`, `10.`).
    /// No sign, exponent, hexadecimal (`0x10`), `inf` or `nan`, which `Double(String)` would take.
    /// With `aboveLowerBound` the lower bound itself is refused (`--timeout 0`).
    public static func decimal(_ value: String, option: String, in range: ClosedRange<Double>, unit: String,
                               aboveLowerBound: Bool = false) throws(UsageError) -> Double {
        let text = value  // no trimming: ' 2' is refused, as every number is
        let span = aboveLowerBound ? "more than \(format(range.lowerBound)) and at most \(format(range.upperBound))"
                                   : "from \(format(range.lowerBound)) to \(format(range.upperBound))"
        let expected = "expected \(unit) as a decimal number \(span)"
        var digits = 0, points = 0
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { digits += 1 } else if byte == UInt8(ascii: ".") { points += 1 } else { digits = -1; break }
        }
        guard digits > 0, points <= 1, text.utf8.count <= 32, let number = Double(text), number.isFinite else {
            throw UsageError("invalid \(named(option)) '\(Echo.value(value))': \(expected)")
        }
        guard range.contains(number), !(aboveLowerBound && number == range.lowerBound) else {
            throw UsageError("invalid \(named(option)) \(text): \(expected)")
        }
        return number
    }

    static func format(_ value: Double) -> String {
        WholeNumber.text(value)
    }

    /// A whole number in `range`: ASCII digits, nothing around them, so `' 5'` is refused like
    /// `5x`; a sign only where the range has negative numbers (`+5` and `-0` are not sizes).
    public static func integer(_ value: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let number = wholeNumber(value, signed: range.lowerBound < 0) else {
            throw UsageError("invalid \(named(option)) '\(Echo.value(value))': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard range.contains(number) else {
            throw UsageError("invalid \(named(option)) \(number): must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A whole number from `lowerBound` up (`--page`).
    public static func integer(_ value: String, option: String, from lowerBound: Int) throws(UsageError) -> Int {
        guard let number = wholeNumber(value, signed: lowerBound < 0), number >= lowerBound else {
            throw UsageError("invalid \(named(option)) '\(Echo.value(value))': expected a whole number from \(lowerBound)")
        }
        return number
    }

    /// `Int(text)` takes a sign and digits only (no whitespace), and nil past Int's range;
    /// without `signed`, no sign either.
    static func wholeNumber(_ text: String, signed: Bool) -> Int? {
        guard text.utf8.count <= 32, let first = text.utf8.first else { return nil }
        if !signed && (first == UInt8(ascii: "+") || first == UInt8(ascii: "-")) { return nil }
        return Int(text)
    }
}
