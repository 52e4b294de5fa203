/// What `like`, `unlike`, `open`, `copy` and `likes refresh|alert` were given: a row of the
/// last listing or a productId. (Parsing the argument is the CLI's: `LikeTarget.parse`.)
public enum LikeTarget: Equatable, Sendable {
    case row(String)
    case id(String)

    /// As the user gave it.
    public var text: String {
        switch self {
        case .row(let row): return row
        case .id(let id): return id
        }
    }
}
