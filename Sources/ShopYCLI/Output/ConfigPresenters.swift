import ShopYCore

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
        let rows = resolution.entries.map { ($0.key.name, $0.value ?? $0.key.builtIn, $0.origin.description) }
        let keyWidth = max(3, rows.map { $0.0.count }.max() ?? 3)
        let valueWidth = max(5, rows.map { DisplayWidth.of($0.1) }.max() ?? 5)
        let header = DisplayWidth.pad("KEY", toWidth: keyWidth) + "  " + DisplayWidth.pad("VALUE", toWidth: valueWidth) + "  ORIGIN"
        io.stdout.line(Style.bold.apply(header, enabled: io.useColor))
        for (key, value, origin) in rows {
            io.stdout.line(DisplayWidth.pad(key, toWidth: keyWidth) + "  " + DisplayWidth.pad(value, toWidth: valueWidth) + "  " + origin)
        }
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
            context.io.stdout.line(entry.value ?? entry.key.builtIn)
        }
        return .ok
    }
}
