import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// `shopy widget refresh`: fetch what the shown items need and rewrite the timeline.
public typealias WidgetRefreshCommand = WidgetFlagCommand<WidgetRefreshAction>

public enum WidgetRefreshAction: WidgetFlagAction {
    public static let about = WidgetFlagAbout("refresh", abstract: "Refresh the widget's timeline now (what a due 'shopy widget' starts in the background).",
                                              flag: Option.flag("background", help: "Started by 'shopy widget': errors go to widget.log only."),
                                              examples: ["shopy widget refresh", "shopy widget refresh --name bar2"])

    /// What a refresh did: nothing (another one holds the lock), the report, or (in the
    /// background) a failure already written to widget.log.
    public enum Outcome: Sendable {
        case alreadyRunning
        case refreshed(WidgetRefreshReport)
        case failedInBackground
    }

    /// `background`: a failure is written to widget.log only.
    public static func execute(name: String, flag background: Bool, context: Context) async throws -> Outcome {
        let io = context.io
        let provider = WidgetCommand.provider(context, name: name)
        let directory = provider.store.directory
        try FileIO.ensureDirectory(directory)
        var quiet = context
        quiet.io.quiet = true  // the catalog notice is not for a bar
        guard let lock = WidgetRefreshLock.inherited(environment: io.environment, directory: directory) ?? WidgetRefreshLock.tryLock(directory: directory) else {
            return .alreadyRunning
        }
        defer { close(lock) }
        let started = io.now()
        WidgetLog.append(directory: directory, "refresh \(name): started", now: started)
        do {
            let report = try await WidgetRefresher.refresh(provider, context: quiet)
            WidgetLog.append(directory: directory, "refresh \(name): done, " + report.summary, now: io.now())
            return .refreshed(report)
        } catch {
            // Recorded, so that `shopy widget` waits before starting the next one and
            // `widget timeline` can say why.
            let errorClass = WidgetErrors.errorClass(error)
            WidgetRefreshAttempt(startedAt: started, failure: errorClass).save(directory: directory, name: name)
            WidgetLog.append(directory: directory, "refresh \(name): failed: \(errorClass)", now: io.now())
            if background { return .failedInBackground }
            throw error
        }
    }

    public static func presenter(name: String, flag background: Bool) -> WidgetRefreshPresenter {
        WidgetRefreshPresenter(name: name, background: background)
    }
}

/// `shopy widget open [N]`
public struct WidgetOpenCommand: ResultCommand {
    public static let spec = WidgetOptions.spec(
        "open", abstract: "Open the link of the Nth shown item, or of the first one that has a link (a bar's click action).",
        arguments: [ArgumentSpec("n", help: "The item's position, from 1; without it, the first shown item with a link.", optional: true)],
        examples: ["shopy widget open", "shopy widget open 3"])

    /// Nil: the first shown item that has a link.
    public var n: Int?
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else { throw UsageError("widget open takes at most one item number", hint: "e.g. shopy widget open 3") }
        n = try parsed.positionals.first.map { p throws(UsageError) in try ArgumentParser.integer(p, option: "<n>", in: 1...WidgetConfiguration.maxShown) }
        name = try WidgetOptions.name.read(parsed)
    }

    /// The chosen item's checked link, handed to the first opener that takes it.
    public func execute(_ context: Context) async throws -> LinkOpening.Outcome {
        let link = try WidgetService.link(ofItem: n, WidgetCommand.provider(context, name: name), now: context.io.now())
        return LinkOpening.open(link, context: context)
    }

    public var presenter: LinkOpeningPresenter { LinkOpeningPresenter() }
}

/// `shopy widget install FORMAT`
public struct WidgetInstallCommand: ResultCommand {
    public static let spec = WidgetOptions.spec(
        "install", abstract: "Print the bar's snippet or plugin script, with this shopy's path filled in.",
        arguments: [ArgumentSpec("bar", help: "waybar, i3blocks, polybar, tmux or swiftbar.")],
        examples: ["shopy widget install waybar", "shopy widget install swiftbar > ~/SwiftBar/shopy.5m.sh && chmod +x ~/SwiftBar/shopy.5m.sh"])

    public var bar: WidgetInstall.Bar
    public var name: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else {
            throw UsageError("widget install takes one bar", hint: "one of: \(WidgetInstall.Bar.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        bar = try ArgumentParser.choice(parsed.positionals[0], option: "<bar>", as: WidgetInstall.Bar.self, allowed: WidgetInstall.Bar.allCases)
        name = try WidgetOptions.name.read(parsed)
    }

    /// The snippet, with this executable's path filled in, and SHOPY_HOME when it is set.
    public func execute(_ context: Context) async throws -> String {
        let store = context.io.environment["SHOPY_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        return try WidgetInstall.snippet(bar, target: WidgetInstall.Target(executable: DetachedRefreshStarter.executable() ?? "shopy",
                                                                           name: name, storeVariable: store))
    }

    public var presenter: WidgetTextPresenter { WidgetTextPresenter() }
}
