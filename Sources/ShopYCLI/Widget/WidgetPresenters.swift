import Foundation
import ShopYCore
import ShopYBase

/// `shopy widget`: the entry in the bar's format. Bars that draw their own colours (tmux,
/// i3blocks, SwiftBar, waybar) get them whether or not stdout is a terminal; NO_COLOR still wins.
public struct WidgetPresenter: Presenter {
    public var format: WidgetFormat
    public var family: WidgetFamily
    public var name: String

    public func present(_ state: WidgetState, context: Context) -> ExitCode {
        let io = context.io
        let color: Bool
        switch format {
        case .polybar, .plain, .json: color = io.useColor
        case .tmux, .i3blocks, .swiftbar, .waybar: color = io.colorEnabled(terminal: true)
        }
        io.stdout.write(format.encoder.encode(WidgetRendering(state: state, family: family, color: color, name: name)))
        return .ok
    }
}

/// `widget options`: one line an option (`-` when unavailable, with the reason), or JSON.
public struct WidgetOptionsPresenter: Presenter {
    public var json: Bool

    public func present(_ options: [WidgetOption], context: Context) -> ExitCode {
        let io = context.io
        if json {
            io.writeJSON(.array(options.map { o in
                .object(JSONObject(["id": .string(o.id), "kind": .string(o.kind.rawValue), "title": .string(Sanitizer.clean(o.title)),
                                    "available": .bool(o.available), "reason": .string(orNull: o.reason)]))
            }))
            return .ok
        }
        for o in options {
            let mark = o.available ? " " : "-"
            let reason = o.reason.map { "  (unavailable: \($0))" } ?? ""
            io.stdout.line("\(mark) \(Sanitizer.clean(WidgetConfigureCommand.typed(o.id)))\t\(Sanitizer.clean(o.title))\(reason)")
        }
        return .ok
    }
}

/// `widget configure`: the configuration, what is shown, and why some of it is not.
public struct WidgetConfigurePresenter: Presenter {
    public var name: String

    public func present(_ result: WidgetService.ConfigureResult, context: Context) -> ExitCode {
        let io = context.io
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

/// What `widget timeline` shows: the widget's state read at `now`.
public struct WidgetTimelineReport: Sendable {
    public var name: String
    public var state: WidgetState
    public var now: Date
}

/// `widget timeline`: the entries (the current one starred), the policy and whether it is due; or
/// the timeline file's content with `due` as JSON (`null` without a timeline).
public struct WidgetTimelinePresenter: Presenter {
    public var json: Bool

    public func present(_ report: WidgetTimelineReport, context: Context) -> ExitCode {
        let io = context.io
        let state = report.state, name = report.name
        let failedAttempt = state.attempt.flatMap { attempt in attempt.failure(over: state.timeline).map { (attempt, $0) } }
        guard let timeline = state.timeline else {
            if json { io.stdout.line("null") } else { io.stdout.line("widget \(name): no timeline yet (the next 'shopy widget' starts a refresh; or run 'shopy widget refresh')") }
            if !json, let (attempt, failure) = failedAttempt { io.stdout.line(Self.failedLine(attempt, failure)) }
            return .ok
        }
        if json {
            var o = timeline.json.objectValue ?? JSONObject()
            o["due"] = .string(orNull: state.due?.rawValue)
            o["lastAttempt"] = state.attempt.map(\.json) ?? .null
            io.writeJSON(.object(o))
            return .ok
        }
        io.stdout.line("widget \(name): generated \(WidgetClock.format(timeline.generatedAt)), policy \(timeline.policy.description)"
                       + (state.due.map { ", due: \($0.rawValue)" } ?? ", not due"))
        if let (attempt, failure) = failedAttempt {
            io.stdout.line(Self.failedLine(attempt, failure) + " (the entries below are from before)")
        } else if let error = timeline.lastError {
            io.stdout.line("last refresh error: \(Sanitizer.clean(error))" + (timeline.retryAt.map { ", next try after \(WidgetClock.format($0))" } ?? ""))
        }
        let current = timeline.current(at: report.now)
        for entry in timeline.entries {
            let marker = entry == current ? "*" : " "
            io.stdout.line("\(marker) \(WidgetClock.format(entry.date))  " + entry.items.map { Sanitizer.clean($0.short) }.joined(separator: " · "))
        }
        return .ok
    }
}

extension WidgetTimelinePresenter {
    /// `last refresh failed at T: class, next try after T'`.
    static func failedLine(_ attempt: WidgetRefreshAttempt, _ failure: String) -> String {
        "last refresh failed at \(WidgetClock.format(attempt.startedAt)): \(Sanitizer.clean(failure)), next try after "
            + WidgetClock.format(attempt.startedAt.addingTimeInterval(WidgetRefresher.retryDelay))
    }
}

/// `widget refresh`: one line in the foreground; nothing in the background (widget.log has it).
public struct WidgetRefreshPresenter: Presenter {
    public var name: String
    public var background: Bool

    public func present(_ outcome: WidgetRefreshAction.Outcome, context: Context) -> ExitCode {
        switch outcome {
        case .alreadyRunning:
            if !background { context.io.stdout.line("widget \(name): a refresh is already running") }
            return .ok
        case .refreshed(let report):
            if !background { context.io.stdout.line("widget \(name): refreshed, " + report.summary) }
            return .ok
        case .failedInBackground:
            return .failure
        }
    }
}

/// `widget open`: which opener took the link; with none, the link on stdout and a notice (as `shopy open` says it).
public struct LinkOpeningPresenter: Presenter {
    public func present(_ outcome: LinkOpening.Outcome, context: Context) -> ExitCode {
        switch outcome {
        case .opened(let link, let by): OpenPresenter.show(link, openedBy: by, context: context)
        case .noOpener(let link): OpenPresenter.show(link, openedBy: nil, context: context)
        }
        return .ok
    }
}

/// Text made by the command (a bar's snippet), written as it is.
public struct WidgetTextPresenter: Presenter {
    public func present(_ text: String, context: Context) -> ExitCode {
        context.io.stdout.write(text)
        return .ok
    }
}
