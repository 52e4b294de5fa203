import ShopYCore
import ShopYBase

/// `shopy config list`: a table of key, value, origin, or JSON.
public struct ConfigListPresenter: Presenter {
    public var json: Bool

    public func present(_ resolution: ConfigResolution, context: Context) -> ExitCode {
        let io = context.io
        if json {
            let object = JSONObject(["config": .array(resolution.entries.map(ConfigCommand.json))])
            io.writeJSON(.object(object))
            return .ok
        }
        // A refused value is shown as found (cleaned) and marked; the reason goes to stderr.
        let rows = resolution.entries.map { entry in
            (entry.key.name, Sanitizer.clean(entry.shown), entry.origin.description + (entry.invalid == nil ? "" : " · invalid, not used"))
        }
        let keyWidth = max(3, rows.map { $0.0.count }.max() ?? 3)
        let valueWidth = max(5, rows.map { DisplayWidth.of($0.1) }.max() ?? 5)
        let header = DisplayWidth.pad("KEY", toWidth: keyWidth) + "  " + DisplayWidth.pad("VALUE", toWidth: valueWidth) + "  ORIGIN"
        io.stdout.line(Style.bold.apply(header, enabled: io.useColor))
        for (key, value, origin) in rows {
            io.stdout.line(DisplayWidth.pad(key, toWidth: keyWidth) + "  " + DisplayWidth.pad(value, toWidth: valueWidth) + "  " + origin)
        }
        ConfigRefusal.warn(resolution.invalidEntries, diagnostics: context.diagnostics)
        return .ok
    }
}

/// `shopy config get KEY`: the value alone, or JSON.
public struct ConfigGetPresenter: Presenter {
    public var json: Bool

    public func present(_ entry: ConfigResolution.Entry?, context: Context) -> ExitCode {
        guard let entry else { return .failure }
        if json {
            context.io.writeJSON(ConfigCommand.json(entry))
        } else {
            context.io.stdout.line(Sanitizer.clean(entry.shown))
        }
        ConfigRefusal.warn([entry].filter { $0.invalid != nil }, diagnostics: context.diagnostics)
        return .ok
    }
}

/// The warning for environment or config values that commands refuse.
enum ConfigRefusal {
    static func warn(_ entries: [ConfigResolution.Entry], diagnostics: any DiagnosticsSink) {
        for entry in entries {
            guard let invalid = entry.invalid else { continue }
            diagnostics.warning("\(invalid.message); commands that take --\(entry.key.option) stop on it unless the option is given")
        }
    }
}

/// What `config set` / `config unset` changed.
public struct ConfigChange: Sendable {
    public enum Outcome: Sendable { case set(String), unset, wasNotSet }
    public var key: ConfigKey
    public var outcome: Outcome
}

/// `config set` / `config unset`: a notice of the change, and a warning when the environment
/// overrides the key anyway.
public struct ConfigChangePresenter: Presenter {
    public func present(_ change: ConfigChange, context: Context) -> ExitCode {
        let key = change.key
        switch change.outcome {
        case .set(let value): context.diagnostics.notice("config \(key.name) = \(value)")
        case .unset: context.diagnostics.notice("config \(key.name) unset (default: \(key.builtIn))")
        case .wasNotSet: context.diagnostics.notice("config \(key.name) was not set")
        }
        ConfigUnsetCommand.warnIfOverridden(key, context: context)
        return .ok
    }
}
