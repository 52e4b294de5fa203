import Foundation
import ShopYBase


/// The widget's timeline file in the store (`widget-NAME.timeline.json`): entries (each a date
/// and its items as the refresh built them), the policy, and what the refresh saw (the store's
/// fingerprint and the ids it was built for), so that `shopy widget` knows when it is due.
public struct WidgetTimeline: Equatable, Sendable {
    /// 2: items note when the Coupang results they show were fetched (`coupangFetchedAt`). A
    /// timeline of another schema is not read: it is a cache, and the next refresh replaces it
    /// (a schema 1 one could hold Coupang lines of unknown age).
    public static let schema = 2

    public var name: String
    public var generatedAt: Date
    public var policy: WidgetPolicy
    public var fingerprint: StoreFingerprint
    /// The option ids the entries were built for.
    public var shownIDs: [String]
    public var entries: [WidgetEntry]
    /// After a failed refresh: no new one before this time (so a dead API is not hammered).
    public var retryAt: Date?
    /// The class of the last refresh's failure (`unreachable`, `timeout`, …), nil when it worked.
    public var lastError: String?

    public init(name: String, generatedAt: Date, policy: WidgetPolicy, fingerprint: StoreFingerprint, shownIDs: [String],
                entries: [WidgetEntry], retryAt: Date? = nil, lastError: String? = nil) {
        self.name = name
        self.generatedAt = generatedAt
        self.policy = policy
        self.fingerprint = fingerprint
        self.shownIDs = shownIDs
        self.entries = entries
        self.retryAt = retryAt
        self.lastError = lastError
    }

    public static func fileName(_ name: String) -> String { "widget-\(name).timeline.json" }

    /// The entry in effect at `now`: the last one whose date has come (else the first).
    public func current(at now: Date) -> WidgetEntry? {
        entries.last(where: { $0.date <= now }) ?? entries.first
    }

    // MARK: - Codec (the project's byte-level JSON: this is read on every `shopy widget`)

    public var json: JSONValue {
        func item(_ i: WidgetItem) -> JSONValue {
            var o = JSONObject(["option": .string(i.optionID), "kind": .string(i.kind.rawValue), "short": .string(i.short),
                                "line": .string(i.line), "link": .string(orNull: i.link), "tone": .string(i.tone.rawValue)])
            if let fetched = i.coupangFetchedAt { o["coupangFetchedAt"] = .string(WidgetClock.format(fetched)) }
            return .object(o)
        }
        var policyObject = JSONObject(["kind": .string(policyKind)])
        if case .after(let date) = policy { policyObject["date"] = .string(WidgetClock.format(date)) }
        return .object(JSONObject([
            "schema": .int(Self.schema), "name": .string(name), "generatedAt": .string(WidgetClock.format(generatedAt)),
            "policy": .object(policyObject), "fingerprint": .string(fingerprint.text),
            "shown": .array(shownIDs.map(JSONValue.string)),
            "retryAt": .string(orNull: retryAt.map(WidgetClock.format)), "lastError": .string(orNull: lastError.map(WidgetErrors.readBack)),
            "entries": .array(entries.map { .object(JSONObject(["date": .string(WidgetClock.format($0.date)), "items": .array($0.items.map(item))])) }),
        ]))
    }

    var policyKind: String {
        switch policy {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after: return "after"
        }
    }

    public struct DecodeError: Error, Sendable { public var problem: String }

    public init(json: JSONValue) throws(DecodeError) {
        guard let o = json.objectValue else { throw DecodeError(problem: "is not an object") }
        guard o["schema"]?.intValue == Self.schema else { throw DecodeError(problem: "has an unknown schema") }
        func string(_ v: JSONValue?, _ what: String) throws(DecodeError) -> String {
            guard let s = v?.stringValue else { throw DecodeError(problem: "has no \(what)") }
            return s
        }
        func date(_ v: JSONValue?, _ what: String) throws(DecodeError) -> Date {
            guard let d = WidgetClock.parse(try string(v, what)) else { throw DecodeError(problem: "has a bad \(what)") }
            return d
        }
        name = try string(o["name"], "name")
        generatedAt = try date(o["generatedAt"], "generatedAt")
        guard let p = o["policy"]?.objectValue else { throw DecodeError(problem: "has no policy") }
        switch try string(p["kind"], "policy kind") {
        case "atEnd": policy = .atEnd
        case "never": policy = .never
        case "after": policy = .after(try date(p["date"], "policy date"))
        default: throw DecodeError(problem: "has an unknown policy")
        }
        fingerprint = StoreFingerprint(text: try string(o["fingerprint"], "fingerprint"))
        shownIDs = try (o["shown"]?.arrayValue ?? []).map { v throws(DecodeError) in try string(v, "shown id") }
        retryAt = o["retryAt"]?.stringValue.flatMap(WidgetClock.parse)
        lastError = o["lastError"]?.stringValue.map(WidgetErrors.readBack)
        var entries: [WidgetEntry] = []
        for e in o["entries"]?.arrayValue ?? [] {
            guard let eo = e.objectValue else { throw DecodeError(problem: "has an entry that is not an object") }
            var items: [WidgetItem] = []
            for i in eo["items"]?.arrayValue ?? [] {
                guard let io = i.objectValue, let kind = WidgetOption.Kind(rawValue: try string(io["kind"], "item kind")) else {
                    throw DecodeError(problem: "has a bad item")
                }
                var fetched: Date?
                if let value = io["coupangFetchedAt"], value != .null { fetched = try date(value, "item coupangFetchedAt") }
                items.append(WidgetItem(optionID: try string(io["option"], "item option"), kind: kind, short: try string(io["short"], "item text"),
                                        line: try string(io["line"], "item line"), link: io["link"]?.stringValue,
                                        tone: io["tone"]?.stringValue.flatMap(WidgetItem.Tone.init(rawValue:)) ?? .normal,
                                        coupangFetchedAt: fetched))
            }
            entries.append(WidgetEntry(date: try date(eo["date"], "entry date"), items: items))
        }
        self.entries = entries
    }

    /// The timeline of widget `name`, nil when there is none or it cannot be read (a damaged
    /// timeline, or one larger than any shopy writes, is only a cache: the next refresh
    /// replaces it; no more than its limit is ever read).
    public static func load(directory: String, name: String) -> WidgetTimeline? {
        guard let bytes = try? FileIO.readStoreFile(directory + "/" + fileName(name), limit: StoreFileLimits.widgetTimeline),
              let value = try? JSONParser.parse(bytes), let timeline = try? WidgetTimeline(json: value) else { return nil }
        return timeline
    }

    /// Writes the timeline, checked first by `load`'s own reading: bytes that would not read
    /// back as written are refused (a timeline nobody can read would start a refresh at every
    /// poll of the bar).
    public func save(directory: String) throws(StoreError) {
        let path = directory + "/" + Self.fileName(name)
        let bytes = JSONWriter.serialize(json, pretty: true) + [0x0A]
        guard let value = try? JSONParser.parse(bytes), let read = try? WidgetTimeline(json: value),
              JSONWriter.serialize(read.json, pretty: true) + [0x0A] == bytes else {
            throw .unstorable(path: path, problem: "the timeline would not read back as written")
        }
        if bytes.count > StoreFileLimits.widgetTimeline { throw FileIO.unstorable(path, size: bytes.count, limit: StoreFileLimits.widgetTimeline) }
        try FileIO.ensureDirectory(directory)
        try FileIO.atomicWrite(bytes, to: path)
    }
}
