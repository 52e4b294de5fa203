import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import ShopYBase

/// `doctor` on the likes' three files: likes.json (the snapshot), likes.journal and likes.index.
extension DoctorCommand {
    /// The reports of the three files; with --repair, what can be fixed is, under the likes' lock
    /// (the files are checked again once it is held).
    func likesReports(store: SettingsStore, now: Date) throws -> [FileReport] {
        let files = store.likesFiles
        guard repair else { return checkLikes(files) }
        try FileIO.ensureDirectory(store.directory)
        let lock = try FileLock(path: files.lock)
        defer { lock.release() }
        var reports = checkLikes(files)
        var snapshot = reports[0]
        if ["damaged", "newer"].contains(snapshot.status) || snapshot.status == "unsafe" && FileIO.kind(of: files.snapshot) != "a symbolic link" {
            let moved = try Self.moveAside(files.snapshot, prefix: "likes.damaged", in: store.directory, now: now)
            snapshot.actions.append("moved aside to \(moved); starting fresh")
            // The journal continues that snapshot: it goes aside with it; the index is derived.
            if FileIO.kind(of: files.journal) == nil, FileManager.default.fileExists(atPath: files.journal) {
                let journal = try Self.moveAside(files.journal, prefix: "likes.journal.aside", in: store.directory, now: now, extension: "jsonl")
                snapshot.actions.append("its journal moved aside to \(journal)")
            }
            if FileIO.kind(of: files.index) == nil { unlink(files.index) }
            reports[0] = snapshot
            return [snapshot] + checkLikes(files).dropFirst()
        }
        var journal = reports[1]
        switch journal.status {
        case "damaged", "newer":
            let moved = try Self.moveAside(files.journal, prefix: "likes.journal.damaged", in: store.directory, now: now, extension: "jsonl")
            journal.actions.append("moved aside to \(moved); likes.json is the whole state now")
        case "unsafe" where FileIO.kind(of: files.journal) != "a symbolic link":
            journal.actions.append("moved aside to \(try Self.moveAside(files.journal, prefix: "likes.journal.unsafe", in: store.directory, now: now, extension: "jsonl"))")
        case "torn":
            let contents = try LikesJournal.parse(try FileIO.readStoreFile(files.journal, limit: StoreFileLimits.likesJournal) ?? [], path: files.journal)
            let backup = try LikesCommit.trimTornTail(contents, files: files)
            journal.actions.append("torn last line (\(contents.tornBytes) bytes) saved to \(backup ?? "?") and trimmed")
        case "stale":
            var info = stat()
            let empty = lstat(files.journal, &info) == 0 && info.st_size == 0
            let base = try LikesBase.load(files, readJournal: false)
            if let aside = try LikesCommit.retireStaleJournal(base) {
                journal.actions.append("moved aside to \(aside): some of its changes are not in likes.json")
            } else {
                journal.actions.append(empty ? "removed: it was empty" : "removed: its changes are in likes.json already")
            }
        default:
            break
        }
        reports[1] = journal
        var index = reports[2]
        if ["stale", "mismatched"].contains(index.status) || index.status == "missing" && snapshot.status == "ok" && snapshot.mode != nil {
            let base = try LikesBase.load(files, readJournal: false)
            if base.generation != nil {
                try LikesCommit.rebuildIndex(base)
                index.actions.append("rebuilt from likes.json")
            }
        } else if index.status == "unsafe", FileIO.kind(of: files.index) != "a symbolic link" {
            index.actions.append("moved aside to \(try Self.moveAside(files.index, prefix: "likes.index.unsafe", in: store.directory, now: now, extension: "txt"))")
            // Derived: built again at once from likes.json when that one is sound.
            if snapshot.status == "ok", snapshot.mode != nil {
                let base = try LikesBase.load(files, readJournal: false)
                if base.generation != nil {
                    try LikesCommit.rebuildIndex(base)
                    index.actions.append("rebuilt from likes.json")
                }
            }
        }
        reports[2] = index
        return reports
    }

    /// `3 changes in 2 transactions since the snapshot`, `1 change in 1 transaction …`.
    static func journalSummary(changes: Int, transactions: Int) -> String {
        "\(Plural.count(changes, "change")) in \(Plural.count(transactions, "transaction")) since the snapshot"
    }

    /// likes.json alone (as `moveAside` re-checks it).
    func checkLikesSnapshot(store: SettingsStore) -> FileReport { checkLikes(store.likesFiles)[0] }

    func checkLikes(_ files: LikesFiles) -> [FileReport] {
        var snapshot = FileReport(name: "likes.json", path: files.snapshot, status: "ok", mode: Self.lmode(of: files.snapshot))
        var journal = FileReport(name: "likes.journal", path: files.journal, status: "ok", mode: Self.lmode(of: files.journal))
        var index = FileReport(name: "likes.index", path: files.index, status: "ok", mode: Self.lmode(of: files.index))
        for i in [0, 1, 2] {
            var report = [snapshot, journal, index][i]
            if report.mode == nil {
                report.status = "missing"
                report.problem = i == 0 ? nil : i == 1 ? "none (no change since the snapshot)" : "not built yet"
            } else if let problem = Self.unsafeProblem(report.path) {
                report.status = "unsafe"
                report.problem = problem
            }
            if i == 0 { snapshot = report } else if i == 1 { journal = report } else { index = report }
        }
        // The journal, read as every command reads it.
        var contents: LikesJournal.Contents?
        if journal.status == "ok" {
            do {
                contents = try LikesJournal.parse(try FileIO.readStoreFile(files.journal, limit: StoreFileLimits.likesJournal) ?? [], path: files.journal)
            } catch {
                journal.record(error)
            }
        }
        guard snapshot.status == "ok" else {
            if snapshot.status == "missing", journal.status == "ok", contents != nil {
                journal.status = "stale"
                journal.problem = "there is no likes.json for it to continue (ignored; --repair removes it)"
            }
            return [snapshot, journal, index]
        }
        // The snapshot, read whole and checked.
        let base: LikesBase
        let elements: [LikeCollection.Element]
        do {
            base = try LikesBase.load(files, readJournal: false, readIndex: index.status != "unsafe")
            elements = try base.snapshot().elements
        } catch {
            snapshot.record(error)
            return [snapshot, journal, index]
        }
        var changes: [LikeChange] = []
        if let contents, journal.status == "ok" {
            // Each line after the header is one transaction (a write), which may hold several changes.
            let transactions = max(contents.lines - 1, 0)
            if contents.lines == 0 && contents.tornBytes == 0 {
                // Nothing in it: a write that created it and stopped (a crash) before its first line.
                journal.status = "stale"
                journal.problem = "it is empty (a write stopped before its first line; it never held a change): ignored; the next change or --repair removes it"
            } else if contents.generation == nil || contents.generation != base.generation {
                journal.status = "stale"
                if (try? LikesCommit.isFolded(contents.changes, into: base)) == true {
                    journal.problem = "it continues another likes.json: a compaction folded it in and was stopped before removing it (ignored; --repair removes it)"
                } else {
                    let count = Plural.count(contents.changes.count, "change")
                    journal.problem = "it continues another likes.json (was likes.json's first line edited?) and its \(count) are not all in likes.json: ignored; the next change or --repair keeps it aside as likes.journal.aside-TIME.jsonl"
                }
            } else if contents.tornBytes > 0 {
                journal.status = "torn"
                journal.problem = "its last line is torn (\(contents.tornBytes) bytes: a write cut short by a crash, never acknowledged; ignored; --repair saves it aside and trims it)"
                changes = contents.changes
            } else {
                changes = contents.changes
                journal.entries = Self.journalSummary(changes: contents.changes.count, transactions: transactions)
            }
        }
        let count = LikeCollection.replay(elements, changes).count
        snapshot.entries = Plural.count(count, "like") + (changes.isEmpty ? "" : " (\(Money.grouped(elements.count)) in the snapshot)")
        // The index: it must be exactly what would be built from this snapshot.
        if index.status == "ok" {
            if base.generation == nil {
                index.status = "stale"
                index.problem = "likes.json is of the old format or edited by hand: the next change rebuilds it (--repair now)"
            } else if let expected = try? LikesCommit.expectedIndex(base) {
                // An index far larger than the one expected (its header notes a file by inode and
                // time: a few bytes either way) does not list what likes.json holds.
                let actual = try? FileIO.readStoreFile(files.index, limit: 2 * expected.count + 4096)
                switch actual.map({ LikesIndex.compare($0, with: expected) }) ?? .mismatched {
                case .stale:
                    index.status = "stale"
                    index.problem = "it was built from another likes.json or edited (its content key or links fail): the next command rebuilds it (--repair now)"
                case .mismatched:
                    index.status = "mismatched"
                    index.problem = "it does not list what likes.json holds: --repair rebuilds it"
                case .same:
                    index.entries = Plural.count(elements.count, "id") + ", matches likes.json"
                case .noted:
                    index.entries = Plural.count(elements.count, "id") + ", matches likes.json (a copy's: the next command notes this one)"
                }
            }
        }
        return [snapshot, journal, index]
    }
}
