import ShopYCore
import ShopYBase
/// The option groups many commands share, each declared once: the output format (with
/// `--json`), the source, the timeout. A command lists the group's specs in its spec and reads
/// them through these declarations; the formats a command accepts are part of its declaration
/// (a `FormatOptions`), so help, the man page and completions list exactly those and any other
/// is refused (64, the accepted ones listed).
public enum SharedOptions {
    /// Every listing format, as search, rank, popular, likes, history and trends take.
    public static let listingFormats = FormatOptions(accepting: OutputFormat.allCases,
                                                     notes: [.table: "default on a terminal", .tsv: "default otherwise"])

    public static let source = Option.optional("source", value: "source",
                                               help: "naver, 11st, coupang or catalog, a comma list of them (11st,coupang), or all (every live source whose keys are set). Default: every live source whose keys are set, else the offline catalog.",
                                               type: ValueType<SourceSelection>.sources)

    /// `--timeout SECONDS`: more than 0, at most `maximum`; each command says what it bounds.
    public static func timeout(help: String, maximum: Double = 3600, default seconds: Double = 10) -> Option<Double> {
        Option.value("timeout", value: "seconds", help: help, type: .decimal(0...maximum, unit: "seconds", aboveLowerBound: true), default: seconds)
    }

    /// The whole command's deadline, retries included.
    public static let timeout = timeout(help: "Give up after this many seconds in all, retries included (default 10).")
    /// For commands that send several requests (rank, popular): the deadline is each request's.
    public static let requestTimeout = timeout.withHelp(
        "Give up a request after this many seconds, retries included, counted from when the rate limiter lets it go (default 10).")

    /// `--rate N`: requests a second, for the commands that pace several requests (rank, likes refresh).
    /// `--yes` of the commands that remove everything (after a backup): without it nothing is.
    public static let yes = Option.flag("yes", help: "Confirm. Without it nothing is removed.")

    public static let rate = Option.value("rate", value: "n", help: "At most this many requests a second, 0.1 to 100 (default 8).",
                                          type: .decimal(RateLimiter.rates, unit: "requests a second"), default: 8)
}

/// `--format F` and `--json` (when json is accepted), for a command that accepts `formats`.
public struct FormatOptions<Format: RawRepresentable & CaseIterable & Sendable & Equatable>: Sendable where Format.RawValue == String {
    public let accepted: [Format]
    public let format: Option<Format?>
    public let json: Option<Bool>?

    /// `notes`: what help says after a format's name (`table (default on a terminal)`);
    /// `lead`: the words before the list; `jsonFlag: false` for a command that takes json as
    /// a format but has no `--json` (the widget).
    public init(accepting accepted: [Format], notes: [Format: String] = [:], lead: String = "Output: ", jsonFlag: Bool = true) where Format: Hashable {
        self.accepted = accepted
        let names = accepted.map { format in format.rawValue + (notes[format].map { " (\($0))" } ?? "") }
        format = Option.optional("format", value: "format", help: lead + Self.sentence(names) + ".", type: .choice(accepted))
        json = jsonFlag && accepted.contains { $0.rawValue == "json" } ? Option.flag("json", help: "Same as --format json.") : nil
    }

    /// The options to list in the command's spec.
    public var specs: [OptionSpec] { [format.spec] + (json.map { [$0.spec] } ?? []) }

    /// `--format` or `--json`, nil for the command's default; the two must agree.
    public func read(_ parsed: ParsedArguments) throws(UsageError) -> Format? {
        let named = try format.read(parsed)
        if let json, parsed[json] {
            if let named, named.rawValue != "json" { throw UsageError("--json and --format \(named.rawValue) disagree; give one of them") }
            return accepted.first { $0.rawValue == "json" }
        }
        return named
    }

    /// `a`, `a or b`, `a, b or c`.
    static func sentence(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
}
