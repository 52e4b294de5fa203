import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shopy doctor`: the state of every file; with `--repair`, damaged ones are moved aside.
public struct DoctorCommand: Command {
    public static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check shopy's files; with --repair, move damaged ones aside and start fresh.",
        discussion: "Without --repair nothing is changed. A damaged file is renamed to NAME.damaged-TIME.json (kept, never deleted); permissions are set back to 0600 (0700 for the directory); temporary files left by killed processes are removed.",
        options: [
            OptionSpec("repair", help: "Fix what can be fixed (see above)."),
            CommonOptions.format, CommonOptions.json,
        ],
        examples: ["shopy doctor", "shopy doctor --repair"])

    public var repair: Bool
    public var format: OutputFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("doctor takes no arguments") }
        repair = parsed.flag("repair")
        format = try CommonOptions.format(parsed)
        if let format, format != .json && format != .table { throw UsageError("doctor prints a table or json") }
    }

    struct FileReport {
        var suite: Suite
        var path: String
        var status: String      // ok, missing, damaged, newer
        var problem: String?
        var entries: String?
        var mode: mode_t?
        var actions: [String] = []
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let store = SettingsStore(environment: context.io.environment)
        var reports: [FileReport] = []
        var notes: [String] = []
        let directoryMode = FileIO.mode(of: store.directory)
        if repair, let directoryMode, directoryMode != 0o700 {
            if chmod(store.directory, 0o700) == 0 { notes.append("directory permissions set to 0700 (were \(Self.octal(directoryMode)))") }
        }
        for suite in Suite.all {
            var report = check(suite, store: store)
            if repair && (report.status == "damaged" || report.status == "newer") {
                report.actions.append(try moveAside(suite, store: store, now: context.io.now()))
            }
            if repair, let mode = report.mode, mode != 0o600, report.status != "missing",
               FileManager.default.fileExists(atPath: report.path), chmod(report.path, 0o600) == 0 {
                report.actions.append("permissions set to 0600 (were \(Self.octal(mode)))")
                report.mode = 0o600
            }
            reports.append(report)
        }
        let stale = staleTemporaryFiles(in: store.directory)
        if repair {
            for file in stale where unlink(store.directory + "/" + file) == 0 { notes.append("removed \(file), left by a killed process") }
        } else if !stale.isEmpty {
            notes.append("\(stale.count) temporary file\(stale.count == 1 ? "" : "s") left by killed processes (--repair removes them)")
        }
        render(reports, notes: notes, directory: store.directory, directoryMode: directoryMode, context: context)
        let bad = reports.contains { ($0.status == "damaged" || $0.status == "newer") && $0.actions.isEmpty }
        return bad ? .dataError : .ok
    }

    func check(_ suite: Suite, store: SettingsStore) -> FileReport {
        let path = store.path(of: suite)
        var report = FileReport(suite: suite, path: path, status: "ok", mode: FileIO.mode(of: path))
        guard report.mode != nil else {
            report.status = "missing"
            return report
        }
        do {
            report.entries = try store.read { settings -> String in
                switch suite {
                case .likes:
                    let count = try settings.allLikes().count
                    return "\(Money.grouped(count)) like\(count == 1 ? "" : "s")"
                case .state:
                    let history = settings.history
                    let rows = settings.lastListing?.rows.count ?? 0
                    return "\(history.count) search\(history.count == 1 ? "" : "es") in history, \(rows) row\(rows == 1 ? "" : "s") in the last listing"
                default:
                    let recording = settings.historyEnabled
                    let sections = settings.popularSections
                    return "history \(recording ? "on" : "off"), popular sections: \(sections.map { $0.joined(separator: ", ") } ?? "default")"
                }
            }
        } catch let error as StoreError {
            // The line already names the file: the problem alone, not the path again.
            switch error {
            case .newerSchema(_, let found, let known):
                report.status = "newer"
                report.problem = "schema version \(found), newer than this shopy knows (\(known))"
            case .damaged(_, let problem):
                report.status = "damaged"
                report.problem = problem
            default:
                report.status = "damaged"
                report.problem = error.message
            }
        } catch {
            report.status = "damaged"
            report.problem = "\(error)"
        }
        return report
    }

    /// Renames a damaged file (under its lock) so that shopy starts fresh; the file is kept.
    func moveAside(_ suite: Suite, store: SettingsStore, now: Date) throws -> String {
        let lock = try FileLock(path: store.directory + "/" + suite.lockName)
        defer { lock.release() }
        // The first check ran without the lock. Meanwhile another `doctor --repair` may have moved
        // the file aside and a fresh, good one may have been written: that one must stay.
        let current = check(suite, store: store)
        guard current.status == "damaged" || current.status == "newer" else {
            return "left as it is: it was repaired meanwhile (now \(current.status))"
        }
        let target = FileIO.timestampedPath(in: store.directory, prefix: "\(suite.name).damaged", at: now)
        _ = chmod(store.path(of: suite), 0o600)  // kept private wherever it goes
        guard rename(store.path(of: suite), target) == 0 else {
            throw StoreError.io(path: store.path(of: suite), operation: "move aside", errno: errno)
        }
        FileIO.syncDirectory(store.directory)
        return "moved aside to \(target); starting fresh"
    }

    /// `.NAME.json.tmp-PID-N` files whose process is gone.
    func staleTemporaryFiles(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { name in
            guard name.hasPrefix("."), let range = name.range(of: ".json.tmp-") else { return false }
            let rest = name[range.upperBound...]
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { return false }
            return kill(pid, 0) != 0 && errno == ESRCH
        }.sorted()
    }

    static func octal(_ mode: mode_t) -> String {
        let text = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    func render(_ reports: [FileReport], notes: [String], directory: String, directoryMode: mode_t?, context: Context) {
        let io = context.io
        if (format ?? .table) == .json {
            var files: [JSONValue] = []
            for r in reports {
                var o = JSONObject()
                o.appendUnchecked("name", .string(r.suite.fileName))
                o.appendUnchecked("path", .string(r.path))
                o.appendUnchecked("status", .string(r.status))
                o.appendUnchecked("problem", .string(orNull: r.problem))
                o.appendUnchecked("entries", .string(orNull: r.entries))
                o.appendUnchecked("mode", .string(orNull: r.mode.map(Self.octal)))
                o.appendUnchecked("actions", .array(r.actions.map(JSONValue.string)))
                files.append(.object(o))
            }
            var root = JSONObject()
            root.appendUnchecked("directory", .string(directory))
            root.appendUnchecked("files", .array(files))
            root.appendUnchecked("notes", .array(notes.map(JSONValue.string)))
            io.stdout.write(bytes: JSONWriter.serialize(.object(root), pretty: true) + [0x0A])
            return
        }
        let exists = directoryMode != nil
        io.stdout.line("files in \(directory)" + (exists ? " (\(Self.octal(directoryMode!)))" : " (not created yet)"))
        if let directoryMode, directoryMode != 0o700, !repair {
            io.stdout.line("  directory permissions \(Self.octal(directoryMode)), expected 0700 (--repair fixes)")
        }
        for r in reports {
            var text = "  " + DisplayWidth.pad(r.suite.fileName, toWidth: 18)
            switch r.status {
            case "missing": text += "not created yet"
            case "ok": text += "ok · " + (r.entries ?? "") + (r.mode.map { " · \(Self.octal($0))" } ?? "")
            default: text += Style.red.apply(r.status == "newer" ? "newer schema" : "damaged", enabled: io.useColor) + ": " + (r.problem ?? "")
            }
            io.stdout.line(text)
            if let mode = r.mode, mode != 0o600, r.status == "ok", r.actions.isEmpty {
                io.stdout.line("    permissions \(Self.octal(mode)), expected 0600 (--repair fixes)")
            }
            for action in r.actions { io.stdout.line("    " + action) }
        }
        for note in notes { io.stdout.line("  " + note) }
        if reports.contains(where: { ($0.status == "damaged" || $0.status == "newer") && $0.actions.isEmpty }) {
            io.stdout.line("run 'shopy doctor --repair' to move damaged files aside (they are kept) and start fresh")
        }
    }
}
