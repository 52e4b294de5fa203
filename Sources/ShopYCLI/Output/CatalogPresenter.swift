import ShopYCore
import ShopYBase
import ShopYCatalog

/// `shopy catalog`: the summary as lines, or JSON with `--json`.
public struct CatalogSummaryPresenter: Presenter {
    var json: Bool

    public func present(_ r: CatalogSummaryReport, context: Context) -> ExitCode {
        let io = context.io
        if json {
            var o = JSONObject()
            o.appendUnchecked("embedded", .int(r.embedded))
            o.appendUnchecked("local", .int(r.local))
            o.appendUnchecked("path", .string(r.path))
            o.appendUnchecked("bytesOnDisk", .int(r.bytesOnDisk))
            o.appendUnchecked("recording", .bool(r.recording))
            o.appendUnchecked("categories", .array(r.categories.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            o.appendUnchecked("origins", .array(r.origins.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            io.writeJSON(.object(o))
            return .ok
        }
        io.stdout.line("offline catalog: \(Money.grouped(r.embedded + r.local)) items (\(Money.grouped(r.embedded)) embedded, recorded in 2025; \(Money.grouped(r.local)) local)")
        io.stdout.line("local catalog: \(Sanitizer.clean(r.path)) (\(Self.bytes(r.bytesOnDisk)) on disk with its index)")
        io.stdout.line("recording: \(r.recording ? "on (items the naver source lists are added)" : "off ('shopy config set catalog.record on' adds what the naver source lists)")")
        if !r.categories.isEmpty {
            io.stdout.line("categories:")
            for c in r.categories.prefix(20) { io.stdout.line("  \(Money.grouped(c.count))\t\(Sanitizer.clean(c.name))") }
            if r.categories.count > 20 { io.stdout.line("  … \(r.categories.count - 20) more (--json lists them all)") }
            io.stdout.line("came from:")
            for c in r.origins.prefix(20) { io.stdout.line("  \(Money.grouped(c.count))\t\(Sanitizer.clean(c.name))") }
            if r.origins.count > 20 { io.stdout.line("  … \(r.origins.count - 20) more (--json lists them all)") }
        }
        return .ok
    }

    static func bytes(_ n: Int) -> String {
        n < 1024 ? "\(n) B" : n < 1 << 20 ? "\(n / 1024) KiB" : "\(n >> 20) MiB"
    }
}

/// `shopy catalog import`: the files that did not parse (65), what each file held and what was
/// skipped, then the outcome. The outcome is a confirmation (a notice: `-q` leaves it out), as
/// `likes import`'s is.
public struct CatalogImportPresenter: Presenter {
    public func present(_ r: CatalogImportReport, context: Context) -> ExitCode {
        let io = context.io
        for failure in r.failures { io.stderr.line("shopy: " + Sanitizer.clean(failure)) }
        for file in r.files { context.diagnostics.notice("read \(Money.grouped(file.items)) item\(file.items == 1 ? "" : "s") from \(file.name) (\(file.format))") }
        let shown = 20
        for skip in r.skipped.prefix(shown) {
            io.stderr.line("shopy: skipped \(Sanitizer.clean(skip.place))\(skip.productId.map { " (\(Sanitizer.clean($0)))" } ?? ""): \(Sanitizer.clean(skip.reason))")
        }
        if r.skipped.count > shown { io.stderr.line("shopy: … and \(r.skipped.count - shown) more skipped") }
        context.diagnostics.notice("\(Money.grouped(r.added)) added, \(Money.grouped(r.updated)) updated, \(Money.grouped(r.skipped.count)) skipped; the local catalog holds \(Money.grouped(r.total)) items")
        return r.failures.isEmpty ? .ok : .dataError
    }
}

/// `shopy catalog export`: the JSON on stdout, or a notice of where it went.
public struct CatalogExportPresenter: Presenter {
    public func present(_ exported: CatalogExportCommand.Exported, context: Context) -> ExitCode {
        if let bytes = exported.bytes { context.io.stdout.write(bytes: bytes) }
        if let file = exported.file {
            context.diagnostics.notice("exported \(Money.grouped(exported.count)) item\(exported.count == 1 ? "" : "s") to \(file)")
        }
        return .ok
    }
}

/// `shopy catalog remove`: a notice of what went; a warning (and exit 1) per id that was not there.
public struct CatalogRemovePresenter: Presenter {
    public func present(_ outcome: (removed: Int, missing: [String]), context: Context) -> ExitCode {
        context.diagnostics.notice("removed \(Money.grouped(outcome.removed)) item\(outcome.removed == 1 ? "" : "s") from the local catalog")
        for id in outcome.missing { context.diagnostics.warning("\(id) is not in the local catalog") }
        return outcome.missing.isEmpty ? .ok : .failure
    }
}

/// `shopy catalog clear --yes`: what went, the backup and how to restore it (notices, as for
/// `likes clear`: see `ClearedWithBackup`).
public struct CatalogClearPresenter: Presenter {
    public func present(_ cleared: (removed: Int, backup: String?), context: Context) -> ExitCode {
        ClearedWithBackup.report(cleared.removed, ("item", "items"), backup: cleared.backup, whenEmpty: "the local catalog is empty",
                                 restore: "shopy catalog import", context: context)
    }
}
