/// shopy's exit codes (sysexits.h where one fits). docs/environment.md and the man page list
/// them; scripts depend on them.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case ok = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case unavailable = 69
    case ioError = 74
    case temporary = 75
    case authentication = 77
}

/// An error shopy explains to the user: one line, and at most one hint.
public protocol ShopyError: Error, Sendable {
    var message: String { get }
    var hint: String? { get }
}

