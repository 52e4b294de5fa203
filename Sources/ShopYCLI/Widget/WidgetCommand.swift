import ShopYCore
/// `shopy widget`: the home-screen widget for status bars and menu bars.
public struct WidgetCommand: ResultCommand {
    /// Every bar format the presenter writes; `--format json` has no `--json` here.
    static let formats = FormatOptions(accepting: WidgetFormat.allCases, notes: [.plain: "default"], lead: "", jsonFlag: false)
    static let family = Option.value("family", value: "family", help: "small (one line, default) or medium (up to 4 lines).",
                                     type: ValueType<WidgetFamily>.choice(), default: .small)
    static let placeholder = Option.flag("placeholder", help: "Print the placeholder entry (a redacted sample shown before any data).")
    static let snapshot = Option.flag("snapshot", help: "Print the gallery sample.")

    public static let spec = CommandSpec(
        name: "widget",
        abstract: "Print the widget for a status bar or menu bar (waybar, i3blocks, polybar, tmux, SwiftBar).",
        discussion: "Reads only the store and the widget's timeline, never the network: it prints at once. When the timeline is due (policy atEnd, after DATE, or never = on store changes only), one background 'shopy widget refresh' is started; its errors go to widget.log in the store. 'shopy widget install FORMAT' prints the bar's snippet.",
        options: formats.specs + [family.spec, WidgetOptions.name.spec, placeholder.spec, snapshot.spec],
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

    /// (A mistyped subcommand never gets here: the dispatcher refuses it, with did-you-mean.)
    public init(_ parsed: ParsedArguments) throws(UsageError) {
        format = try Self.formats.read(parsed) ?? .plain
        family = try Self.family.read(parsed)
        name = try WidgetOptions.name.read(parsed)
        let placeholder = parsed[Self.placeholder], snapshot = parsed[Self.snapshot]
        if placeholder && snapshot { throw UsageError("--placeholder and --snapshot disagree; give one of them") }
        sample = placeholder ? .placeholder : (snapshot ? .snapshot : nil)
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
