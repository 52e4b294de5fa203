import Foundation

/// A day of the proleptic Gregorian calendar, without time or zone: what DataLab's `startDate`,
/// `endDate` and `period` are. Arithmetic is on day numbers (days since 1970-01-01), so it is
/// exact and needs no Calendar.
public struct CalendarDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil unless the three make a real date (2026-02-29 is not one) in years 1…9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= CalendarDate.days(inMonth: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Strictly `YYYY-MM-DD` (four, two and two ASCII digits).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let digit = Int(bytes[i]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The date `dayNumber` days after 1970-01-01 (Howard Hinnant's civil_from_days).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday).
    public var isoWeekday: Int {
        let n = (dayNumber + 3) % 7
        return (n < 0 ? n + 7 : n) + 1
    }

    public func adding(days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + days) }

    /// The same day `months` months later, clamped to the month's last day (03-31 − 1 month = 02-28).
    public func adding(months: Int) -> CalendarDate {
        let index = year * 12 + (month - 1) + months
        let y = index / 12, m = index % 12 + 1
        return CalendarDate(year: y, month: m, day: min(day, CalendarDate.days(inMonth: m, year: y))) ?? self
    }

    /// The first day of this date's month.
    public var firstOfMonth: CalendarDate { CalendarDate(year: year, month: month, day: 1)! }

    /// The Monday of this date's week.
    public var monday: CalendarDate { adding(days: 1 - isoWeekday) }

    /// Today in Korea (UTC+9 all year: no daylight saving time), which is DataLab's calendar.
    public static func todayInKorea(_ now: Date) -> CalendarDate {
        let seconds = Int(now.timeIntervalSince1970.rounded(.down)) + 9 * 3600
        return CalendarDate(dayNumber: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + two(month) + "-" + two(day)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { a.dayNumber < b.dayNumber }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
