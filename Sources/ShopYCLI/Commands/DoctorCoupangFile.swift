import ShopYBase
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore

/// `doctor` on coupang.json (Coupang's budget, holds and 60-minute cache, `CoupangLedger`).
extension DoctorCommand {
    /// Its report: ok (what it holds), missing, damaged or unsafe; `stale` when it still holds
    /// answers older than the hour Coupang's terms allow (never used; removed by the next
    /// Coupang request). With --repair, a damaged or non-regular one is moved aside (a link is
    /// left alone) and expired answers are removed.
    func coupangReport(directory: String, now: Date) throws -> FileReport {
        let ledger = CoupangLedger(directory: directory)
        var report = FileReport(name: CoupangLedger.fileName, path: ledger.path, status: "ok", mode: Self.lmode(of: ledger.path))
        guard report.mode != nil else {
            report.status = "missing"
            return report
        }
        if let problem = Self.unsafeProblem(ledger.path) {
            report.status = "unsafe"
            report.problem = problem
            if repair && FileIO.kind(of: ledger.path) != "a symbolic link" { report.actions.append(try moveLedgerAside(ledger, now: now)) }
            return report
        }
        let summary: CoupangLedger.Summary
        do {
            summary = try ledger.summary(now: now)
        } catch {
            report.status = "damaged"
            report.problem = Self.problem(error)
            if repair { report.actions.append(try moveLedgerAside(ledger, now: now)) }
            return report
        }
        report.entries = Self.describe(summary)
        guard summary.expired > 0 else { return report }
        report.status = "stale"
        report.problem = "it holds \(Plural.count(summary.expired, "Coupang answer")) older than the hour Coupang's terms allow (never used; "
            + (repair ? "removed below" : "the next Coupang request or --repair removes them") + ")"
        if repair {
            let removed = try ledger.removeExpired(now: now)
            report.actions.append("removed \(Plural.count(removed, "answer")) older than an hour")
            report.status = "ok"
            report.problem = nil
            report.entries = Self.describe(try ledger.summary(now: now))
        }
        return report
    }

    /// `1 key, 3 requests in the last hour, 2 answers cached`.
    static func describe(_ summary: CoupangLedger.Summary) -> String {
        guard summary.keys > 0 || summary.cached > 0 else { return "no requests in the last hour, nothing cached" }
        var parts = [Plural.count(summary.keys, "key"), "\(Plural.count(summary.sent, "request")) in the last hour"]
        if summary.held > 0 { parts.append("\(summary.held) held after a 429") }
        parts.append("\(Plural.count(summary.cached, "answer")) cached")
        return parts.joined(separator: ", ")
    }

    /// The ledger's problem without its path (the report's line names the file).
    static func problem(_ error: CoupangLedgerError) -> String {
        switch error {
        case .damaged(_, let problem): return problem
        case .store(let inner): return inner.message
        }
    }

    /// Moves a damaged coupang.json aside under its lock (checked again once the lock is held).
    /// Its request counts go with it, so the action says to give the key an hour.
    func moveLedgerAside(_ ledger: CoupangLedger, now: Date) throws -> String {
        try FileIO.ensureDirectory(ledger.directory)
        let lock = try FileLock(path: ledger.directory + "/" + CoupangLedger.lockName)
        defer { lock.release() }
        let regular = FileIO.kind(of: ledger.path) == nil
        if regular, FileManager.default.fileExists(atPath: ledger.path), (try? ledger.summary(now: now)) != nil {
            return "left as it is: it was repaired meanwhile (now ok)"
        }
        let moved = try Self.moveAside(ledger.path, prefix: "coupang.damaged", in: ledger.directory, now: now)
        return "moved aside to \(moved); starting fresh: its request counts of the last hour went with it, so wait an hour before asking Coupang (one violation of its limit blocks the key for 24 hours)"
    }
}
