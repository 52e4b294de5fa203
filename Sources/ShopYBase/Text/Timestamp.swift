import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps for watch lines.
public enum Timestamp {
    /// `2026-11-29T20:33:43.123Z`.
    public static func utc(_ date: Date) -> String {
        format(date, utc: true)
    }

    /// `2026-11-29 20:33:43` in the local time zone.
    public static func local(_ date: Date) -> String {
        format(date, utc: false)
    }

    private static func format(_ date: Date, utc: Bool) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        var t = time_t(seconds)
        var parts = tm()
        if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let day = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        let time = "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        guard utc else { return day + " " + time }
        let millis = min(999, Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded(.down)))
        return day + "T" + time + "." + String(repeating: "0", count: millis < 10 ? 2 : (millis < 100 ? 1 : 0)) + "\(millis)Z"
    }
}
