import ShopYCore
/// `shopy widget options [--json]`
public typealias WidgetOptionsCommand = WidgetFlagCommand<WidgetOptionsAction>

public enum WidgetOptionsAction: WidgetFlagAction {
    public static let about = WidgetFlagAbout("options", abstract: "List what a widget can show, from what exists now (id, title, available).",
                                              flag: Option.flag("json", help: "JSON: [{id, kind, title, available, reason}]."),
                                              examples: ["shopy widget options", "shopy widget options --json | jq -r '.[].id'"])

    public static func execute(name: String, flag: Bool, context: Context) async throws -> [WidgetOption] {
        try WidgetCommand.provider(context, name: name).options()
    }

    public static func presenter(name: String, flag json: Bool) -> WidgetOptionsPresenter { WidgetOptionsPresenter(json: json) }
}

/// `shopy widget configure [--show IDS | --reset] [--policy P]`
public struct WidgetConfigureCommand: ResultCommand {
    static let showOption = Option.list("show", value: "ids", help: "Comma-separated option ids, in the order to show them (repeatable); a comma inside an id is written \\, (as 'widget options' prints it).",
                                        type: ValueType<[String]> { text, _ in ids(text) })

    /// `--show`'s ids: split at each comma not written `\,` (a history query may hold one);
    /// `\\` is a backslash.
    static func ids(_ text: String) -> [String] {
        var ids: [String] = [], current = ""
        var escaped = false
        for c in text {
            if escaped {
                if c != "," && c != "\\" { current.append("\\") }
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                ids.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        ids.append(current)
        return ids.map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    }

    /// An id as `--show` takes it back (`\,` for a comma, `\\` for a backslash).
    static func typed(_ id: String) -> String {
        id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
    }

    static let resetOption = Option.flag("reset", help: "Back to the default set (and policy).")

    public static let spec = WidgetOptions.spec(
        "configure", abstract: "Choose what a widget shows (ids from 'shopy widget options', in order), or print the configuration.",
        discussion: "At most \(WidgetConfiguration.maxShown) items are shown; more may be chosen (the first \(WidgetConfiguration.maxShown) are shown). Nothing chosen: status, likes, the first popular section, and price drops when available.",
        options: [showOption.spec, resetOption.spec, WidgetOptions.policy.spec],
        examples: ["shopy widget configure", "shopy widget configure --show status,likes,popular:고양이",
                   "shopy widget configure --name bar2 --show history:방충망 --policy never", "shopy widget configure --reset"])

    public var name: String
    public var show: [String]?
    public var reset: Bool
    var policy: WidgetOptions.PolicyRequest?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        try WidgetOptions.noArguments(parsed, command: "configure", hint: "choose with --show, e.g. shopy widget configure --show status,likes")
        name = try WidgetOptions.name.read(parsed)
        let ids = try Self.showOption.read(parsed).flatMap { $0 }
        let given = Self.showOption.isGiven(parsed)
        if given && ids.isEmpty { throw UsageError("--show needs option ids", hint: "'shopy widget options' lists them") }
        show = given ? ids : nil
        reset = parsed[Self.resetOption]
        if reset && show != nil { throw UsageError("--reset and --show disagree; give one of them") }
        policy = try WidgetOptions.policy.read(parsed)
    }

    /// Changes or reads the configuration; `after:15m` counts from now.
    public func execute(_ context: Context) async throws -> WidgetService.ConfigureResult {
        try WidgetService.configure(WidgetCommand.provider(context, name: name), show: show, reset: reset, policy: policy?.at(context.io.now()))
    }

    public var presenter: WidgetConfigurePresenter { WidgetConfigurePresenter(name: name) }
}

/// `shopy widget timeline [--json]`
public typealias WidgetTimelineCommand = WidgetFlagCommand<WidgetTimelineAction>

public enum WidgetTimelineAction: WidgetFlagAction {
    public static let about = WidgetFlagAbout("timeline", abstract: "List the timeline's entries, their dates and the policy.",
                                              flag: Option.flag("json", help: "The timeline file's content."),
                                              examples: ["shopy widget timeline", "shopy widget timeline --json"])

    public static func execute(name: String, flag: Bool, context: Context) async throws -> WidgetTimelineReport {
        let now = context.io.now()
        return WidgetTimelineReport(name: name, state: WidgetCommand.provider(context, name: name).current(now: now), now: now)
    }

    public static func presenter(name: String, flag json: Bool) -> WidgetTimelinePresenter { WidgetTimelinePresenter(json: json) }
}
