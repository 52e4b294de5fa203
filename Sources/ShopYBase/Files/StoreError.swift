#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something is wrong with shopy's files. Damaged files are left exactly as they were.
public enum StoreError: ShopyError, Equatable {
    /// The file does not parse, is empty or truncated: path and what is wrong.
    case damaged(path: String, problem: String)
    /// Written by a newer shopy.
    case newerSchema(path: String, found: Int, known: Int)
    /// A file given to `likes import` is not a likes export.
    case invalidImport(path: String, problem: String)
    case io(path: String, operation: String, errno: Int32)
    /// One of shopy's own files is a symbolic link, a FIFO or another non-regular file: it is
    /// neither followed nor opened for reading or writing.
    case unsafeFile(path: String, kind: String)
    case notFound(String)
    /// A file the user named (for `likes import` or `export`) that cannot be used: a FIFO, a device…
    case unusableTarget(path: String, problem: String)
    /// A value that shopy's own reader would refuse (or read differently) once written: it is
    /// not written, so that one bad value never locks the user out of a file.
    case unstorable(path: String, problem: String)

    public var message: String {
        switch self {
        case .damaged(let path, let problem): return "\(path) is damaged: \(problem)"
        case .newerSchema(let path, let found, let known):
            return "\(path) has schema version \(found), newer than this shopy knows (\(known))"
        case .invalidImport(let path, let problem): return "cannot import \(path): \(problem)"
        case .io(let path, let operation, let code): return "cannot \(operation) \(path): \(StoreError.describe(errno: code))"
        case .notFound(let what): return what
        case .unusableTarget(let path, let problem): return "cannot use \(path): \(problem)"
        case .unsafeFile(let path, let kind): return "\(path) is \(kind), not a regular file: shopy neither follows nor uses it"
        case .unstorable(let path, let problem): return "cannot store in \(path): \(problem)"
        }
    }

    public var hint: String? {
        switch self {
        case .damaged: return "the file was left unchanged; 'shopy doctor' shows the state, 'shopy doctor --repair' moves it aside"
        case .newerSchema: return "upgrade shopy, or use the newer version that wrote it"
        case .invalidImport, .unstorable: return "nothing was changed"
        case .unsafeFile(let path, let kind):
            if kind == "a symbolic link" { return "replace the link with a copy of its target: cp --remove-destination \"$(readlink -f \(path))\" \(path)" }
            return "'shopy doctor --repair' moves it aside (a lock is removed)"
        case .io, .notFound, .unusableTarget: return nil
        }
    }

    package static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
