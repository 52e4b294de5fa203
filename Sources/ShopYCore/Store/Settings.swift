import Foundation
import ShopYBase

/// A file of settings: likes, state (history and the last listing) and preferences each live in
/// their own file, so that a search never rewrites the likes.
public struct Suite: Hashable, Sendable, Comparable {
    public let name: String
    /// The schema version this build writes and the newest it reads.
    public let schema: Int
    /// Kept as a snapshot plus a journal of changes and an index (see `LikesBase`), so that a
    /// change appends one line instead of rewriting the file. Only the likes are.
    public var journaled = false
    /// The most bytes its file can hold (`StoreFileLimits`): read no further, never written past.
    public let maxBytes: Int

    public var fileName: String { name + ".json" }
    public var lockName: String { "." + name + ".lock" }

    /// Schema 2: a snapshot with a generation, continued by likes.journal (schema 1 files are
    /// read, and migrated by the first write).
    public static let likes = Suite(name: "likes", schema: 2, journaled: true, maxBytes: StoreFileLimits.likesSnapshot)
    public static let state = Suite(name: "state", schema: 1, maxBytes: StoreFileLimits.state)
    public static let preferences = Suite(name: "preferences", schema: 1, maxBytes: StoreFileLimits.preferences)
    /// Price history and alerts of likes (`shopy likes refresh`), apart so liking stays one line.
    public static let prices = Suite(name: "prices", schema: 1, maxBytes: StoreFileLimits.prices)
    public static let all: [Suite] = [likes, state, preferences, prices]

    public static func < (a: Suite, b: Suite) -> Bool { a.name < b.name }
}

/// A value with its own byte codec, for stored values too large for Codable's speed on Linux
/// (the likes). Other values go through Codable.
public protocol RawStorable {
    static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> Self
    func encodeStored() -> [UInt8]
}

/// The byte codec of a `RawStorable` value, taken where its `@Stored` declaration is compiled: a
/// run-time `as? RawStorable` of a type is a conformance lookup, a scan of every conformance
/// record in the binary the first time for each type (tens of thousands, Foundation linked in).
struct RawCodec<Value> {
    let decode: (ArraySlice<UInt8>) throws(StoredValueError) -> Value
    let encode: (Value) -> [UInt8]
}

public struct StoredValueError: Error, Sendable {
    public var problem: String
    public init(_ problem: String) { self.problem = problem }
}

/// Declares one stored setting: its key, its default, its type and the file that holds it.
/// Reads and writes go through the enclosing `Settings` object's transaction; code that uses a
/// setting never sees paths or JSON.
///
/// `Value` is Codable, but the requirement sits on the members, not on the type: a generic
/// type's requirements are checked at run time each time its metadata is first made (a scan of
/// the binary's conformance records, for every setting, in every command), while the members'
/// requirements are met from the call site, at no cost.
@propertyWrapper
public struct Stored<Value> {
    public let key: String
    public let suite: Suite
    let defaultValue: Value
    let codec: RawCodec<Value>?

    public init(wrappedValue: Value, _ key: String, suite: Suite) where Value: Codable {
        self.key = key
        self.suite = suite
        self.defaultValue = wrappedValue
        self.codec = nil
    }

    /// A value with its own byte codec (chosen over the Codable one where the type is known).
    public init(wrappedValue: Value, _ key: String, suite: Suite) where Value: Codable & RawStorable {
        self.key = key
        self.suite = suite
        self.defaultValue = wrappedValue
        self.codec = RawCodec(decode: { bytes throws(StoredValueError) in try Value.decodeStored(bytes) }, encode: { $0.encodeStored() })
    }

    @available(*, unavailable, message: "@Stored works only inside Settings")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    public static subscript(_enclosingInstance settings: Settings, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Settings, Value>,
                            storage storageKeyPath: ReferenceWritableKeyPath<Settings, Stored<Value>>) -> Value where Value: Codable {
        get {
            let wrapper = settings[keyPath: storageKeyPath]
            return settings.session.value(wrapper.key, in: wrapper.suite, default: wrapper.defaultValue, codec: wrapper.codec)
        }
        set {
            let wrapper = settings[keyPath: storageKeyPath]
            settings.session.set(newValue, for: wrapper.key, in: wrapper.suite, codec: wrapper.codec)
        }
    }
}

/// A `@Stored` declaration seen without its value type, so that a transaction can check every
/// value of a file before it rewrites that file.
protocol StoredDeclaration {
    var key: String { get }
    var suite: Suite { get }
    /// Whether the value goes through its own byte codec (`RawStorable`) rather than Codable.
    var usesRawCodec: Bool { get }
    func check(in session: Session)
}

extension Stored: StoredDeclaration where Value: Codable {
    var usesRawCodec: Bool { codec != nil }

    func check(in session: Session) {
        _ = session.value(key, in: suite, default: defaultValue, codec: codec)
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
    /// `shopy widget configure`: what each named widget shows and its refresh policy.
    @Stored("widgets", suite: .preferences) public var widgets: [String: WidgetConfiguration] = [:]
    /// Price history, extremes and alert of each like, by productId.
    @Stored("prices", suite: .prices) public var prices = PriceBook()

    /// Every `@Stored` declaration above, for `Session.checkValues`. Listed rather than found by
    /// reflection at run time: Mirror and its dynamic casts make the runtime search the
    /// binary's conformance records in every command that reads a file.
    /// `SettingsDeclarationTests` holds this list to what reflection finds, so a new setting
    /// cannot be left out of the checks.
    var declarations: [any StoredDeclaration] {
        [_likes, _history, _lastListing, _historyEnabled, _popularSections, _config, _widgets, _prices]
    }

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

    /// `allRawLikes()` with each like's productId.
    public func allRawLikesWithIDs() -> [(id: String, like: LikeCollection.RawLike)] { likes.rawLikesWithIDs() }
}

/// The store: a directory of suite files, each with a lock file beside it.
public final class SettingsStore: Sendable {
    public let directory: String
    public let likesFiles: LikesFiles

    /// `journalLimit`: see `LikesFiles` (SHOPY_LIKES_JOURNAL_LIMIT, in bytes, when set).
    public init(directory: String, journalLimit: Int? = nil) {
        self.directory = directory
        likesFiles = LikesFiles(directory: directory, journalLimit: journalLimit)
    }

    public convenience init(environment: [String: String]) {
        let limit = environment["SHOPY_LIKES_JOURNAL_LIMIT"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        self.init(directory: FileIO.home(environment: environment), journalLimit: limit)
    }

    public func path(of suite: Suite) -> String { directory + "/" + suite.fileName }

    /// Reads without locking: every file is replaced atomically, so a reader sees a whole one.
    public func read<T>(_ body: (Settings) throws -> T) throws -> T {
        let session = Session(store: self, writable: [])
        let result = try session.run(body)
        if let error = session.error { throw error }
        session.finish()
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
        for suite in suites.sorted() {
            if suite.journaled { try session.prepareJournaled() } else { _ = try session.document(suite) }
        }
        let result = try session.run(body)
        if let error = session.error { throw error }
        try session.commit()
        return result
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
    private var recorded: StoreError?
    var error: StoreError? { recorded ?? likesBase?.failure }
    /// The likes' files as read in this transaction (under the lock when writable).
    private var likesBase: LikesBase?

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
        if let bytes = try FileIO.readStoreFile(path, limit: suite.maxBytes) {
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
    /// The declarations are `Settings.declarations` (a test holds that list to what reflection
    /// finds, so a new @Stored setting cannot go unchecked).
    private func checkValues(of suite: Suite) throws(StoreError) {
        // Only what this file's values report is thrown; an earlier problem stays the first one.
        let earlier = recorded
        recorded = nil
        defer { recorded = earlier ?? recorded }
        for declaration in Settings(session: self).declarations where declaration.suite == suite {
            declaration.check(in: self)
        }
        if let recorded { throw recorded }
    }

    /// The likes' files (read once a transaction).
    func likes() throws(StoreError) -> LikesBase {
        if let likesBase { return likesBase }
        let base = try LikesBase.load(store.likesFiles)
        likesBase = base
        return base
    }

    /// Before a write of the likes: the journal is read (damage stops the transaction), and a
    /// snapshot that no index vouches for is read and checked whole.
    func prepareJournaled() throws(StoreError) {
        let base = try likes()
        guard base.index == nil && base.snapshotInfo != nil else { return }
        // Found wanting (a copy, a restore, a stale or broken index): settled once, for this
        // command and the next ones (see `settleIndex`).
        try base.settleIndex(holdingLock: writable.contains(.likes))
        if base.index == nil { _ = try base.snapshot() }  // of the old format: checked whole
    }

    /// After a read: an index distrusted on the way is replaced, when the lock is free.
    func finish() {
        if writable.isEmpty { likesBase?.settleIndexIfWanted() }
    }

    func value<Value: Codable>(_ key: String, in suite: Suite, default defaultValue: Value, codec: RawCodec<Value>?) -> Value {
        let cacheKey = suite.name + "/" + key
        // Unwrap the dictionary's optional first: `nil as? Value` succeeds when Value is optional.
        if let entry = cache[cacheKey], let cached = entry as? Value { return cached }
        if suite.journaled {
            // The journal records likes and unlikes: another value in that suite would need its
            // own kind of record (e.g. prices seen for a like), not a key in the snapshot.
            precondition(Value.self == LikeCollection.self, "\(suite.name) is journaled: it holds only the likes")
            do {
                // A snapshot no index vouches for (edited by hand, of the old format, or left by a
                // stopped compaction) is checked whole, like any file; an indexed one was checked
                // when shopy wrote it.
                try prepareJournaled()
                let value = LikeCollection(base: try likes())
                cache[cacheKey] = value
                return value as! Value
            } catch {
                recorded = recorded ?? error
                return defaultValue
            }
        }
        let document: SuiteDocument
        do {
            document = try self.document(suite)
        } catch {
            recorded = recorded ?? error
            return defaultValue
        }
        // Loading the file checks (and caches) every value in it: this one may be there now.
        if let entry = cache[cacheKey], let cached = entry as? Value { return cached }
        guard let raw = document.rawValue(key) else { return defaultValue }
        do {
            let value: Value
            if let codec {
                value = try codec.decode(raw)
            } else {
                value = try JSONDecoder().decode(Value.self, from: Data(raw))
            }
            cache[cacheKey] = value
            return value
        } catch {
            let problem = (error as? StoredValueError)?.problem ?? Session.describe(error)
            recorded = recorded ?? .damaged(path: store.path(of: suite), problem: "\"\(key)\" \(problem)")
            return defaultValue
        }
    }

    func set<Value: Codable>(_ value: Value, for key: String, in suite: Suite, codec: RawCodec<Value>?) {
        precondition(writable.contains(suite), "\(suite.name) is not writable in this transaction")
        if suite.journaled {
            precondition(value is LikeCollection, "\(suite.name) is journaled: it holds only the likes")
            cache[suite.name + "/" + key] = value
            dirty.insert(suite)
            return
        }
        guard var document = try? document(suite) else { return }
        let bytes: [UInt8]
        do {
            bytes = try Session.storedForm(value, codec: codec)
        } catch {
            recorded = recorded ?? .unstorable(path: store.path(of: suite), problem: "\"\(key)\" \(error.problem)")
            return
        }
        document.setRaw(bytes[...], for: key)
        documents[suite] = document
        cache[suite.name + "/" + key] = value
        dirty.insert(suite)
    }

    func commit() throws(StoreError) {
        // Every file is checked to fit its reader's limit before any is written: a transaction
        // over several files is written whole or not at all (the likes check theirs first too).
        var written: [(suite: Suite, pieces: [ArraySlice<UInt8>])] = []
        for suite in dirty.sorted() where !suite.journaled {
            guard let document = documents[suite] else { continue }
            let pieces = document.pieces(schema: suite.schema)
            let size = pieces.reduce(0) { $0 + $1.count }
            if size > suite.maxBytes { throw FileIO.unstorable(store.path(of: suite), size: size, limit: suite.maxBytes) }
            written.append((suite, pieces))
        }
        for suite in dirty.sorted() where suite.journaled {
            if let value = cache[suite.name + "/likes"] as? LikeCollection {
                if let refused = value.refused { throw .unstorable(path: store.path(of: suite), problem: "a like \(refused.problem)") }
                try LikesCommit.commit(value, base: try likes())
            }
        }
        for (suite, pieces) in written {
            try FileIO.atomicWrite(pieces: pieces, to: store.path(of: suite))
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
