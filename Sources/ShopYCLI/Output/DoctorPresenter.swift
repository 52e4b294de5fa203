#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import ShopYBase

/// `shopy doctor`'s report as a table or JSON; 65 while a file still needs action.
public struct DoctorPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ report: DoctorCommand.Report, context: Context) -> ExitCode {
        let io = context.io
        let (reports, notes, directory, directoryMode, repair) = (report.files, report.notes, report.directory, report.directoryMode, report.repaired)
        // 65 while a file needs action or a setting is refused (every command using it stops).
        let code: ExitCode = reports.contains(where: DoctorCommand.needsAction) || !report.settings.isEmpty ? .dataError : .ok
        if (format ?? .table) == .json {
            var files: [JSONValue] = []
            for r in reports {
                var o = JSONObject()
                o.appendUnchecked("name", .string(r.name))
                o.appendUnchecked("path", .string(r.path))
                o.appendUnchecked("status", .string(r.status))
                o.appendUnchecked("problem", .string(orNull: r.problem))
                o.appendUnchecked("entries", .string(orNull: r.entries))
                o.appendUnchecked("mode", .string(orNull: r.mode.map(DoctorCommand.octal)))
                o.appendUnchecked("actions", .array(r.actions.map(JSONValue.string)))
                files.append(.object(o))
            }
            var root = JSONObject()
            root.appendUnchecked("directory", .string(directory))
            root.appendUnchecked("files", .array(files))
            root.appendUnchecked("notes", .array(notes.map(JSONValue.string)))
            root.appendUnchecked("settings", .array(report.settings.map(Self.json)))
            io.writeJSON(.object(root))
            return code
        }
        let exists = directoryMode != nil
        // Paths come from the environment (SHOPY_HOME) and the directory: cleaned before the
        // terminal sees them, as every foreign text (JSON escapes them instead).
        let clean = Sanitizer.clean
        io.stdout.line("files in \(clean(directory))" + (exists ? " (\(DoctorCommand.octal(directoryMode!)))" : " (not created yet)"))
        if let directoryMode, directoryMode != 0o700, !repair {
            io.stdout.line("  directory permissions \(DoctorCommand.octal(directoryMode)), expected 0700 (--repair fixes)")
        }
        for r in reports {
            var text = "  " + DisplayWidth.pad(r.name, toWidth: 18)
            switch r.status {
            case "missing": text += clean(r.problem ?? "not created yet")
            case "ok": text += "ok · " + clean(r.entries ?? "") + (r.mode.map { " · \(DoctorCommand.octal($0))" } ?? "")
            case "torn", "stale", "mismatched":
                text += Style.dim.apply(r.status, enabled: io.useColor) + ": " + clean(r.problem ?? "")
            default:
                let label = r.status == "newer" ? "newer schema" : r.status == "unsafe" ? "not a regular file" : "damaged"
                text += Style.red.apply(label, enabled: io.useColor) + ": " + clean(r.problem ?? "")
            }
            io.stdout.line(text)
            if let mode = r.mode, mode != 0o600, r.status == "ok", r.actions.isEmpty {
                io.stdout.line("    permissions \(DoctorCommand.octal(mode)), expected 0600 (--repair fixes)")
            }
            for action in r.actions { io.stdout.line("    " + clean(action)) }
        }
        for note in notes { io.stdout.line("  " + clean(note)) }
        for entry in report.settings {
            io.stdout.line("  " + DisplayWidth.pad(Self.label(entry), toWidth: 18) + Style.red.apply("refused", enabled: io.useColor) + ": "
                           + clean(entry.invalid?.message ?? "") + "; commands that take --\(entry.key.option) stop with 64 unless it is given")
        }
        if reports.contains(where: { ($0.status == "damaged" || $0.status == "newer") && $0.actions.isEmpty }) {
            io.stdout.line("run 'shopy doctor --repair' to move damaged files aside (they are kept) and start fresh")
        }
        return code
    }

    /// `SHOPY_TIMEOUT`, or `config timeout` for a stored value.
    static func label(_ entry: ConfigResolution.Entry) -> String {
        if case .environment(let variable) = entry.origin { return variable }
        return "config " + entry.key.name
    }

    /// `{"key", "origin", "variable", "value", "problem"}`.
    static func json(_ entry: ConfigResolution.Entry) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("key", .string(entry.key.name))
        o.appendUnchecked("origin", .string(entry.origin.name))
        o.appendUnchecked("variable", .string(orNull: { if case .environment(let v) = entry.origin { return v } else { return nil } }()))
        o.appendUnchecked("value", .string(entry.rejected ?? ""))
        o.appendUnchecked("problem", .string(entry.invalid?.message ?? ""))
        return .object(o)
    }
}
