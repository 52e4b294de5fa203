import ShopYCore
import ShopYBase
/// Typed options: each option of a command is one `Option` value, declared once (name, short
/// letter, placeholder, help, value type, default, validation, repeatable) and read through that
/// declaration, never by its name as a string:
///
///     static let size = Option.value("size", value: "n", help: "Results a page.", type: .integer(1...100), default: 20)
///     static let spec = CommandSpec(name: "search", abstract: "…", options: [size.spec])
///     init(_ parsed: ParsedArguments) throws(UsageError) { size = try Self.size.read(parsed) }
///
/// A bad value is a `UsageError` with the standard one-line message (exit 64). Reading an
/// option the command did not declare traps in debug builds (the tests), so a typo cannot be
/// a silent nil.

/// How the text of an option's value becomes a typed value: a parser and the closed set of
/// values, if any (for did-you-mean, help and completions).
public struct ValueType<Value: Sendable>: Sendable {
    /// (text, option name) → value, or the standard usage error.
    let parse: @Sendable (String, String) throws(UsageError) -> Value
    public let choices: [String]

    public init(choices: [String] = [], parse: @escaping @Sendable (String, String) throws(UsageError) -> Value) {
        self.parse = parse
        self.choices = choices
    }

    /// The same type with a check after parsing: `check` throws the usage error for a value
    /// that parses but is not accepted.
    public func checked(_ check: @escaping @Sendable (Value, String) throws(UsageError) -> Void) -> ValueType<Value> {
        let parse = self.parse
        return ValueType(choices: choices) { text, option throws(UsageError) in
            let value = try parse(text, option)
            try check(value, option)
            return value
        }
    }
}

extension ValueType where Value == Int {
    /// A whole number in `range`, digits only (no spaces, no sign unless the range is negative).
    public static func integer(_ range: ClosedRange<Int>) -> ValueType<Int> {
        ValueType { text, option throws(UsageError) in try ArgumentParser.integer(text, option: option, in: range) }
    }

    /// A whole number from `lowerBound` up (`--page`).
    public static func integer(from lowerBound: Int) -> ValueType<Int> {
        ValueType { text, option throws(UsageError) in try ArgumentParser.integer(text, option: option, from: lowerBound) }
    }
}

extension ValueType where Value == Double {
    /// A plain decimal number in `range` (see `ArgumentParser.decimal`).
    public static func decimal(_ range: ClosedRange<Double>, unit: String, aboveLowerBound: Bool = false) -> ValueType<Double> {
        ValueType { text, option throws(UsageError) in
            try ArgumentParser.decimal(text, option: option, in: range, unit: unit, aboveLowerBound: aboveLowerBound)
        }
    }
}

extension ValueType where Value == String {
    /// Text as given; `check` may refuse it.
    public static func string(_ check: (@Sendable (String, String) throws(UsageError) -> Void)? = nil) -> ValueType<String> {
        ValueType { text, option throws(UsageError) in
            try check?(text, option)
            return text
        }
    }
}

extension ValueType where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the enum's cases, or of `allowed` (did-you-mean for a near miss).
    public static func choice(_ allowed: [Value] = Array(Value.allCases)) -> ValueType<Value> {
        ValueType(choices: allowed.map(\.rawValue)) { text, option throws(UsageError) in
            try ArgumentParser.choice(text, option: option, as: Value.self, allowed: allowed)
        }
    }
}

extension ValueType where Value == SourceSelection {
    /// `--source`: a source, a comma list of them, or `all` (did-you-mean for a near miss).
    public static var sources: ValueType<SourceSelection> {
        ValueType(choices: SourceSelection.words) { text, option throws(UsageError) in
            switch SourceSelection.parse(text) {
            case .success(let selection): return selection
            case .failure(let problem):
                let why = problem.unknownWord == nil || text.contains(",") ? " (\(problem.sentence))" : ""
                throw UsageError("invalid --\(option) '\(Echo.value(text))'\(why); valid values: \(SourceSelection.words.joined(separator: ", ")), or a comma list of sources",
                                 hint: problem.unknownWord.flatMap { Suggest.closest(to: $0, among: SourceSelection.words) }.map { "did you mean '\($0)'?" })
            }
        }
    }
}

/// One declared option, and how to read it from what the parser found.
public struct Option<Value: Sendable>: Sendable {
    /// What the parser, help, the man page and completions see.
    public let spec: OptionSpec
    let reader: @Sendable (ParsedArguments, OptionSpec) throws(UsageError) -> Value

    init(spec: OptionSpec, reader: @escaping @Sendable (ParsedArguments, OptionSpec) throws(UsageError) -> Value) {
        self.spec = spec
        self.reader = reader
    }

    public var name: String { spec.name }

    /// The typed value (the default when not given), or the usage error for a bad one.
    public func read(_ parsed: ParsedArguments) throws(UsageError) -> Value {
        parsed.checkDeclared(spec.name)
        return try reader(parsed, spec)
    }

    /// Whether the command line (or a default from the environment or config) gave the option.
    public func isGiven(_ parsed: ParsedArguments) -> Bool {
        parsed.checkDeclared(spec.name)
        return parsed.flags.contains(spec.name) || parsed.values[spec.name] != nil
    }
}

extension Option where Value == Bool {
    /// A flag: true when given.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> Option<Bool> {
        Option(spec: OptionSpec(name, short: short, help: help)) { parsed, spec in parsed.flags.contains(spec.name) }
    }
}

extension ParsedArguments {
    /// A flag's value, for the flags that cannot fail: `parsed[Self.watch]`.
    public subscript(option: Option<Bool>) -> Bool {
        checkDeclared(option.name)
        return flags.contains(option.name)
    }
}

extension Option {
    /// An option with a value and a default: `--size 5`, else `default`.
    public static func value(_ name: String, short: Character? = nil, value placeholder: String, help: String,
                             type: ValueType<Value>, default defaultValue: Value) -> Option<Value> {
        Option(spec: OptionSpec(name, short: short, value: placeholder, help: help, choices: type.choices)) { parsed, spec throws(UsageError) in
            guard let text = parsed.values[spec.name]?.last else { return defaultValue }
            return try type.parse(text, spec.name)
        }
    }

    /// An option with a value and no default: nil when not given.
    public static func optional<Wrapped>(_ name: String, short: Character? = nil, value placeholder: String, help: String,
                                         type: ValueType<Wrapped>) -> Option<Wrapped?> where Value == Wrapped? {
        Option<Wrapped?>(spec: OptionSpec(name, short: short, value: placeholder, help: help, choices: type.choices)) { parsed, spec throws(UsageError) in
            guard let text = parsed.values[spec.name]?.last else { return nil }
            return try type.parse(text, spec.name)
        }
    }

    /// A repeatable option: every value, in order (empty when not given).
    public static func list<Element>(_ name: String, short: Character? = nil, value placeholder: String, help: String,
                                     type: ValueType<Element>) -> Option<[Element]> where Value == [Element] {
        Option<[Element]>(spec: OptionSpec(name, short: short, value: placeholder, help: help, repeatable: true, choices: type.choices)) {
            parsed, spec throws(UsageError) in
            var out: [Element] = []
            for text in parsed.values[spec.name] ?? [] { out.append(try type.parse(text, spec.name)) }
            return out
        }
    }

    /// The same option with another help text (a shared option whose meaning differs a little).
    public func withHelp(_ help: String) -> Option<Value> {
        var spec = self.spec
        spec.help = help
        return Option(spec: spec, reader: reader)
    }

    /// The same option taking `value` when given alone (`--color` for `--color=always`).
    public func bare(_ value: String) -> Option<Value> {
        var spec = self.spec
        spec.bareValue = value
        return Option(spec: spec, reader: reader)
    }
}
