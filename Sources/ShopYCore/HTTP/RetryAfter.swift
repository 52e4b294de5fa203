import Foundation

/// The Retry-After header as RFC 9110 §10.2.3 defines it: `delay-seconds` (one or more ASCII
/// digits) or an `HTTP-date` (§5.6.7: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, and the
/// obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`
/// forms a recipient must accept).
///
/// Anything else (`1e300`, `inf`, `-3`, `1.5`, text) is no Retry-After at all: the retry falls
/// back to its own backoff. A value is clamped to `maxSeconds`, so no header can ask for a wait
/// that overflows the arithmetic after it; the caller gives up when the wait passes its deadline.
public enum RetryAfter {
    /// A day: more than any --timeout (at most 3600 s) can wait.
    public static let maxSeconds: Double = 86_400

    /// Seconds to wait from `now`, in 0...maxSeconds, or nil when the value is not valid.
    public static func seconds(_ value: String?, now: Date) -> Double? {
        guard let text = value?.trimmingASCIIWhitespace(), !text.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        if bytes.allSatisfy(isDigit) {
            // Any number of digits: past 9 the value is more than a day anyway.
            if bytes.count > 9 { return maxSeconds }
            return min(maxSeconds, Double(Int(text)!))
        }
        guard let date = httpDate(bytes) else { return nil }
        let delta = date - now.timeIntervalSince1970
        return min(maxSeconds, max(0, delta))
    }

    /// Seconds since 1970 of an HTTP-date, or nil.
    static func httpDate(_ b: [UInt8]) -> Double? {
        let s = String(decoding: b, as: UTF8.self)
        let parts = s.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        // IMF-fixdate: "Sun," "06" "Nov" "1994" "08:49:37" "GMT"
        if parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), dayNames.contains(String(parts[0].dropLast())),
           parts[1].count == 2, let day = digits(parts[1]), let month = monthIndex(parts[2]),
           parts[3].count == 4, let year = digits(parts[3]), let time = clock(parts[4]), parts[5] == "GMT" {
            return epoch(year: year, month: month, day: day, time: time)
        }
        // RFC 850: "Sunday," "06-Nov-94" "08:49:37" "GMT"
        if parts.count == 4, parts[0].hasSuffix(","), longDayNames.contains(String(parts[0].dropLast())), parts[3] == "GMT" {
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, date[0].count == 2, let day = digits(date[0]), let month = monthIndex(date[1]),
                  date[2].count == 2, let yy = digits(date[2]), let time = clock(parts[2]) else { return nil }
            // A two-digit year: 70–99 are 1970–1999, the rest 2000–2069.
            return epoch(year: yy >= 70 ? 1900 + yy : 2000 + yy, month: month, day: day, time: time)
        }
        // asctime: "Sun" "Nov" " 6"/"06" "08:49:37" "1994" (a single-digit day is space-padded)
        let words = s.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count == 5, dayNames.contains(words[0]), let month = monthIndex(words[1]), (1...2).contains(words[2].count),
           let day = digits(words[2]), let time = clock(words[3]), words[4].count == 4, let year = digits(words[4]),
           s.hasPrefix(words[0] + " " + words[1] + " " + (words[2].count == 1 ? " " : "") + words[2] + " ") {
            return epoch(year: year, month: month, day: day, time: time)
        }
        return nil
    }

    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func digits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 4, text.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    static func monthIndex(_ text: String) -> Int? {
        monthNames.firstIndex(of: text).map { $0 + 1 }
    }

    /// "08:49:37" → seconds into the day.
    static func clock(_ text: String) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, fields.allSatisfy({ $0.count == 2 }),
              let h = digits(fields[0]), let m = digits(fields[1]), let sec = digits(fields[2]),
              h < 24, m < 60, sec <= 60 else { return nil }
        return h * 3600 + m * 60 + sec
    }

    /// Days from civil (Howard Hinnant's algorithm), checked for a real calendar date.
    static func epoch(year: Int, month: Int, day: Int, time: Int) -> Double? {
        guard (1...12).contains(month), day >= 1 else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + time)
    }
}
