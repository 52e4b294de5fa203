/// The network path is not usable.
import ShopYBase

public enum NetworkError: ShopyError, Equatable {
    /// No interface with a default route: fail at once instead of waiting for a timeout.
    case offline(String)
    case unsupported(String)

    public var message: String {
        switch self {
        case .offline(let why): return "offline: \(why)"
        case .unsupported(let what): return what
        }
    }

    public var hint: String? {
        switch self {
        case .offline: return "use --source catalog to search the offline catalog"
        case .unsupported: return nil
        }
    }
}
