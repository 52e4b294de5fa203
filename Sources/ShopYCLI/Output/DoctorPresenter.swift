#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore

/// `shopy doctor`'s report as a table or JSON; 65 while a file still needs action.
public struct DoctorPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ report: DoctorCommand.Report, context: Context) -> ExitCode {
        let io = context.io
        let (reports, notes, directory, directoryMode, repair) = (report.files, report.notes, report.directory, report.directoryMode, report.repaired)
        let code: ExitCode = reports.contains(where: DoctorCommand.needsAction) ? .dataError : .ok
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
            io.writeJSON(.object(root))
            return code
        }
        let exists = directoryMode != nil
        io.stdout.line("files in \(directory)" + (exists ? " (\(DoctorCommand.octal(directoryMode!)))" : " (not created yet)"))
        if let directoryMode, directoryMode != 0o700, !repair {
            io.stdout.line("  directory permissions \(DoctorCommand.octal(directoryMode)), expected 0700 (--repair fixes)")
        }
        for r in reports {
            var text = "  " + DisplayWidth.pad(r.name, toWidth: 18)
            switch r.status {
            case "missing": text += r.problem ?? "not created yet"
            case "ok": text += "ok · " + (r.entries ?? "") + (r.mode.map { " · \(DoctorCommand.octal($0))" } ?? "")
            case "torn", "stale", "mismatched":
                text += Style.dim.apply(r.status, enabled: io.useColor) + ": " + (r.problem ?? "")
            default:
                let label = r.status == "newer" ? "newer schema" : r.status == "unsafe" ? "not a regular file" : "damaged"
                text += Style.red.apply(label, enabled: io.useColor) + ": " + (r.problem ?? "")
            }
            io.stdout.line(text)
            if let mode = r.mode, mode != 0o600, r.status == "ok", r.actions.isEmpty {
                io.stdout.line("    permissions \(DoctorCommand.octal(mode)), expected 0600 (--repair fixes)")
            }
            for action in r.actions { io.stdout.line("    " + action) }
        }
        for note in notes { io.stdout.line("  " + note) }
        if reports.contains(where: { ($0.status == "damaged" || $0.status == "newer") && $0.actions.isEmpty }) {
            io.stdout.line("run 'shopy doctor --repair' to move damaged files aside (they are kept) and start fresh")
        }
        return code
    }
}
