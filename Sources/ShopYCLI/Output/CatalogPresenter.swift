import ShopYCore
import ShopYBase
import ShopYCatalog

/// `shopy catalog`: the summary as lines (table), its categories as TSV or CSV (category,
/// count), or all of it as JSON.
public struct CatalogSummaryPresenter: Presenter {
    var format: OutputFormat
    /// The table's categories and origins past this many are counted, not listed.
    static let shown = 20

    public func present(_ r: CatalogSummaryReport, context: Context) -> ExitCode {
        let io = context.io
        switch format {
        case .json, .jsonl:
            var o = JSONObject()
            o.appendUnchecked("embedded", .int(r.embedded))
            o.appendUnchecked("local", .int(r.local))
            o.appendUnchecked("path", .string(r.path))
            o.appendUnchecked("bytesOnDisk", .int(r.bytesOnDisk))
            o.appendUnchecked("recording", .bool(r.recording))
            o.appendUnchecked("categories", .array(r.categories.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            o.appendUnchecked("origins", .array(r.origins.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            io.writeJSON(.object(o))
        case .tsv:
            for c in r.categories { io.stdout.line("\(Sanitizer.clean(c.name))\t\(c.count)") }
        case .csv:
            io.stdout.write("category,count\r\n" + r.categories.map { "\(Render.csvField(Render.csvText(Sanitizer.clean($0.name)))),\($0.count)\r\n" }.joined())
        case .table:
            let total = r.embedded + r.local
            io.stdout.line("offline catalog: \(Money.grouped(total)) item\(total == 1 ? "" : "s") (\(Money.grouped(r.embedded)) embedded, recorded in 2025; \(Money.grouped(r.local)) local)")
            io.stdout.line("local catalog: \(Sanitizer.clean(r.path)) (\(Self.bytes(r.bytesOnDisk)) on disk with its index)")
            io.stdout.line("recording: \(r.recording ? "on (items the naver source lists are added)" : "off ('shopy config set catalog.record on' adds what the naver source lists)")")
            Self.counts("categories:", r.categories, more: "--format tsv lists them all", io: io)
            Self.counts("local items came from:", r.origins, more: "--json lists them all", io: io)
        }
        return .ok
    }

    /// A titled list of counts, right-aligned, names cut to the width; nothing when empty.
    static func counts(_ title: String, _ counts: [CatalogSummaryReport.Count], more: String, io: IO) {
        guard !counts.isEmpty else { return }
        io.stdout.line(title)
        let listed = counts.prefix(shown)
        let width = listed.map { Money.grouped($0.count).count }.max() ?? 0
        for c in listed {
            let number = Money.grouped(c.count)
            let lead = "  " + String(repeating: " ", count: width - number.count) + number + "  "
            io.stdout.line(lead + DisplayWidth.truncate(Sanitizer.clean(c.name), toWidth: max(1, io.columns - lead.count)))
        }
        if counts.count > shown { io.stdout.line("  … \(counts.count - shown) more (\(more))") }
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
        context.diagnostics.notice("\(Money.grouped(r.added)) added, \(Money.grouped(r.updated)) updated, \(Money.grouped(r.skipped.count)) skipped; the local catalog holds \(Money.grouped(r.total)) item\(r.total == 1 ? "" : "s")")
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
