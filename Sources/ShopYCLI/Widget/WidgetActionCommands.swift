import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shopy widget refresh`: fetch what the shown items need and rewrite the timeline.
public struct WidgetRefreshCommand: Command {
    public static let spec = CommandSpec(
        name: "refresh", abstract: "Refresh the widget's timeline now (what a due 'shopy widget' starts in the background).",
        options: [WidgetCommand.nameOption, OptionSpec("background", help: "Started by 'shopy widget': errors go to widget.log only.")],
        examples: ["shopy widget refresh", "shopy widget refresh --name bar2"])

    public var name: String
    public var background: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("widget refresh takes no arguments") }
        name = try WidgetCommand.name(parsed)
        background = parsed.flag("background")
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let io = context.io
        let provider = WidgetCommand.provider(context, name: name)
        let directory = provider.store.directory
        try FileIO.ensureDirectory(directory)
        var quiet = context
        quiet.io.quiet = true  // the catalog notice is not for a bar
        guard let lock = WidgetRefreshLock.inherited(environment: io.environment, directory: directory) ?? WidgetRefreshLock.tryLock(directory: directory) else {
            if !background { io.stdout.line("widget \(name): a refresh is already running") }
            return .ok
        }
        defer { close(lock) }
        WidgetLog.append(directory: directory, "refresh \(name): started", now: io.now())
        do {
            let report = try await WidgetRefresher.refresh(provider, context: quiet)
            let failed = report.failures.map { "\($0.id) \($0.errorClass)" }.joined(separator: ", ")
            WidgetLog.append(directory: directory, "refresh \(name): done, \(report.requests) request\(report.requests == 1 ? "" : "s")"
                             + (failed.isEmpty ? "" : "; failed: \(failed)"), now: io.now())
            if !background {
                io.stdout.line("widget \(name): refreshed, \(report.requests) request\(report.requests == 1 ? "" : "s")" + (failed.isEmpty ? "" : "; failed: \(failed)"))
            }
            return .ok
        } catch {
            WidgetLog.append(directory: directory, "refresh \(name): failed: \(WidgetErrors.errorClass(error))", now: io.now())
            if background { return .failure }
            throw error
        }
    }
}

/// `shopy widget open N`
public struct WidgetOpenCommand: Command {
    public static let spec = CommandSpec(
        name: "open", abstract: "Open the link of the Nth shown item (for a bar's click action).",
        arguments: [ArgumentSpec("n", help: "The item's position, from 1.")],
        options: [WidgetCommand.nameOption], examples: ["shopy widget open 1"])

    public var n: Int
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else { throw UsageError("widget open takes one item number", hint: "e.g. shopy widget open 1") }
        n = try ArgumentParser.integer(parsed.positionals[0], option: "n", in: 1...WidgetConfiguration.maxShown)
        name = try WidgetCommand.name(parsed)
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let link = try WidgetService.link(ofItem: n, WidgetCommand.provider(context, name: name), now: context.io.now())
        return LinkOpening.open(link, context: context)
    }
}

/// `shopy widget install FORMAT`
public struct WidgetInstallCommand: Command {
    public static let spec = CommandSpec(
        name: "install", abstract: "Print the bar's snippet or plugin script, with this shopy's path filled in.",
        arguments: [ArgumentSpec("bar", help: "waybar, i3blocks, polybar, tmux or swiftbar.")],
        options: [WidgetCommand.nameOption],
        examples: ["shopy widget install waybar", "shopy widget install swiftbar > ~/SwiftBar/shopy.5m.sh && chmod +x ~/SwiftBar/shopy.5m.sh"])

    public var bar: WidgetInstall.Bar
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else {
            throw UsageError("widget install takes one bar", hint: "one of: \(WidgetInstall.Bar.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        bar = try ArgumentParser.choice(parsed.positionals[0], option: "bar", as: WidgetInstall.Bar.self, allowed: WidgetInstall.Bar.allCases)
        name = try WidgetCommand.name(parsed)
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let executable = DetachedRefreshStarter.executable() ?? "shopy"
        context.io.stdout.write(WidgetInstall.snippet(bar, executable: executable, name: name,
                                                      home: FileIO.home(environment: context.io.environment)))
        return .ok
    }
}
