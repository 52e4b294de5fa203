import ShopYCore
/// `shopy widget`: the home-screen widget for status bars and menu bars.
public struct WidgetCommand: ResultCommand {
    public static let nameOption = OptionSpec("name", value: "name", help: "Which widget: independent configurations (default 'default').")
    public static let formatOption = OptionSpec("format", value: "format", help: "plain (default), json, waybar, i3blocks, polybar, tmux or swiftbar.",
                                                choices: WidgetFormat.allCases.map(\.rawValue))
    public static let familyOption = OptionSpec("family", value: "family", help: "small (one line, default) or medium (up to 4 lines).",
                                                choices: WidgetFamily.allCases.map(\.rawValue))

    public static let spec = CommandSpec(
        name: "widget",
        abstract: "Print the widget for a status bar or menu bar (waybar, i3blocks, polybar, tmux, SwiftBar).",
        discussion: "Reads only the store and the widget's timeline, never the network: it prints at once. When the timeline is due (policy atEnd, after DATE, or never = on store changes only), one background 'shopy widget refresh' is started; its errors go to widget.log in the store. 'shopy widget install FORMAT' prints the bar's snippet.",
        options: [formatOption, familyOption, nameOption,
                  OptionSpec("placeholder", help: "Print the placeholder entry (a redacted sample shown before any data)."),
                  OptionSpec("snapshot", help: "Print the gallery sample.")],
        examples: ["shopy widget", "shopy widget --family medium", "shopy widget --format waybar",
                   "shopy widget configure --show status,likes,popular:고양이", "shopy widget install swiftbar > ~/SwiftBar/shopy.5m.sh"])

    public static var subcommands: [any Command.Type] {
        [WidgetOptionsCommand.self, WidgetConfigureCommand.self, WidgetTimelineCommand.self, WidgetRefreshCommand.self,
         WidgetOpenCommand.self, WidgetInstallCommand.self]
    }

    public var format: WidgetFormat
    public var family: WidgetFamily
    public var name: String
    public var sample: WidgetEntry.Kind?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        if let first = parsed.positionals.first {
            let names = Self.subcommands.map { $0.spec.name }
            let hint = Suggest.closest(to: first, among: names).map { "did you mean 'shopy widget \($0)'?" } ?? "subcommands: \(names.joined(separator: ", "))"
            throw UsageError("unknown subcommand 'widget \(Sanitizer.clean(first))'", hint: hint)
        }
        format = try parsed.value("format").map { v throws(UsageError) in try ArgumentParser.choice(v, option: "format", as: WidgetFormat.self, allowed: WidgetFormat.allCases) } ?? .plain
        family = try parsed.value("family").map { v throws(UsageError) in try ArgumentParser.choice(v, option: "family", as: WidgetFamily.self, allowed: WidgetFamily.allCases) } ?? .small
        name = try Self.name(parsed)
        if parsed.flag("placeholder") && parsed.flag("snapshot") { throw UsageError("--placeholder and --snapshot disagree; give one of them") }
        sample = parsed.flag("placeholder") ? .placeholder : (parsed.flag("snapshot") ? .snapshot : nil)
    }

    static func name(_ parsed: ParsedArguments) throws(UsageError) -> String {
        let name = parsed.value("name") ?? WidgetConfiguration.defaultName
        guard WidgetConfiguration.checkName(name) else {
            throw UsageError("invalid --name '\(Sanitizer.clean(name))'", hint: "1 to 32 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        return name
    }

    static func provider(_ context: Context, name: String) -> WidgetProvider {
        WidgetProvider(store: context.store, name: name, environment: context.io.environment)
    }

    /// The entry to show now (or the sample asked for); when due, one background refresh is
    /// started, never waited for.
    public func execute(_ context: Context) async throws -> WidgetState {
        let now = context.io.now()
        switch sample {
        case .placeholder?, .snapshot?:
            let entry = sample == .placeholder ? WidgetEntry.placeholder(at: now) : WidgetEntry.snapshot(at: now)
            return WidgetState(entry: entry, selection: WidgetSelection(shown: [], isDefault: true, overflow: [], missing: []),
                               policy: .atEnd, timeline: nil, due: nil)
        default:
            return WidgetService.show(Self.provider(context, name: name), now: now, starter: DetachedRefreshStarter())
        }
    }

    public var presenter: WidgetPresenter { WidgetPresenter(format: format, family: family, name: name) }
}
