import ShopYCore
import ShopYBase
/// `shopy history`: recent searches, most recent first.
public struct HistoryCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "history",
        abstract: "List recent searches; remove one or all; turn recording off or on.",
        discussion: "Each query is kept once (its latest time), at most \(HistoryEntry.limit) of them. The table shows local times; JSON, TSV and CSV the UTC time in ISO 8601.",
        options: [clearOption.spec, removeOption.spec, off.spec, on.spec] + formats.specs,
        examples: ["shopy history", "shopy history --remove 방충망", "shopy history --clear", "shopy history --off"])

    static let clearOption = Option.flag("clear", help: "Remove every entry.")
    static let removeOption = Option.list("remove", value: "query", help: "Remove one query (exactly as listed).", type: .string())
    static let off = Option.flag("off", help: "Stop recording searches (kept as a preference).")
    static let on = Option.flag("on", help: "Record searches again.")
    static let formats = SharedOptions.listingFormats

    public var clear: Bool
    public var remove: [String]
    public var recording: Bool?
    public var format: OutputFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("history takes no arguments", hint: "to remove a query: shopy history --remove '\(Echo.value(parsed.positionals.joined(separator: " ")))'")
        }
        clear = parsed[Self.clearOption]
        var seen = Set<String>()
        // Each query once: `--remove a --remove a` says what happened to 'a' once.
        remove = try Self.removeOption.read(parsed).map { $0.trimmingASCIIWhitespace() }.filter { seen.insert($0).inserted }
        if remove.contains(where: \.isEmpty) {
            throw UsageError("--remove needs a query", hint: "give the query exactly as 'shopy history' lists it")
        }
        let on = parsed[Self.on], off = parsed[Self.off]
        if on && off { throw UsageError("--on and --off disagree; give one of them") }
        recording = on ? true : (off ? false : nil)
        if clear && !remove.isEmpty { throw UsageError("--clear removes everything; --remove is not needed with it") }
        format = try Self.formats.read(parsed)
    }

    /// What `history` did: the lines saying what changed, or the history as stored.
    public enum Outcome: Sendable {
        case changed([String])
        case listing([HistoryEntry], recording: Bool)
    }

    public func execute(_ context: Context) async throws -> Outcome {
        let store = LikeSupport.store(context)
        var suites: Set<Suite> = []
        if clear || !remove.isEmpty { suites.insert(.state) }
        if recording != nil { suites.insert(.preferences) }
        if !suites.isEmpty {
            let messages: [String] = try store.update(suites) { settings in
                var messages: [String] = []
                if let recording {
                    settings.historyEnabled = recording
                    messages.append(recording ? "history: recording searches" : "history: not recording searches")
                }
                if clear {
                    let count = settings.history.count
                    if count > 0 { settings.history = [] }
                    messages.append("history: removed \(count) entr\(count == 1 ? "y" : "ies")")
                }
                if !remove.isEmpty {
                    let history = settings.history
                    for query in remove {
                        messages.append(history.contains { $0.query == query }
                            ? "history: removed '\(Sanitizer.clean(query))'" : "history: '\(Sanitizer.clean(query))' is not in the history")
                    }
                    let kept = history.filter { !remove.contains($0.query) }
                    if kept.count != history.count { settings.history = kept }
                }
                // state.json is written: Coupang's rows past their hour keep only their ids.
                if suites.contains(.state) { settings.dropExpiredCoupangData(now: Like.timestamp(context.io.now())) }
                return messages
            }
            return .changed(messages)
        }
        let (history, enabled) = try store.read { settings in (settings.history, settings.historyEnabled) }
        return .listing(history, recording: enabled)
    }

    public var presenter: HistoryPresenter { HistoryPresenter(format: format) }
}
