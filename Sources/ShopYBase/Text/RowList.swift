import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rows a listing has, said the way a person reads them: runs of consecutive rows as
/// `21–40`, others one by one (`4, 9, 16`), popular's `1.1–1.10, 2.1–2.10`.
public enum RowList {
    public static func describe(_ rows: [String], limit: Int = 8) -> String {
        guard !rows.isEmpty else { return "it has no rows" }
        if rows.count == 1 { return "its only row is \(rows[0])" }
        var runs: [[String]] = []
        for row in rows {
            if let last = runs.last?.last, follows(row, last) {
                runs[runs.count - 1].append(row)
            } else {
                runs.append([row])
            }
        }
        var parts: [String] = []
        for run in runs.prefix(limit) {
            switch run.count {
            case 1: parts.append(run[0])
            case 2: parts.append(run[0] + ", " + run[1])
            default: parts.append(run[0] + "–" + run[run.count - 1])
            }
        }
        if runs.count > limit { parts.append("…") }
        return "its rows are " + parts.joined(separator: ", ")
    }

    /// `row` is the one after `previous`: same section, number one more.
    static func follows(_ row: String, _ previous: String) -> Bool {
        let a = row.split(separator: ".", omittingEmptySubsequences: false)
        let b = previous.split(separator: ".", omittingEmptySubsequences: false)
        guard a.count == b.count, a.dropLast() == b.dropLast(), let x = a.last.flatMap({ Int($0) }), let y = b.last.flatMap({ Int($0) }) else { return false }
        return x == y + 1
    }
}

/// Times for people and for machines: local time in tables and text, UTC ISO 8601 in JSON and
/// data formats (what the store keeps).
public enum LocalTime {
    /// `2026-12-01T09:30:00Z` (as stored) → `2026-12-01 18:30` in the local time zone; the
    /// text unchanged when it is not that form.
    public static func display(_ iso: String) -> String {
        guard let date = parseUTC(iso) else { return iso }
        return String(Timestamp.local(date).prefix(16))
    }

    /// A time as the store writes it (`yyyy-mm-ddThh:mm:ssZ`), nil in any other form.
    public static func parseUTC(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? { Int32(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
              let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let seconds = timegm(&parts)
        return seconds == -1 ? nil : Date(timeIntervalSince1970: Double(seconds))
    }
}
