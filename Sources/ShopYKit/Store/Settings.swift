import Foundation

/// A file of settings: likes, state (history and the last listing) and preferences each live in
/// their own file, so that a search never rewrites the likes.
public struct Suite: Hashable, Sendable, Comparable {
    public let name: String
    /// The schema version this build writes and the newest it reads.
    public let schema: Int

    public var fileName: String { name + ".json" }
    var lockName: String { "." + name + ".lock" }

    public static let likes = Suite(name: "likes", schema: 1)
    public static let state = Suite(name: "state", schema: 1)
    public static let preferences = Suite(name: "preferences", schema: 1)
    public static let all: [Suite] = [likes, state, preferences]

    public static func < (a: Suite, b: Suite) -> Bool { a.name < b.name }
}

/// A value with its own byte codec, for stored values too large for Codable's speed on Linux
/// (the likes). Other values go through Codable.
public protocol RawStorable {
    static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> Self
    func encodeStored() -> [UInt8]
}

public struct StoredValueError: Error, Sendable {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
}

/// Declares one stored setting: its key, its default, its type and the file that holds it.
/// Reads and writes go through the enclosing `Settings` object's transaction; code that uses a
/// setting never sees paths or JSON.
@propertyWrapper
public struct Stored<Value: Codable> {
    public let key: String
    public let suite: Suite
    let defaultValue: Value

    public init(wrappedValue: Value, _ key: String, suite: Suite) {
        self.key = key
        self.suite = suite
        self.defaultValue = wrappedValue
    }

    @available(*, unavailable, message: "@Stored works only inside Settings")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    public static subscript(_enclosingInstance settings: Settings, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Settings, Value>,
                            storage storageKeyPath: ReferenceWritableKeyPath<Settings, Stored<Value>>) -> Value {
        get {
            let wrapper = settings[keyPath: storageKeyPath]
            return settings.session.value(wrapper.key, in: wrapper.suite, default: wrapper.defaultValue)
        }
        set {
            let wrapper = settings[keyPath: storageKeyPath]
            settings.session.set(newValue, for: wrapper.key, in: wrapper.suite)
        }
    }
}

/// A `@Stored` declaration seen without its value type, so that a transaction can check every
/// value of a file before it rewrites that file.
protocol StoredDeclaration {
    var suite: Suite { get }
    func check(in session: Session)
}

extension Stored: StoredDeclaration {
    func check(in session: Session) {
        _ = session.value(key, in: suite, default: defaultValue)
    }
}

/// Everything shopy stores, declared once.
public final class Settings {
    let session: Session

    init(session: Session) {
        self.session = session
    }

    /// Liked products with their snapshots.
    @Stored("likes", suite: .likes) public var likes = LikeCollection()
    /// Recent searches, most recent first.
    @Stored("history", suite: .state) public var history: [HistoryEntry] = []
    /// The rows of the last listing, for `shopy like ROW`.
    @Stored("lastListing", suite: .state) public var lastListing: LastListing? = nil
    /// Whether searches are recorded in the history.
    @Stored("historyEnabled", suite: .preferences) public var historyEnabled = true
    /// The default sections of `shopy popular` (nil: the built-in ones).
    @Stored("popularSections", suite: .preferences) public var popularSections: [String]? = nil
    /// `shopy config`: defaults for command options (key → value as typed, checked on set).
    @Stored("config", suite: .preferences) public var config: [String: String] = [:]

    /// Every like, decoded. Reading `likes` checks only the list and the ids (that is what keeps
    /// liking fast); a like that then fails to decode is damage in likes.json too, so it is
    /// reported the same way, with the file's path, rather than as an unexpected error.
    public func allLikes() throws(StoreError) -> [Like] {
        let likes = self.likes
        do {
            return try likes.all()
        } catch {
            throw .damaged(path: session.store.path(of: _likes.suite), problem: "\"\(_likes.key)\" \(error.problem)")
        }
    }

    /// Every like as checked JSON bytes (see `LikeCollection.rawLikes`); the checks ran on load.
    public func allRawLikes() -> [LikeCollection.RawLike] { likes.rawLikes() }
}

/// The store: a directory of suite files, each with a lock file beside it.
public final class SettingsStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public convenience init(environment: [String: String]) {
        self.init(directory: FileIO.home(environment: environment))
    }

    public func path(of suite: Suite) -> String { directory + "/" + suite.fileName }

    /// Reads without locking: every file is replaced atomically, so a reader sees a whole one.
    public func read<T>(_ body: (Settings) throws -> T) throws -> T {
        let session = Session(store: self, writable: [])
        let result = try session.run(body)
        if let error = session.error { throw error }
        return result
    }

    /// A read-modify-write transaction: exclusive locks on `suites` for its whole length; the
    /// suites it changed are written (atomically) at the end. When anything fails, nothing is
    /// written.
    public func update<T>(_ suites: Set<Suite>, _ body: (Settings) throws -> T) throws -> T {
        try FileIO.ensureDirectory(directory)
        var locks: [FileLock] = []
        defer { locks.forEach { $0.release() } }
        for suite in suites.sorted() {
            locks.append(try FileLock(path: directory + "/" + suite.lockName))
        }
        let session = Session(store: self, writable: suites)
        // Load what we will write first, so a damaged file stops us before any work.
        for suite in suites.sorted() { _ = try session.document(suite) }
        let result = try session.run(body)
        if let error = session.error { throw error }
        try session.commit()
        return result
    }
}

/// One suite file, as members of raw JSON bytes.
struct SuiteDocument {
    var schema: Int
    var keys: [String] = []
    /// Slices of the file as read (no copy), or new bytes for values set in this transaction.
    var raw: [ArraySlice<UInt8>] = []

    func rawValue(_ key: String) -> ArraySlice<UInt8>? {
        keys.firstIndex(of: key).map { raw[$0] }
    }

    mutating func setRaw(_ bytes: ArraySlice<UInt8>, for key: String) {
        if let index = keys.firstIndex(of: key) {
            raw[index] = bytes
        } else {
            keys.append(key)
            raw.append(bytes)
        }
    }

    /// Parses a suite file. Any problem is reported with the file's path; nothing is changed.
    static func parse(_ bytes: [UInt8], path: String, suite: Suite) throws(StoreError) -> SuiteDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .damaged(path: path, problem: bytes.isEmpty ? "it is empty" : "it holds only whitespace")
        }
        var document = SuiteDocument(schema: 0)
        var schema: Int?
        let result: Result<Void, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            // One pass over the whole file for UTF-8, then a structural walk that skips strings
            // sixteen bytes at a time: several times faster than checking string by string.
            guard JSONParser.isValidUTF8(buffer) else {
                return .failure(JSONParseError(reason: .invalidString("not valid UTF-8"), offset: 0))
            }
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false
            do throws(JSONParseError) {
                try parser.forEachMember { key, start, parser throws(JSONParseError) in
                    let range = try parser.skipValue()
                    if key == "schema" {
                        schema = Int(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self))
                    } else {
                        document.keys.append(key)
                        document.raw.append(bytes[range])
                    }
                }
                try parser.expectEnd()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            if case .unexpected = error.reason, error.offset == 0 || bytes.first(where: { $0 > 0x20 }) != UInt8(ascii: "{") {
                throw .damaged(path: path, problem: "it is not a JSON object")
            }
            throw .damaged(path: path, problem: "it is not valid JSON: \(error)")
        }
        guard let schema, schema >= 1 else { throw .damaged(path: path, problem: "it has no valid \"schema\" version") }
        if schema > suite.schema { throw .newerSchema(path: path, found: schema, known: suite.schema) }
        document.schema = schema
        return document
    }

    /// `{"schema":1,` then one member a line: readable, diff-friendly, and cheap to write.
    /// The file as pieces to write one after another: the members' bytes are not copied into
    /// one buffer first (a 5 MB likes list would be, for nothing).
    func pieces(schema: Int) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = [ArraySlice("{\"schema\":\(schema)".utf8)]
        for (key, value) in zip(keys, raw) {
            var writer = JSONWriter()
            writer.append(",\n")
            writer.writeString(key)
            writer.bytes.append(UInt8(ascii: ":"))
            pieces.append(writer.bytes[...])
            pieces.append(value)
        }
        pieces.append(ArraySlice("}\n".utf8))
        return pieces
    }
}

/// The state of one transaction: loaded documents, decoded values, what changed.
final class Session {
    let store: SettingsStore
    let writable: Set<Suite>
    private var documents: [Suite: SuiteDocument] = [:]
    private var cache: [String: Any] = [:]
    private var dirty: Set<Suite> = []
    /// The first problem met while reading a value (a getter cannot throw): the transaction fails.
    private(set) var error: StoreError?

    init(store: SettingsStore, writable: Set<Suite>) {
        self.store = store
        self.writable = writable
    }

    /// Runs a transaction's body. A getter that met a damaged file handed the body its default
    /// (a getter cannot throw), so an error the body then threw came from that stand-in, e.g.
    /// "there is no listing yet" when state.json is damaged: the damage is what is reported.
    func run<T>(_ body: (Settings) throws -> T) throws -> T {
        do {
            return try body(Settings(session: self))
        } catch {
            throw self.error ?? error
        }
    }

    func document(_ suite: Suite) throws(StoreError) -> SuiteDocument {
        if let document = documents[suite] { return document }
        let path = store.path(of: suite)
        let document: SuiteDocument
        if let bytes = try FileIO.read(path) {
            document = try SuiteDocument.parse(bytes, path: path, suite: suite)
        } else {
            document = SuiteDocument(schema: suite.schema)
        }
        documents[suite] = document
        try checkValues(of: suite)
        return document
    }

    /// Decodes every declared value of a file as soon as it is loaded, not only the one asked
    /// for: a file is either whole or damaged. Otherwise a commit, which rewrites the whole file,
    /// would quietly carry the damage of one key along with a write of another (or paper over a
    /// damaged value it replaces without reading it), and `like 3` could take its row from a
    /// listing kept beside a damaged history that stopped the last search from saving its own.
    /// The declarations are found by reflection, so a new @Stored setting is checked without a
    /// list to keep up to date.
    private func checkValues(of suite: Suite) throws(StoreError) {
        // Only what this file's values report is thrown; an earlier problem stays the first one.
        let earlier = error
        error = nil
        defer { error = earlier ?? error }
        for child in Mirror(reflecting: Settings(session: self)).children {
            if let declaration = child.value as? StoredDeclaration, declaration.suite == suite {
                declaration.check(in: self)
            }
        }
        if let error { throw error }
    }

    func value<Value: Codable>(_ key: String, in suite: Suite, default defaultValue: Value) -> Value {
        let cacheKey = suite.name + "/" + key
        // Unwrap the dictionary's optional first: `nil as? Value` succeeds when Value is optional.
        if let entry = cache[cacheKey], let cached = entry as? Value { return cached }
        let document: SuiteDocument
        do {
            document = try self.document(suite)
        } catch {
            self.error = self.error ?? error
            return defaultValue
        }
        // Loading the file checks (and caches) every value in it: this one may be there now.
        if let entry = cache[cacheKey], let cached = entry as? Value { return cached }
        guard let raw = document.rawValue(key) else { return defaultValue }
        do {
            let value: Value
            if let type = Value.self as? RawStorable.Type {
                value = try type.decodeStored(raw) as! Value
            } else {
                value = try JSONDecoder().decode(Value.self, from: Data(raw))
            }
            cache[cacheKey] = value
            return value
        } catch {
            let problem = (error as? StoredValueError)?.problem ?? Session.describe(error)
            self.error = self.error ?? .damaged(path: store.path(of: suite), problem: "\"\(key)\" \(problem)")
            return defaultValue
        }
    }

    func set<Value: Codable>(_ value: Value, for key: String, in suite: Suite) {
        precondition(writable.contains(suite), "\(suite.name) is not writable in this transaction")
        guard var document = try? document(suite) else { return }
        let bytes: [UInt8]
        if let storable = value as? RawStorable {
            bytes = storable.encodeStored()
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(value) else {
                error = error ?? .damaged(path: store.path(of: suite), problem: "\"\(key)\" could not be encoded")
                return
            }
            bytes = Array(data)
        }
        document.setRaw(bytes[...], for: key)
        documents[suite] = document
        cache[suite.name + "/" + key] = value
        dirty.insert(suite)
    }

    func commit() throws(StoreError) {
        for suite in dirty.sorted() {
            guard let document = documents[suite] else { continue }
            try FileIO.atomicWrite(pieces: document.pieces(schema: suite.schema), to: store.path(of: suite))
        }
        dirty.removeAll()
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
                let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                return "does not have the expected shape" + (path.isEmpty ? "" : " at \(path)")
            @unknown default:
                return "does not have the expected shape"
            }
        }
        return "does not decode"
    }
}
