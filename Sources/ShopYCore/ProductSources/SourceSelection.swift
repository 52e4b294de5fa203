import ShopYBase
/// What `--source`, the config key `source` and `SHOPY_SOURCE` say: one source, a comma list
/// (`11st,coupang`), or `all` (every live source whose keys are set). Without any, a command
/// uses every live source with keys, else the offline catalog.
public enum SourceSelection: Equatable, Sendable {
    case list([SourceKind])
    case all

    /// One source alone (`--source naver`).
    public static let naver = SourceSelection.list([.naver])
    public static let elevenst = SourceSelection.list([.elevenst])
    public static let coupang = SourceSelection.list([.coupang])
    public static let catalog = SourceSelection.list([.catalog])

    /// What the words may be, for help and completion.
    public static let words = SourceKind.allCases.map(\.rawValue) + ["all"]

    /// Parses `text` (case ignored, spaces around commas allowed, each source once); the error
    /// is the sentence to print.
    public static func parse(_ text: String) -> Result<SourceSelection, SelectionProblem> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingASCIIWhitespace().lowercased() }
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else { return .failure(.empty) }
        if parts.contains("all") {
            return parts.count == 1 ? .success(.all) : .failure(.allWithOthers)
        }
        var kinds: [SourceKind] = []
        for part in parts {
            guard let kind = SourceKind(rawValue: part) else { return .failure(.unknown(part)) }
            if kinds.contains(kind) { return .failure(.repeated(part)) }
            kinds.append(kind)
        }
        return .success(.list(kinds))
    }

    /// The normal form: `11st,coupang`, `all`.
    public var text: String {
        switch self {
        case .all: return "all"
        case .list(let kinds): return kinds.map(\.rawValue).joined(separator: ",")
        }
    }

    /// Why a selection was refused.
    public enum SelectionProblem: Error, Equatable, Sendable {
        case empty, allWithOthers, unknown(String), repeated(String)

        /// The word to suggest a neighbour for, when one was not known.
        public var unknownWord: String? { if case .unknown(let word) = self { return word } else { return nil } }

        public var sentence: String {
            switch self {
            case .empty: return "a source list has an empty name"
            case .allWithOthers: return "all names every live source with keys already; give it alone"
            case .unknown(let word): return "'\(Sanitizer.clean(word))' is not a source"
            case .repeated(let word): return "\(Sanitizer.clean(word)) is named twice"
            }
        }
    }

    /// The sources a command asks, in order, and whether that is the default's catalog (no
    /// live source has keys: the catalog's notice says why). A source named whose keys are
    /// missing is an error naming the variables; nothing is sent.
    public static func resolve(_ selection: SourceSelection?, keys: SourceKeys) throws(SourceError) -> (kinds: [SourceKind], fellBack: Bool) {
        switch selection {
        case nil:
            let live = keys.withKeys
            return live.isEmpty ? ([.catalog], true) : (live, false)
        case .all?:
            let live = keys.withKeys
            guard !live.isEmpty else { throw .noLiveSource }
            return (live, false)
        case .list(let kinds)?:
            for kind in kinds where kind.isLive {
                let missing = keys.missing(kind)
                guard missing.isEmpty else {
                    throw kind == .naver ? .missingKeys : .keysNotSet(source: kind, variables: missing)
                }
            }
            return (kinds, false)
        }
    }
}
