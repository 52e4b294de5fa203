import ShopYCore
import ShopYBase
import ShopYCatalog

extension NoResultsHelp {
    /// On stdout after a table's "no results" line, wrapped to the width.
    static func table(_ catalog: Catalog, io: IO) {
        for line in lines(for: catalog) {
            for wrapped in Help.wrap(line, width: io.columns, indent: 2, hanging: 4) {
                io.stdout.line(Style.dim.apply(wrapped, enabled: io.useColor))
            }
        }
    }

    /// On stderr as hints, when stdout is data (tsv, csv, json, jsonl); left out with --quiet.
    /// (Hints that belong to a notice: left out with --quiet, as the notice is.)
    static func hints(_ catalog: Catalog, context: Context) {
        guard !context.io.quiet else { return }
        for line in lines(for: catalog) { context.diagnostics.hint(TerminalText(sanitizing: line)) }
    }
}
