import Foundation

/// When a widget's timeline is refreshed (WidgetKit's reload policy).
public enum WidgetPolicy: Equatable, Sendable, Codable {
    /// After the last entry of the timeline.
    case atEnd
    /// At a fixed time.
    case after(Date)
    /// Only when the store changes (a like, a config change, a search) or when asked.
    case never

    /// `atEnd`, `never`, `after:2026-12-01T14:00:00Z`, or `after:15m` / `after:2h` (from `now`).
    public static func parse(_ text: String, now: Date) -> WidgetPolicy? {
        switch text.lowercased() {
        case "atend", "at-end": return .atEnd
        case "never": return .never
        default: break
        }
        guard text.lowercased().hasPrefix("after:") || text.lowercased().hasPrefix("after=") else { return nil }
        let value = String(text.dropFirst(6))
        if let date = WidgetClock.parse(value) { return .after(date) }
        guard let unit = value.last, let count = Int(value.dropLast()), (1...10_000).contains(count) else { return nil }
        switch unit {
        case "m": return .after(now.addingTimeInterval(Double(count) * 60))
        case "h": return .after(now.addingTimeInterval(Double(count) * 3600))
        case "d": return .after(now.addingTimeInterval(Double(count) * 86400))
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .atEnd: return "atEnd"
        case .never: return "never"
        case .after(let date): return "after " + WidgetClock.format(date)
        }
    }

    private enum Keys: String, CodingKey { case kind, date }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "atEnd": self = .atEnd
        case "never": self = .never
        case "after":
            guard let date = WidgetClock.parse(try c.decode(String.self, forKey: .date)) else {
                throw DecodingError.dataCorruptedError(forKey: .date, in: c, debugDescription: "not an ISO 8601 time")
            }
            self = .after(date)
        default: throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown policy")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .atEnd: try c.encode("atEnd", forKey: .kind)
        case .never: try c.encode("never", forKey: .kind)
        case .after(let date):
            try c.encode("after", forKey: .kind)
            try c.encode(WidgetClock.format(date), forKey: .date)
        }
    }
}

/// ISO 8601 UTC times (`2026-12-01T12:41:00Z`), as the rest of the store keeps them. A time
/// must name a real day (the month lengths and leap years of `CalendarDate`, which trends
/// checks its dates by): `2026-02-30T00:00:00Z` is no time, not 2026-03-02.
public enum WidgetClock {
    public static func format(_ date: Date) -> String { Like.timestamp(date) }

    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else { return nil }
        func n(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range { guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }; v = v * 10 + Int(b[i] - 0x30) }
            return v
        }
        guard let y = n(0..<4), let mo = n(5..<7), let d = n(8..<10), let h = n(11..<13), let mi = n(14..<16), let s = n(17..<19),
              (1...12).contains(mo), d >= 1, d <= CalendarDate.days(inMonth: mo, year: y), h < 24, mi < 60, s < 61 else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), no calendar or time zone involved.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Date(timeIntervalSince1970: Double(days * 86400 + h * 3600 + mi * 60 + s))
    }
}
