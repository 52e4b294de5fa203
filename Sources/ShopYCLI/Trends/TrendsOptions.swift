import Foundation
import ShopYCore

/// The options both trends subcommands take, checked before anything is sent.
public struct TrendsOptions: Sendable {
    public enum Last: Equatable, Sendable {
        case days(Int), weeks(Int), months(Int)
    }

    public var from: CalendarDate?
    public var to: CalendarDate?
    public var last: Last?
    public var unit: TimeUnit
    public var filters: TrendsFilters
    public var by: Breakdown?
    public var format: OutputFormat?
    public var timeout: Double

    /// The most series one comparison may hold (each request is a call of the 1,000 a day).
    public static let maxSeries = 40

    static let fromOption = Option.optional("from", value: "yyyy-mm-dd", help: "First day (2017-08-01 at the earliest).", type: dateType)
    static let toOption = Option.optional("to", value: "yyyy-mm-dd", help: "Last day, not in the future (Korean time). Default: yesterday.", type: dateType)
    static let lastOption = Option.optional("last", value: "n{d,w,m}", help: "The last N days, weeks or months up to --to. Default: 12w up to yesterday (by week: the last 12 complete weeks; by month: the last 3 complete months).",
                                            type: ValueType<Last> { text, _ throws(UsageError) in try TrendsOptions.last(text) })
    static let unitOption = Option.value("unit", value: "unit", help: "date, week (default) or month: one value a period.",
                                         type: ValueType<TimeUnit>.choice(), default: .week)
    static let deviceOption = Option.optional("device", value: "device", help: "Only clicks from pc or mo (mobile). Default: both.",
                                              type: ValueType<DeviceFilter>.choice())
    static let genderOption = Option.optional("gender", value: "gender", help: "Only clicks by m or f. Default: both.",
                                              type: ValueType<GenderFilter>.choice())
    /// Each group once (`--ages 10,10` is refused), in order.
    static let agesOption = Option.value("ages", value: "list", help: "Only these age groups, comma-separated: 10,20,30,40,50,60. Default: all.",
                                         type: ValueType<[AgeGroup]> { text, _ throws(UsageError) in try TrendsOptions.ages(text) }, default: [])
    static let byOption = Option.optional("by", value: "group", help: "Break one series down by device, gender or age instead of comparing series.",
                                          type: ValueType<Breakdown>.choice())
    static let formats = SharedOptions.listingFormats

    /// A real calendar date as yyyy-mm-dd.
    static let dateType = ValueType<CalendarDate> { text, option throws(UsageError) in try TrendsOptions.date(text, option: option) }

    /// The options both subcommands list, after their own.
    public static let specs: [OptionSpec] = [fromOption.spec, toOption.spec, lastOption.spec, unitOption.spec, deviceOption.spec, genderOption.spec,
                                             agesOption.spec, byOption.spec] + formats.specs + [SharedOptions.timeout.spec]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        from = try Self.fromOption.read(parsed)
        to = try Self.toOption.read(parsed)
        last = try Self.lastOption.read(parsed)
        if last != nil && from != nil {
            throw UsageError("--last and --from both set the first day; give one of them", hint: "e.g. --last 8w, or --from 2026-09-01 --to 2026-11-30")
        }
        unit = try Self.unitOption.read(parsed)
        filters = TrendsFilters()
        filters.device = try Self.deviceOption.read(parsed)
        filters.gender = try Self.genderOption.read(parsed)
        filters.ages = try Self.agesOption.read(parsed)
        by = try Self.byOption.read(parsed)
        format = try Self.formats.read(parsed)
        timeout = try SharedOptions.timeout.read(parsed)
        if by == .device && filters.device != nil || by == .gender && filters.gender != nil {
            let name = by!.rawValue
            throw UsageError("--by \(name) splits by \(name) already; --\(name) would leave one group", hint: "drop --\(name), or --by")
        }
    }

    /// The range for "today" (in Korea) `today`: every rule checked, each named when broken.
    public func range(today: CalendarDate) throws(UsageError) -> TrendsRange {
        let yesterday = today.adding(days: -1)
        var end = to ?? yesterday
        // Without --from and --to, the range ends with the last complete week or month, so the
        // latest value and its change are not those of a period that has only begun.
        if to == nil && from == nil {
            switch unit {
            case .date: break
            case .week: end = end.adding(days: -(end.isoWeekday % 7))
            case .month: if end.adding(days: 1).day != 1 { end = end.firstOfMonth.adding(days: -1) }
            }
        }
        if end > today {
            throw UsageError("--to \(end) is in the future (today is \(today) in Korea)", hint: "DataLab has data up to yesterday")
        }
        let start: CalendarDate
        if let from {
            start = from
        } else {
            switch last ?? (unit == .month ? .months(3) : .weeks(12)) {
            case .days(let n): start = end.adding(days: 1 - n)
            case .weeks(let n): start = end.adding(days: 1 - 7 * n)
            case .months(let n): start = end.adding(days: 1).adding(months: -n)
            }
        }
        if start < TrendsRange.earliest {
            throw UsageError("the first day \(start) is before 2017-08-01, the earliest DataLab serves",
                             hint: last != nil ? "ask for a shorter --last" : "use --from 2017-08-01 or later")
        }
        if start > end {
            throw UsageError("--from \(start) is after --to \(end); the first day must not come after the last")
        }
        return TrendsRange(start: start, end: end, unit: unit)
    }

    static func date(_ text: String, option: String) throws(UsageError) -> CalendarDate {
        guard let date = CalendarDate(text.trimmingASCIIWhitespace()) else {
            throw UsageError("invalid --\(option) '\(text)': expected a real calendar date as yyyy-mm-dd", hint: "e.g. --\(option) 2026-09-01")
        }
        return date
    }

    /// `12w`, `30d`, `6m`: N from 1, at most 10 years' worth.
    static func last(_ text: String) throws(UsageError) -> Last {
        let value = text.trimmingASCIIWhitespace().lowercased()
        let bad = UsageError("invalid --last '\(text)': expected a number and d, w or m (days, weeks, months)", hint: "e.g. --last 12w")
        guard let suffix = value.last, value.count >= 2 else { throw bad }
        let digits = value.dropLast()
        guard digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(digits), n >= 1 else { throw bad }
        switch suffix {
        case "d" where n <= 3660: return .days(n)
        case "w" where n <= 522: return .weeks(n)
        case "m" where n <= 120: return .months(n)
        case "d", "w", "m": throw UsageError("--last \(text) is longer than DataLab's data (it starts on 2017-08-01)")
        default: throw bad
        }
    }

    static func ages(_ text: String) throws(UsageError) -> [AgeGroup] {
        var groups = Set<AgeGroup>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var word = String(part).trimmingASCIIWhitespace().lowercased()
            if word.hasSuffix("s") { word.removeLast() }
            guard let group = AgeGroup(rawValue: word) else {
                throw UsageError("invalid --ages '\(text)': each age group is one of 10, 20, 30, 40, 50, 60", hint: "e.g. --ages 20,30")
            }
            // A group given twice is a mistake (a typo for another one), not a request to count it twice.
            guard groups.insert(group).inserted else {
                throw UsageError("invalid --ages '\(text)': \(group.rawValue) is given twice", hint: "give each age group once, e.g. --ages 20,30")
            }
        }
        return groups.sorted()
    }
}
