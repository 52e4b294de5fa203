/// Why a JSON text could not be read, with the byte offset where it went wrong.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case empty
        case truncated
        case unexpected(String)
        case invalidString(String)
        case invalidNumber
        case trailingData
        case tooDeep
    }

    public var reason: Reason
    public var offset: Int

    package init(reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .empty: return "it is empty"
        case .truncated: return "it ends too early at byte \(offset) (truncated?)"
        case .unexpected(let what): return "unexpected \(what) at byte \(offset)"
        case .invalidString(let why): return "invalid string at byte \(offset): \(why)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .trailingData: return "unexpected data after the end at byte \(offset)"
        case .tooDeep: return "nesting too deep at byte \(offset)"
        }
    }
}
