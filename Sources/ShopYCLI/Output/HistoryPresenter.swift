import ShopYCore
import ShopYBase

/// `shopy history`: what changed, or the searches in table, TSV, CSV, JSON or JSONL.
public struct HistoryPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ outcome: HistoryCommand.Outcome, context: Context) -> ExitCode {
        let io = context.io
        let history: [HistoryEntry], enabled: Bool
        switch outcome {
        case .changed(let messages):
            for message in messages { io.stdout.line(message) }
            return .ok
        case .listing(let entries, let recording):
            (history, enabled) = (entries, recording)
        }
        switch format.resolved(for: io) {
        case .json:
            var o = JSONObject()
            o.appendUnchecked("recording", .bool(enabled))
            o.appendUnchecked("items", .array(history.map { .object(JSONObject(["query": .string($0.query), "at": .string($0.at)])) }))
            io.writeJSON(.object(o))
        case .jsonl:
            for entry in history {
                io.stdout.write(bytes: JSONWriter.serialize(.object(JSONObject(["query": .string(entry.query), "at": .string(entry.at)]))) + [0x0A])
            }
        case .tsv:
            for entry in history { io.stdout.line(entry.at + "\t" + Sanitizer.clean(entry.query)) }
        case .csv:
            io.stdout.write("at,query\r\n")
            for entry in history { io.stdout.write(Render.csvField(entry.at) + "," + Render.csvField(Render.csvText(Sanitizer.clean(entry.query))) + "\r\n") }
        case .table:
            if history.isEmpty {
                io.stdout.line(enabled ? "no searches yet" : "no searches (recording is off: 'shopy history --on')")
            }
            let width = String(history.count).count
            for (i, entry) in history.enumerated() {
                let number = String(repeating: " ", count: width - String(i + 1).count) + String(i + 1)
                // Local time for people (like status --watch); JSON, TSV and CSV keep UTC ISO 8601.
                let at = LocalTime.display(entry.at)
                let room = max(1, io.columns - width - 2 - at.count - 2)
                let query = DisplayWidth.truncate(Sanitizer.clean(entry.query), toWidth: room)
                io.stdout.line("\(Style.dim.apply(number, enabled: io.useColor))  \(Style.dim.apply(at, enabled: io.useColor))  \(query)")
            }
            if !enabled && !history.isEmpty { io.stdout.line("(recording is off: 'shopy history --on' turns it back on)") }
        }
        return .ok
    }
}
