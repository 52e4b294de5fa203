import ShopYCore
import ShopYBase

/// What a listing shows of where its items came from: the `source` of each item in JSON, JSONL
/// and CSV (with Coupang's `rocket` and `freeShipping`), a SOURCE column in tables that mix
/// sources, the failures of a merged listing, and Coupang's partner disclosure under its results.
enum SourceColumns {
    /// The item's source members, after the product's own (listings only: a stored like has
    /// none): `source`, and on Coupang's items its `rocket` and `freeShipping` flags.
    static func appendJSON(_ p: Product, to o: inout JSONObject) {
        guard let source = p.source else { return }
        o.appendUnchecked("source", .string(source.rawValue))
        guard source == .coupang else { return }
        o.appendUnchecked("rocket", p.rocket.map(JSONValue.bool) ?? .null)
        o.appendUnchecked("freeShipping", p.freeShipping.map(JSONValue.bool) ?? .null)
    }

    /// A table shows a SOURCE column when more than one source contributed.
    static func showsSource(_ items: [ListedItem]) -> Bool {
        var first: SourceKind?
        for item in items {
            guard let source = item.product.source else { continue }
            if let first, first != source { return true }
            first = source
        }
        return false
    }

    /// Whether Coupang's results are among the items (its terms ask for the disclosure then).
    static func hasCoupang(_ items: [ListedItem]) -> Bool {
        items.contains { $0.product.source == .coupang }
    }

    /// The disclosure under a table, once: whole, wrapped to the width (Coupang's terms ask
    /// for all of it; cut to one line it would not be the disclosure).
    static func disclosureLines(columns: Int, color: Bool) -> [String] {
        BrowseRender.wrap(CoupangSource.disclosure, width: max(1, columns)).map { Style.dim.apply($0, enabled: color) }
    }

    /// One warning a failed source of a merged listing: named, with why; the others are listed.
    static func warn(_ failures: [SourceFailure], diagnostics: any DiagnosticsSink) {
        for failure in failures {
            let named = NamedSourceError.wrap(failure.error, source: failure.source)
            let message = (named as? ShopyError)?.message ?? "\(named)"
            diagnostics.warning(TerminalText(sanitizing: message + " (listing the other sources)"))
        }
    }

    /// `[{"source", "message", "hint", "exitCode"}]` for a merged listing's failures.
    static func failuresJSON(_ failures: [SourceFailure]) -> JSONValue {
        .array(failures.map { failure in
            let named = NamedSourceError.wrap(failure.error, source: failure.source)
            var o = JSONObject()
            o.appendUnchecked("source", .string(failure.source.rawValue))
            o.appendUnchecked("message", .string((named as? ShopyError)?.message ?? "\(named)"))
            o.appendUnchecked("hint", .string(orNull: (named as? ShopyError)?.hint))
            o.appendUnchecked("exitCode", .int(ExitCode(for: named).rawValue))
            return .object(o)
        })
    }
}
