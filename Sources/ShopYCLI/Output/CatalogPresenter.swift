import ShopYCore
/// How `shopy catalog` reports: plain lines (or JSON for the summary).
enum CatalogPresenter {
    static func summary(_ r: CatalogSummaryReport, json: Bool, io: IO) {
        if json {
            var o = JSONObject()
            o.appendUnchecked("embedded", .int(r.embedded))
            o.appendUnchecked("local", .int(r.local))
            o.appendUnchecked("path", .string(r.path))
            o.appendUnchecked("bytesOnDisk", .int(r.bytesOnDisk))
            o.appendUnchecked("recording", .bool(r.recording))
            o.appendUnchecked("categories", .array(r.categories.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            o.appendUnchecked("origins", .array(r.origins.map { c in .object(JSONObject(["name": .string(c.name), "count": .int(c.count)])) }))
            io.stdout.line(JSONWriter.string(.object(o), pretty: true))
            return
        }
        io.stdout.line("offline catalog: \(Money.grouped(r.embedded + r.local)) items (\(Money.grouped(r.embedded)) embedded, recorded in 2025; \(Money.grouped(r.local)) local)")
        io.stdout.line("local catalog: \(Sanitizer.clean(r.path)) (\(bytes(r.bytesOnDisk)) on disk with its index)")
        io.stdout.line("recording: \(r.recording ? "on (items the naver source lists are added)" : "off ('shopy config set catalog.record on' adds what the naver source lists)")")
        if !r.categories.isEmpty {
            io.stdout.line("categories:")
            for c in r.categories.prefix(20) { io.stdout.line("  \(Money.grouped(c.count))\t\(Sanitizer.clean(c.name))") }
            if r.categories.count > 20 { io.stdout.line("  … \(r.categories.count - 20) more (--json lists them all)") }
            io.stdout.line("came from:")
            for c in r.origins.prefix(20) { io.stdout.line("  \(Money.grouped(c.count))\t\(Sanitizer.clean(c.name))") }
            if r.origins.count > 20 { io.stdout.line("  … \(r.origins.count - 20) more (--json lists them all)") }
        }
    }

    static func imported(_ r: CatalogImportReport, context: Context) {
        let io = context.io
        for failure in r.failures { io.stderr.line("shopy: " + Sanitizer.clean(failure)) }
        for file in r.files { context.diagnostics.notice("read \(Money.grouped(file.items)) item\(file.items == 1 ? "" : "s") from \(file.name) (\(file.format))") }
        let shown = 20
        for skip in r.skipped.prefix(shown) {
            io.stderr.line("shopy: skipped \(Sanitizer.clean(skip.place))\(skip.productId.map { " (\(Sanitizer.clean($0)))" } ?? ""): \(Sanitizer.clean(skip.reason))")
        }
        if r.skipped.count > shown { io.stderr.line("shopy: … and \(r.skipped.count - shown) more skipped") }
        io.stdout.line("\(Money.grouped(r.added)) added, \(Money.grouped(r.updated)) updated, \(Money.grouped(r.skipped.count)) skipped; the local catalog holds \(Money.grouped(r.total)) items")
    }

    static func bytes(_ n: Int) -> String {
        n < 1024 ? "\(n) B" : n < 1 << 20 ? "\(n / 1024) KiB" : "\(n >> 20) MiB"
    }
}
