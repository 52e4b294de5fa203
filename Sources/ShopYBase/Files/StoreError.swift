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
            guard kind == "a symbolic link" else { return "'shopy doctor --repair' moves it aside (a lock is removed)" }
            let quoted = StoreError.shellWord(path)
            // A lock holds nothing: the link is what is wrong, whatever it points to.
            if path.hasSuffix(".lock") {
                return "a lock holds nothing: remove the link (rm \(quoted)) and shopy makes a new lock; the link's target is not touched"
            }
            guard access(path, F_OK) == 0 else {
                let to = StoreError.linkTarget(path).map { " (\(Sanitizer.clean($0)))" } ?? ""
                return "its target\(to) does not exist: remove the link (rm \(quoted)) to start afresh, or put the file there and replace the link with it"
            }
            return "replace the link with a copy of its target: cp --remove-destination \"$(readlink -f \(path))\" \(path)"
        case .io, .notFound, .unusableTarget: return nil
        }
    }

    /// What the symbolic link at `path` points to, nil when it is not one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `text` as one shell word: as it is when it needs no quoting, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "-_./+@%:=,".utf8.contains(b)
        }
        return plain && !text.isEmpty ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }

    package static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
