import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The last refresh started for a widget, and how it ended when it could say so (the store's
/// `widget-NAME.attempt.json`). A refresh that dies before it writes its timeline (a crash, a
/// kill, a full disk) leaves only this, and it holds the next refresh back for
/// `WidgetRefresher.retryDelay`: bars that poll every few seconds do not start one refresh
/// after another (each a round of DataLab requests).
public struct WidgetRefreshAttempt: Equatable, Sendable {
    public var startedAt: Date
    /// The error class of a refresh that failed and said so; nil while it runs or when it died.
    public var failure: String?

    public init(startedAt: Date, failure: String? = nil) {
        self.startedAt = startedAt
        self.failure = failure
    }

    public static func fileName(_ name: String) -> String { "widget-\(name).attempt.json" }

    /// Whether this attempt holds a refresh back at `now`: it is newer than what `timeline` was
    /// generated from and younger than the retry delay. An attempt dated after `now` (the clock
    /// was set back) holds nothing back.
    public func holdsBack(timeline: WidgetTimeline?, now: Date) -> Bool {
        if let timeline, timeline.generatedAt >= startedAt { return false }
        return startedAt <= now && now < startedAt.addingTimeInterval(WidgetRefresher.retryDelay)
    }

    /// The failure this attempt reports over `timeline`: only when it is the newer of the two.
    public func failure(over timeline: WidgetTimeline?) -> String? {
        if let timeline, timeline.generatedAt >= startedAt { return nil }
        return failure
    }

    // MARK: - File (small, bounded, read back by the same rules it is written by)

    static let maxBytes = 4096

    public var json: JSONValue {
        .object(JSONObject(["startedAt": .string(WidgetClock.format(startedAt)), "failure": .string(orNull: failure.map(WidgetErrors.readBack))]))
    }

    /// The attempt of widget `name`, nil when there is none or it cannot be read (it is only a
    /// brake: a damaged one is as if absent).
    public static func load(directory: String, name: String) -> WidgetRefreshAttempt? {
        let fd = open(directory + "/" + fileName(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxBytes,
              let bytes = try? FileIO.readBounded(fd, shown: fileName(name), limit: maxBytes),
              let value = try? JSONParser.parse(bytes), let text = value["startedAt"]?.stringValue,
              let startedAt = WidgetClock.parse(text) else { return nil }
        return WidgetRefreshAttempt(startedAt: startedAt, failure: value["failure"]?.stringValue.map(WidgetErrors.readBack))
    }

    /// Writes it (atomically); a failure to write is returned, not thrown: the caller goes on.
    @discardableResult
    public func save(directory: String, name: String) -> StoreError? {
        do {
            try FileIO.ensureDirectory(directory)
            try FileIO.atomicWrite(JSONWriter.serialize(json) + [0x0A], to: directory + "/" + Self.fileName(name))
            return nil
        } catch {
            return error
        }
    }
}
