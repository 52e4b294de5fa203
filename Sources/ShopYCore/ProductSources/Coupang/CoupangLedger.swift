import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// `coupang.json` in the store: what keeps a Coupang key out of trouble across every shopy
/// process, under `.coupang.lock`.
///
/// - **Budget**: per key (a keyed hash of the access key, never the key), the time of every
///   request sent in the last hour; the one past the budget is refused before it is sent.
/// - **Hold**: after a 429, nothing is sent with that key until the later of an hour and the
///   answer's Retry-After (one more violation can block the key for 24 hours).
/// - **Cache**: successful answers for 60 minutes (what Coupang's terms allow an app), keyed by
///   the key and the request; an identical request within that time is answered from it (no
///   request, no budget spent, also while the budget is spent or a hold lasts). Nothing older
///   is ever used, and an entry from the future (a clock set back) neither.
///
/// Bounded: at most `maxEntries` answers of at most `maxAnswerBytes` each, and at most
/// `maxCacheBytes` of them as written (the oldest go first), so the file stays far below the
/// `maxFileBytes` its reader accepts. A file that does not decode is damage (65, named; nothing
/// is written over it). A cached answer that does not parse is treated as absent and dropped.
/// Times past what shopy can have written (a request after now, a hold beyond
/// `maxHold`) are brought back to now and `maxHold` from now, never trusted to lock a key out.
public struct CoupangLedger: Sendable {
    public static let fileName = "coupang.json"
    public static let lockName = ".coupang.lock"
    /// The rolling window of the budget, and the cache's life: an hour.
    public static let window: TimeInterval = 3600
    static let maxEntries = 64
    static let maxAnswerBytes = 1 << 20
    static let maxFileBytes = 16 << 20
    /// The cache as written (escapes included) stays under this: with the counts, a file of
    /// well under `maxFileBytes`.
    static let maxCacheBytes = 4 << 20
    /// The longest hold there can be: Coupang blocks a key for 24 hours after a violation.
    static let maxHold: TimeInterval = 25 * 3600
    /// A cached answer dated this far past now is from a clock that was set back: not used.
    static let futureSlack: TimeInterval = 60

    public let directory: String
    public var path: String { directory + "/" + Self.fileName }

    public init(directory: String) {
        self.directory = directory
    }

    /// What may happen to a request.
    public enum Admission: Equatable, Sendable {
        /// Answered from the cache: send nothing.
        case cached([UInt8])
        /// Counted: send it, signed with the second it was counted in.
        case send
        /// Counted, but another request with this key was signed in this second already (two
        /// shopy processes asking at once): sign it with this later second, so that no two
        /// requests carry one signature, which the gateway refuses as a replay.
        case sendLater(signedAt: Date)
        /// A 429 hold lasts until then.
        case held(until: Date)
        /// The budget is spent; the next request is allowed then.
        case spent(next: Date)
    }

    /// The budget's state for one key, for `shopy status`.
    public struct Usage: Equatable, Sendable {
        public var sent: Int
        public var heldUntil: Date?
        /// When the oldest counted request leaves the window.
        public var next: Date?
    }

    /// Decides a request (`request`: its method, path and query) for the key hashed as `key`,
    /// counting it when it is to be sent. A cached answer `usable` refuses (one that does not
    /// parse: a damaged file) is dropped and the request decided as if it were not there.
    public func admit(key: String, request: String, now: Date, budget: Int,
                      usable: ([UInt8]) -> Bool = { _ in true }) throws(CoupangLedgerError) -> Admission {
        try transaction(now: now) { state in
            if let hit = state.cache.last(where: { $0.key == key && $0.request == request }) {
                if usable(hit.body) { return .cached(hit.body) }
                state.cache.removeAll { $0.key == key && $0.request == request }
                state.changed = true
            }
            var account = state.accounts[key] ?? Account()
            if let held = account.heldUntil, held > now.timeIntervalSince1970 { return .held(until: Date(timeIntervalSince1970: held)) }
            if account.sent.count >= budget {
                let oldest = account.sent[account.sent.count - budget]
                return .spent(next: Date(timeIntervalSince1970: oldest + Self.window))
            }
            // One request of a key a second: the signature is of its second and the request.
            let second = now.timeIntervalSince1970.rounded(.down)
            if let last = account.sent.last, last >= second, last < second + Self.futureSlack {
                account.sent.append(last + 1)
                state.accounts[key] = account
                state.changed = true
                return .sendLater(signedAt: Date(timeIntervalSince1970: last + 1))
            }
            account.sent.append(second)
            state.accounts[key] = account
            state.changed = true
            return .send
        }
    }

    /// Keeps a successful answer for the cache's life.
    public func remember(key: String, request: String, body: [UInt8], at now: Date) throws(CoupangLedgerError) {
        guard body.count <= Self.maxAnswerBytes, body.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { return }
        try transaction(now: now) { state in
            state.cache.removeAll { $0.key == key && $0.request == request }
            state.cache.append(Entry(key: key, request: request, at: now.timeIntervalSince1970.rounded(.down), body: body))
            if state.cache.count > Self.maxEntries { state.cache.removeFirst(state.cache.count - Self.maxEntries) }
            state.changed = true
        }
    }

    /// Holds every request with the key until `until` (after a 429).
    public func hold(key: String, until: Date, now: Date) throws(CoupangLedgerError) {
        try transaction(now: now) { state in
            var account = state.accounts[key] ?? Account()
            let longest = (now.timeIntervalSince1970 + Self.maxHold).rounded(.down)
            account.heldUntil = min(longest, max(account.heldUntil ?? 0, until.timeIntervalSince1970.rounded(.up)))
            state.accounts[key] = account
            state.changed = true
        }
    }

    /// The budget's state for the key (read without the lock: the file is replaced atomically).
    public func usage(key: String, now: Date, budget: Int) throws(CoupangLedgerError) -> Usage {
        var state = try load()
        state.prune(now: now)
        let account = state.accounts[key] ?? Account()
        let next = account.sent.count >= budget ? Date(timeIntervalSince1970: account.sent[account.sent.count - budget] + Self.window) : nil
        return Usage(sent: account.sent.count, heldUntil: account.heldUntil.map { Date(timeIntervalSince1970: $0) }, next: next)
    }

    /// The keyed hash the ledger files a key under (HMAC-SHA256 of the access key, in hex): the
    /// file never holds a key.
    public static func keyHash(_ credentials: CoupangCredentials) throws(HMACSHA256.Unavailable) -> String {
        try HMACSHA256.hex(key: "shopy coupang ledger", message: credentials.accessKey)
    }

    // MARK: - The file

    struct Account: Equatable {
        var sent: [TimeInterval] = []
        var heldUntil: TimeInterval?
    }

    struct Entry: Equatable {
        var key: String
        var request: String
        var at: TimeInterval
        var body: [UInt8]

        var json: JSONValue {
            var o = JSONObject()
            o.appendUnchecked("key", .string(key))
            o.appendUnchecked("request", .string(request))
            o.appendUnchecked("at", .int(Int64(at)))
            o.appendUnchecked("body", .string(String(decoding: body, as: UTF8.self)))
            return .object(o)
        }

        /// Its bytes in the file, escapes included (up to 6 per byte of the answer).
        var writtenSize: Int { JSONWriter.serialize(json).count + 1 }
    }

    struct State {
        var accounts: [String: Account] = [:]
        var cache: [Entry] = []
        var changed = false
        /// Cached answers `prune` removed (past their hour).
        var expiredRemoved = 0

        /// Keeps the newest answers that fit in `maxCacheBytes` as written, dropping the older
        /// ones (and one that alone does not fit); whether any went.
        @discardableResult
        mutating func bound() -> Bool {
            var total = 0
            var keep = cache.count
            while keep > 0 {
                let size = cache[keep - 1].writtenSize
                guard total + size <= CoupangLedger.maxCacheBytes else { break }
                total += size
                keep -= 1
            }
            guard keep > 0 else { return false }
            cache.removeFirst(keep)
            return true
        }

        /// Forgets what the window and the cache's life no longer need.
        mutating func prune(now: Date) {
            let t = now.timeIntervalSince1970
            for (key, var account) in accounts {
                let before = account
                // A request dated well past now (a clock set back, or a damaged file) still
                // counts, as sent now: the budget errs on the side of the key, for an hour, not
                // longer. One a few seconds ahead is a second reserved by `admit`: kept.
                account.sent.removeAll { $0 <= t - CoupangLedger.window }
                if account.sent.contains(where: { $0 > t + CoupangLedger.futureSlack }) {
                    account.sent = account.sent.map { $0 > t + CoupangLedger.futureSlack ? t.rounded(.down) : $0 }
                }
                if let held = account.heldUntil, held <= t { account.heldUntil = nil }
                if let held = account.heldUntil, held > t + CoupangLedger.maxHold { account.heldUntil = (t + CoupangLedger.maxHold).rounded(.down) }
                if account.sent.isEmpty && account.heldUntil == nil {
                    accounts[key] = nil
                    changed = true
                } else if account != before {
                    accounts[key] = account
                    changed = true
                }
            }
            let count = cache.count
            cache.removeAll { $0.at <= t - CoupangLedger.window || $0.at > t + CoupangLedger.futureSlack }
            if cache.count != count {
                changed = true
                expiredRemoved += count - cache.count
            }
        }
    }

    func transaction<T>(now: Date, _ body: (inout State) throws(CoupangLedgerError) -> T) throws(CoupangLedgerError) -> T {
        do {
            try FileIO.ensureDirectory(directory)
        } catch {
            throw .store(error)
        }
        let lock: FileLock
        do {
            lock = try FileLock(path: directory + "/" + Self.lockName)
        } catch {
            throw .store(error)
        }
        defer { lock.release() }
        var state = try load()
        state.prune(now: now)
        let result = try body(&state)
        if state.bound() { state.changed = true }
        if state.changed {
            do {
                try FileIO.atomicWrite(Self.encode(state), to: path)
            } catch {
                throw .store(error)
            }
        }
        return result
    }

    func load() throws(CoupangLedgerError) -> State {
        let opened: (fd: Int32, info: stat)?
        do {
            opened = try FileIO.openStoreFile(path)
        } catch {
            throw .store(error)
        }
        guard let (fd, info) = opened else { return State() }
        defer { close(fd) }
        guard Int(info.st_size) <= Self.maxFileBytes else { throw .damaged(path: path, problem: "it is larger than \(Self.maxFileBytes >> 20) MiB") }
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBounded(fd, shown: path, limit: Self.maxFileBytes, expected: Int(info.st_size))
        } catch {
            throw .store(error)
        }
        return try Self.decode(bytes, path: path)
    }

    static func encode(_ state: State) -> [UInt8] {
        var keys: [JSONValue] = []
        for key in state.accounts.keys.sorted() {
            let account = state.accounts[key]!
            var o = JSONObject()
            o.appendUnchecked("key", .string(key))
            o.appendUnchecked("sent", .array(account.sent.map { .int(Int64($0)) }))
            o.appendUnchecked("heldUntil", account.heldUntil.map { .int(Int64($0)) } ?? .null)
            keys.append(.object(o))
        }
        var cache: [JSONValue] = []
        for entry in state.cache { cache.append(entry.json) }
        var root = JSONObject()
        root.appendUnchecked("schema", .int(1))
        root.appendUnchecked("keys", .array(keys))
        root.appendUnchecked("cache", .array(cache))
        return JSONWriter.serialize(.object(root)) + [0x0A]
    }

    static func decode(_ bytes: [UInt8], path: String) throws(CoupangLedgerError) -> State {
        func damaged(_ problem: String) -> CoupangLedgerError { .damaged(path: path, problem: problem) }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw damaged("it is not JSON: \(error)")
        }
        guard case .object(let root) = json else { throw damaged("it is \(json.kindName), not an object") }
        guard let schema = root["schema"]?.intValue else { throw damaged("it has no schema") }
        guard schema == 1 else { throw damaged("it has schema \(schema); this shopy knows 1") }
        func seconds(_ value: JSONValue?) -> TimeInterval? {
            guard let n = value?.intValue, n >= 0, n < 1 << 40 else { return nil }
            return TimeInterval(n)
        }
        var state = State()
        guard case .array(let keys)? = root["keys"], case .array(let cache)? = root["cache"] else { throw damaged("it has no keys and cache lists") }
        for (index, value) in keys.enumerated() {
            guard let key = value["key"]?.stringValue, case .array(let sent)? = value["sent"], sent.count <= 1000 else {
                throw damaged("key \(index + 1) is not a key with its requests")
            }
            var account = Account()
            for time in sent {
                guard let t = seconds(time) else { throw damaged("key \(index + 1) has a request time that is not one") }
                account.sent.append(t)
            }
            account.sent.sort()
            if let held = value["heldUntil"], held != .null {
                guard let t = seconds(held) else { throw damaged("key \(index + 1) has a heldUntil that is not a time") }
                account.heldUntil = t
            }
            state.accounts[key] = account
        }
        for (index, value) in cache.prefix(maxEntries * 2).enumerated() {
            guard let key = value["key"]?.stringValue, let request = value["request"]?.stringValue, let at = seconds(value["at"]),
                  let body = value["body"]?.stringValue else {
                throw damaged("cache entry \(index + 1) is not an answer with its key, request and time")
            }
            state.cache.append(Entry(key: key, request: request, at: at, body: Array(body.utf8)))
        }
        return state
    }
}

/// `coupang.json` cannot be used.
public enum CoupangLedgerError: ShopyError, Equatable {
    case damaged(path: String, problem: String)
    case store(StoreError)

    public var message: String {
        switch self {
        case .damaged(let path, let problem): return "\(path) is damaged: \(problem)"
        case .store(let error): return error.message
        }
    }

    public var hint: String? {
        switch self {
        case .damaged:
            return "it holds only Coupang's request counts and a 60-minute cache: remove it to start again (then wait an hour if the budget was nearly spent)"
        case .store(let error):
            return error.hint
        }
    }
}
