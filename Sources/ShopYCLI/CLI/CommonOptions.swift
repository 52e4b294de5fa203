import ShopYCore
/// Options shared by the commands that search.
public enum CommonOptions {
    public static let format = OptionSpec("format", value: "format", help: "Output: table (default on a terminal), tsv (default otherwise), csv, json or jsonl.",
                                          choices: OutputFormat.allCases.map(\.rawValue))
    public static let json = OptionSpec("json", help: "Same as --format json.")
    public static let source = OptionSpec("source", value: "source", help: "naver or catalog. Default: naver when NAVER_CLIENT_ID and NAVER_CLIENT_SECRET are set, else the offline catalog.",
                                          choices: SourceKind.allCases.map(\.rawValue))
    public static let timeout = OptionSpec("timeout", value: "seconds", help: "Give up after this many seconds in all, retries included (default 10).")
    /// For commands that send several requests (rank, popular): the deadline is each request's.
    public static let requestTimeout = OptionSpec("timeout", value: "seconds", help: "Give up a request after this many seconds, retries included, counted from when the rate limiter lets it go (default 10).")

    /// `--format` / `--json`, or nil for the default.
    public static func format(_ parsed: ParsedArguments) throws(UsageError) -> OutputFormat? {
        let named = try parsed.value("format").map { value throws(UsageError) in
            try ArgumentParser.choice(value, option: "format", as: OutputFormat.self, allowed: OutputFormat.allCases)
        }
        if parsed.flag("json") {
            if let named, named != .json { throw UsageError("--json and --format \(named.rawValue) disagree; give one of them") }
            return .json
        }
        return named
    }

    public static func source(_ parsed: ParsedArguments) throws(UsageError) -> SourceKind? {
        try parsed.value("source").map { value throws(UsageError) in
            try ArgumentParser.choice(value, option: "source", as: SourceKind.self, allowed: SourceKind.allCases)
        }
    }

    public static func timeout(_ parsed: ParsedArguments) throws(UsageError) -> Double {
        guard let text = parsed.value("timeout") else { return 10 }
        return try ArgumentParser.decimal(text, option: "timeout", in: 0...3600, unit: "seconds", aboveLowerBound: true)
    }
}
