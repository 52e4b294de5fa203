import Foundation
import ShopYCore
import ShopYBase

/// What the widget's commands share, declared once: `--name` (every one of them), the spec of
/// a widget subcommand, the "takes no arguments" rule, and `--policy`.
enum WidgetOptions {
    static let name = Option.value("name", value: "name", help: "Which widget: independent configurations (default 'default').",
                                   type: .string { name, option throws(UsageError) in
                                       guard WidgetConfiguration.checkName(name) else {
                                           throw UsageError("invalid --\(option) '\(Sanitizer.clean(name))'",
                                                            hint: "1 to 32 letters, digits, '-', '_' or '.', not starting with '.'")
                                       }
                                   }, default: WidgetConfiguration.defaultName)

    /// `--policy`: checked when read (atEnd, never, after:DURATION or after:DATE); a duration
    /// counts from the moment the command runs (`at(now)`).
    static let policy = Option.optional("policy", value: "policy", help: "atEnd (default), never, after:15m / after:2h, or after:2026-12-01T18:00:00Z.",
                                        type: ValueType<PolicyRequest> { text, option throws(UsageError) in
                                            guard WidgetPolicy.parse(text, now: Date(timeIntervalSince1970: 0)) != nil else {
                                                // A time of the right shape that names no real moment (2026-02-30, 25:00).
                                                let time = text.utf8.count == 26 && text.utf8.last == UInt8(ascii: "Z")
                                                throw UsageError("invalid --\(option) '\(Sanitizer.clean(text))'" + (time ? ": not a real UTC time" : ""),
                                                                 hint: "atEnd, never, after:15m, after:2h or after:2026-12-01T18:00:00Z")
                                            }
                                            return PolicyRequest(text: text)
                                        })

    /// A `--policy` value that parses; `after:15m` becomes a date only when the command runs.
    struct PolicyRequest: Sendable {
        let text: String
        func at(_ now: Date) -> WidgetPolicy { WidgetPolicy.parse(text, now: now) ?? .atEnd }  // parses: checked when read
    }

    /// The spec of `shopy widget NAME`: `--name` first, then the command's own options.
    static func spec(_ name: String, abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [],
                     options: [OptionSpec] = [], examples: [String]) -> CommandSpec {
        CommandSpec(name: name, abstract: abstract, discussion: discussion, arguments: arguments,
                    options: [Self.name.spec] + options, examples: examples)
    }

    /// `widget NAME takes no arguments` for a subcommand given any.
    static func noArguments(_ parsed: ParsedArguments, command: String, hint: String? = nil) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("widget \(command) takes no arguments", hint: hint) }
    }
}

/// What one widget subcommand without arguments does, whose one flag picks its output or
/// where errors go (`options --json`, `timeline --json`, `refresh --background`). The parsing,
/// the storage and the plumbing are written once, in `WidgetFlagCommand`.
public protocol WidgetFlagAction: Sendable {
    associatedtype Output: Presenter
    static var about: WidgetFlagAbout { get }
    static func execute(name: String, flag: Bool, context: Context) async throws -> Output.Result
    static func presenter(name: String, flag: Bool) -> Output
}

/// The spec of a `WidgetFlagAction` and its one flag, declared together.
public struct WidgetFlagAbout: Sendable {
    public let spec: CommandSpec
    public let flag: Option<Bool>

    init(_ name: String, abstract: String, flag: Option<Bool>, examples: [String]) {
        spec = WidgetOptions.spec(name, abstract: abstract, options: [flag.spec], examples: examples)
        self.flag = flag
    }
}

/// `shopy widget ACTION [--name N] [--FLAG]`: no arguments, which widget, the action's flag.
public struct WidgetFlagCommand<Action: WidgetFlagAction>: ResultCommand {
    public static var spec: CommandSpec { Action.about.spec }

    public var name: String
    public var flag: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        try WidgetOptions.noArguments(parsed, command: Self.spec.name)
        name = try WidgetOptions.name.read(parsed)
        flag = parsed[Action.about.flag]
    }

    public func execute(_ context: Context) async throws -> Action.Output.Result {
        try await Action.execute(name: name, flag: flag, context: context)
    }

    public var presenter: Action.Output { Action.presenter(name: name, flag: flag) }
}
