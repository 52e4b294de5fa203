import ShopYCore
/// `shopy widget options [--json]`
public struct WidgetOptionsCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "options", abstract: "List what a widget can show, from what exists now (id, title, available).",
        options: [WidgetCommand.nameOption, OptionSpec("json", help: "JSON: [{id, kind, title, available, reason}].")],
        examples: ["shopy widget options", "shopy widget options --json | jq -r '.[].id'"])

    public var json: Bool
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("widget options takes no arguments") }
        json = parsed.flag("json")
        name = try WidgetCommand.name(parsed)
    }

    public func execute(_ context: Context) async throws -> [WidgetOption] {
        try WidgetCommand.provider(context, name: name).options()
    }

    public var presenter: WidgetOptionsPresenter { WidgetOptionsPresenter(json: json) }
}

/// `shopy widget configure [--show IDS | --reset] [--policy P]`
public struct WidgetConfigureCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "configure", abstract: "Choose what a widget shows (ids from 'shopy widget options', in order), or print the configuration.",
        discussion: "At most \(WidgetConfiguration.maxShown) items are shown; more may be chosen (the first \(WidgetConfiguration.maxShown) are shown). Nothing chosen: status, likes, the first popular section, and price drops when available.",
        options: [WidgetCommand.nameOption,
                  OptionSpec("show", value: "ids", help: "Comma-separated option ids, in the order to show them (repeatable).", repeatable: true),
                  OptionSpec("reset", help: "Back to the default set (and policy)."),
                  OptionSpec("policy", value: "policy", help: "atEnd (default), never, after:15m / after:2h, or after:2026-12-01T18:00:00Z.")],
        examples: ["shopy widget configure", "shopy widget configure --show status,likes,popular:고양이",
                   "shopy widget configure --name bar2 --show history:방충망 --policy never", "shopy widget configure --reset"])

    public var name: String
    public var show: [String]?
    public var reset: Bool
    public var policyText: String?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("widget configure takes no arguments", hint: "choose with --show, e.g. shopy widget configure --show status,likes")
        }
        name = try WidgetCommand.name(parsed)
        let ids = parsed.all("show").flatMap { $0.split(separator: ",").map { String($0).trimmingASCIIWhitespace() } }.filter { !$0.isEmpty }
        if parsed.has("show") && ids.isEmpty { throw UsageError("--show needs option ids", hint: "'shopy widget options' lists them") }
        show = parsed.has("show") ? ids : nil
        reset = parsed.flag("reset")
        if reset && show != nil { throw UsageError("--reset and --show disagree; give one of them") }
        policyText = parsed.value("policy")
    }

    /// Checks the policy (`after:15m` counts from now), then changes or reads the configuration.
    public func execute(_ context: Context) async throws -> WidgetService.ConfigureResult {
        var policy: WidgetPolicy?
        if let policyText {
            guard let parsed = WidgetPolicy.parse(policyText, now: context.io.now()) else {
                throw UsageError("invalid --policy '\(Sanitizer.clean(policyText))'", hint: "atEnd, never, after:15m, after:2h or after:2026-12-01T18:00:00Z")
            }
            policy = parsed
        }
        return try WidgetService.configure(WidgetCommand.provider(context, name: name), show: show, reset: reset, policy: policy)
    }

    public var presenter: WidgetConfigurePresenter { WidgetConfigurePresenter(name: name) }
}

/// `shopy widget timeline [--json]`
public struct WidgetTimelineCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "timeline", abstract: "List the timeline's entries, their dates and the policy.",
        options: [WidgetCommand.nameOption, OptionSpec("json", help: "The timeline file's content.")],
        examples: ["shopy widget timeline", "shopy widget timeline --json"])

    public var json: Bool
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("widget timeline takes no arguments") }
        json = parsed.flag("json")
        name = try WidgetCommand.name(parsed)
    }

    public func execute(_ context: Context) async throws -> WidgetTimelineReport {
        let now = context.io.now()
        return WidgetTimelineReport(name: name, state: WidgetCommand.provider(context, name: name).current(now: now), now: now)
    }

    public var presenter: WidgetTimelinePresenter { WidgetTimelinePresenter(json: json) }
}
