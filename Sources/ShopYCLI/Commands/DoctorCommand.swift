import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import ShopYBase

/// `shopy doctor`: the state of every file; with `--repair`, damaged ones are moved aside.
public struct DoctorCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check shopy's files; with --repair, move damaged ones aside and start fresh.",
        discussion: "Without --repair nothing is changed. A damaged file is renamed to NAME.damaged-TIME.json (kept, never deleted); permissions are set back to 0600 (0700 for the directory); temporary files left by killed processes are removed; the likes' index is rebuilt when it does not match, a torn last line of the likes' journal is saved aside and trimmed, a journal already folded into likes.json is removed (one naming another likes.json with changes this one lacks is moved aside); Coupang's answers cached in coupang.json past the hour its terms allow are removed. A store file that is a symbolic link is reported and never followed: --repair leaves it and its target alone (replace it with a regular file); a FIFO or other non-regular file is moved aside, and a lock that is not a regular file is removed (never its target).",
        options: [repairOption.spec] + formats.specs,
        examples: ["shopy doctor", "shopy doctor --repair"])

    static let repairOption = Option.flag("repair", help: "Fix what can be fixed (see above).")
    /// A report, not a listing: a table or JSON.
    static let formats = FormatOptions(accepting: [OutputFormat.table, .json], notes: [.table: "default"])

    public var repair: Bool
    public var format: OutputFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("doctor takes no arguments") }
        repair = parsed[Self.repairOption]
        format = try Self.formats.read(parsed)
    }

    struct FileReport {
        var name: String
        var path: String
        var status: String      // ok, missing, damaged, newer, unsafe; the journal: torn, stale; the index: stale, mismatched
        var problem: String?
        var entries: String?
        var mode: mode_t?
        var actions: [String] = []

        /// What a read of the file found: the line already names the file, so the problem is
        /// said without the path again.
        mutating func record(_ error: StoreError) {
            switch error {
            case .newerSchema(_, let found, let known):
                status = "newer"
                problem = "schema version \(found), newer than this shopy knows (\(known))"
            case .damaged(_, let problem):
                status = "damaged"
                self.problem = problem
            default:
                status = "damaged"
                problem = error.message
            }
        }
    }

    /// What doctor found (and, with --repair, did).
    public struct Report: Sendable {
        var files: [FileReport]
        var notes: [String]
        var directory: String
        var directoryMode: mode_t?
        var repaired: Bool
        /// Environment variables and config values that commands refuse (they stop with 64
        /// when they would use one).
        var settings: [ConfigResolution.Entry] = []
    }

    /// Checks every file (and with --repair fixes what can be fixed); prints nothing.
    public func execute(_ context: Context) async throws -> Report {
        let store = context.store
        var reports: [FileReport] = []
        var notes: [String] = []
        // SHOPY_HOME that is not a directory (a file, a FIFO) holds none of shopy's files: say
        // so (74) rather than report them "not created yet", and never chmod it.
        var info = stat()
        if stat(store.directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw StoreError.io(path: store.directory, operation: "use the directory", errno: ENOTDIR)
        }
        let directoryMode = FileIO.mode(of: store.directory)
        if repair, let directoryMode, directoryMode != 0o700 {
            if chmod(store.directory, 0o700) == 0 { notes.append("directory permissions set to 0700 (were \(Self.octal(directoryMode)))") }
        }
        // First the locks: repairs take them, and one that is a link or a FIFO is refused.
        notes += try lockNotes(store: store)
        for suite in Suite.all {
            if suite.journaled {
                reports += try likesReports(store: store, now: context.io.now())
                continue
            }
            var report = check(suite, store: store)
            // A symbolic link is left alone (its target is the user's); anything else is moved aside.
            if repair && (report.status == "damaged" || report.status == "newer"
                || report.status == "unsafe" && FileIO.kind(of: report.path) != "a symbolic link") {
                report.actions.append(try moveAside(suite, store: store, now: context.io.now()))
            }
            reports.append(report)
        }
        reports.append(try coupangReport(directory: store.directory, now: context.io.now()))
        reports += try catalogReports(directory: store.directory, now: context.io.now())
        if repair {
            for i in reports.indices { fixMode(&reports[i]) }
        }
        let stale = staleTemporaryFiles(in: store.directory)
        if repair {
            for file in stale where unlink(store.directory + "/" + file) == 0 { notes.append("removed \(file), left by a killed process") }
        } else if !stale.isEmpty {
            notes.append("\(stale.count) temporary file\(stale.count == 1 ? "" : "s") left by killed processes (--repair removes them)")
        }
        // The settings as every command resolves them (a damaged preferences.json is a file
        // problem above; its values are then not read).
        let stored = (try? store.read { $0.config }) ?? [:]
        let settings = ConfigResolution.resolve(environment: context.io.environment, stored: stored).invalidEntries
        return Report(files: reports, notes: notes, directory: store.directory, directoryMode: directoryMode, repaired: repair, settings: settings)
    }

    public var presenter: DoctorPresenter { DoctorPresenter(format: format) }

    /// A file that is still not usable as it is (a stale index or a torn tail is not: shopy
    /// copes, and --repair tidies).
    static func needsAction(_ report: FileReport) -> Bool {
        ["damaged", "newer", "unsafe"].contains(report.status) && report.actions.isEmpty
    }

    /// Permissions back to 0600, on the descriptor of the file itself (never through a link).
    func fixMode(_ report: inout FileReport) {
        guard let mode = report.mode, mode != 0o600, report.status != "missing", report.status != "unsafe",
              let opened = try? FileIO.openStoreFile(report.path) else { return }
        defer { close(opened.fd) }
        if fchmod(opened.fd, 0o600) == 0 {
            report.actions.append("permissions set to 0600 (were \(Self.octal(mode)))")
            report.mode = 0o600
        }
    }

    func check(_ suite: Suite, store: SettingsStore) -> FileReport {
        let path = store.path(of: suite)
        var report = FileReport(name: suite.fileName, path: path, status: "ok", mode: Self.lmode(of: path))
        guard report.mode != nil else {
            report.status = "missing"
            return report
        }
        if let problem = Self.unsafeProblem(path) {
            report.status = "unsafe"
            report.problem = problem
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
                    let rows = settings.lastListing?.rowCount ?? 0
                    return "\(history.count) search\(history.count == 1 ? "" : "es") in history, \(rows) row\(rows == 1 ? "" : "s") in the last listing"
                case .prices:
                    let records = settings.prices.records.values
                    let tracked = records.filter { !$0.points.isEmpty }.count, alerts = records.filter { $0.alert != nil }.count
                    return "\(Money.grouped(tracked)) like\(tracked == 1 ? "" : "s") with a price history, \(alerts) alert\(alerts == 1 ? "" : "s")"
                default:
                    let recording = settings.historyEnabled
                    let sections = settings.popularSections
                    return "history \(recording ? "on" : "off"), popular sections: \(sections.map { $0.joined(separator: ", ") } ?? "default")"
                }
            }
        } catch let error as StoreError {
            report.record(error)
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
        let current = suite.journaled ? checkLikesSnapshot(store: store) : check(suite, store: store)
        guard current.status == "damaged" || current.status == "newer" || (current.status == "unsafe" && FileIO.kind(of: current.path) != "a symbolic link") else {
            return "left as it is: it was repaired meanwhile (now \(current.status))"
        }
        let moved = try Self.moveAside(store.path(of: suite), prefix: "\(suite.name).damaged", in: store.directory, now: now)
        return "moved aside to \(moved); starting fresh"
    }

    /// Renames `path` (the entry itself: a FIFO is not opened, a file keeps its bytes) to
    /// PREFIX-TIME.json, private.
    static func moveAside(_ path: String, prefix: String, in directory: String, now: Date, extension ext: String = "json") throws -> String {
        if let opened = try? FileIO.openStoreFile(path) {
            _ = fchmod(opened.fd, 0o600)  // kept private wherever it goes
            close(opened.fd)
        }
        let target = FileIO.timestampedPath(in: directory, prefix: prefix, at: now, extension: ext)
        guard rename(path, target) == 0 else {
            throw StoreError.io(path: path, operation: "move aside", errno: errno)
        }
        FileIO.syncDirectory(directory)
        return target
    }

    /// Permission bits of the entry itself (a link is not followed), or nil when missing.
    static func lmode(of path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// What is wrong with a store file that is not a regular file, or nil.
    static func unsafeProblem(_ path: String) -> String? {
        guard let kind = FileIO.kind(of: path) else { return nil }
        if kind == "a symbolic link" {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return "it is a symbolic link (to \(Sanitizer.clean(target))): shopy neither follows nor changes it; replace it with a regular file (e.g. cp --remove-destination \"$(readlink -f \(path))\" \(path)), or remove it to start fresh"
        }
        return "it is \(kind), not a regular file: shopy does not open it (--repair moves it aside)"
    }

    /// Locks that are not regular files (a link, a FIFO) stop every command with 74; --repair
    /// removes the entry itself (a lock holds nothing, and a link's target is never touched).
    func lockNotes(store: SettingsStore) throws -> [String] {
        var notes: [String] = []
        for lockName in Suite.all.map(\.lockName) + [CoupangLedger.lockName] {
            let path = store.directory + "/" + lockName
            guard let kind = FileIO.kind(of: path) else { continue }
            if repair && kind != "a directory" && unlink(path) == 0 {
                notes.append("removed \(lockName), which was \(kind) (its target, if any, was not touched)")
            } else {
                notes.append("\(lockName) is \(kind), not a regular file: shopy refuses it (exit 74)" + (repair ? "" : "; --repair removes it"))
            }
        }
        return notes
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
}
