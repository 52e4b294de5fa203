import ShopYCore
/// `shopy widget options [--json]`
public struct WidgetOptionsCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
        let options = try WidgetCommand.provider(context, name: name).options()
        let io = context.io
        if json {
            let values: [JSONValue] = options.map { o in
                .object(JSONObject(["id": .string(o.id), "kind": .string(o.kind.rawValue), "title": .string(Sanitizer.clean(o.title)),
                                    "available": .bool(o.available), "reason": .string(orNull: o.reason)]))
            }
            io.stdout.write(bytes: JSONWriter.serialize(.array(values), pretty: true) + [0x0A])
            return .ok
        }
        for o in options {
            let mark = o.available ? " " : "-"
            let reason = o.reason.map { "  (unavailable: \($0))" } ?? ""
            io.stdout.line("\(mark) \(Sanitizer.clean(o.id))\t\(Sanitizer.clean(o.title))\(reason)")
        }
        return .ok
    }
}

/// `shopy widget configure [--show IDS | --reset] [--policy P]`
public struct WidgetConfigureCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
        let io = context.io
        var policy: WidgetPolicy?
        if let policyText {
            guard let parsed = WidgetPolicy.parse(policyText, now: io.now()) else {
                throw UsageError("invalid --policy '\(Sanitizer.clean(policyText))'", hint: "atEnd, never, after:15m, after:2h or after:2026-12-01T18:00:00Z")
            }
            policy = parsed
        }
        let result = try WidgetService.configure(WidgetCommand.provider(context, name: name), show: show, reset: reset, policy: policy)
        let c = result.configuration
        io.stdout.line("widget \(name): " + (c.show.isEmpty ? "the default set" : c.show.map(Sanitizer.clean).joined(separator: ", ")))
        io.stdout.line("shown: " + (result.selection.shown.isEmpty ? "nothing" : result.selection.shown.map { Sanitizer.clean($0.id) }.joined(separator: ", ")))
        if !result.selection.overflow.isEmpty {
            io.stdout.line("note: \(c.show.count) chosen; only the first \(WidgetConfiguration.maxShown) are shown (not shown: \(result.selection.overflow.map(Sanitizer.clean).joined(separator: ", ")))")
        }
        if !result.selection.missing.isEmpty {
            io.stdout.line("note: no longer there, skipped: \(result.selection.missing.map(Sanitizer.clean).joined(separator: ", "))")
        }
        for option in result.unavailable { io.stdout.line("note: \(option.id) is unavailable for now: \(option.reason ?? "")") }
        io.stdout.line("policy: \((c.policy ?? .atEnd).description)")
        return .ok
    }
}

/// `shopy widget timeline [--json]`
public struct WidgetTimelineCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
        let io = context.io
        let state = WidgetCommand.provider(context, name: name).current(now: io.now())
        guard let timeline = state.timeline else {
            if json { io.stdout.line("null") } else { io.stdout.line("widget \(name): no timeline yet (the next 'shopy widget' starts a refresh; or run 'shopy widget refresh')") }
            return .ok
        }
        if json {
            var o = timeline.json.objectValue ?? JSONObject()
            o["due"] = .string(orNull: state.due?.rawValue)
            io.stdout.write(bytes: JSONWriter.serialize(.object(o), pretty: true) + [0x0A])
            return .ok
        }
        io.stdout.line("widget \(name): generated \(WidgetClock.format(timeline.generatedAt)), policy \(timeline.policy.description)"
                       + (state.due.map { ", due: \($0.rawValue)" } ?? ", not due"))
        if let error = timeline.lastError { io.stdout.line("last refresh error: \(error)" + (timeline.retryAt.map { ", next try after \(WidgetClock.format($0))" } ?? "")) }
        let current = timeline.current(at: io.now())
        for entry in timeline.entries {
            let marker = entry == current ? "*" : " "
            io.stdout.line("\(marker) \(WidgetClock.format(entry.date))  " + entry.items.map { Sanitizer.clean($0.short) }.joined(separator: " · "))
        }
        return .ok
    }
}
