/// What a trends comparison asks DataLab for: the range, the unit, the filters and the series.

public enum TimeUnit: String, CaseIterable, Sendable {
    case date, week, month
}

public enum DeviceFilter: String, CaseIterable, Sendable {
    case pc, mo
}

public enum GenderFilter: String, CaseIterable, Sendable {
    case m, f
}

/// The age groups DataLab knows: "10" (10s) … "60" (60 and over).
public enum AgeGroup: String, CaseIterable, Sendable, Comparable {
    case a10 = "10", a20 = "20", a30 = "30", a40 = "40", a50 = "50", a60 = "60"

    public static func < (a: AgeGroup, b: AgeGroup) -> Bool { a.rawValue < b.rawValue }
}

/// `--by`: one of the breakdown endpoints.
public enum Breakdown: String, CaseIterable, Sendable {
    case device, gender, age

    /// The groups an answer carries, in display order.
    public var groups: [String] {
        switch self {
        case .device: return DeviceFilter.allCases.map(\.rawValue)
        case .gender: return GenderFilter.allCases.map(\.rawValue)
        case .age: return AgeGroup.allCases.map(\.rawValue)
        }
    }

    /// The groups an answer carries under `filters`: `--by age --ages 20,30` has only those two.
    public func groups(filteredBy filters: TrendsFilters) -> [String] {
        self == .age && !filters.ages.isEmpty ? filters.ages.map(\.rawValue) : groups
    }

    /// How a group is named in a table (`10s`, `60s`; pc/mo and m/f as they are).
    public static func label(_ group: String) -> String {
        AgeGroup(rawValue: group) != nil ? group + "s" : group
    }
}

/// The optional filters. Nil (or empty) means all, and is left out of the body.
public struct TrendsFilters: Equatable, Sendable {
    public var device: DeviceFilter?
    public var gender: GenderFilter?
    public var ages: [AgeGroup]

    public init(device: DeviceFilter? = nil, gender: GenderFilter? = nil, ages: [AgeGroup] = []) {
        self.device = device
        self.gender = gender
        self.ages = ages
    }
}

/// The range and unit of every request of one comparison.
public struct TrendsRange: Equatable, Sendable {
    public var start: CalendarDate
    public var end: CalendarDate
    public var unit: TimeUnit

    public init(start: CalendarDate, end: CalendarDate, unit: TimeUnit) {
        self.start = start
        self.end = end
        self.unit = unit
    }

    /// The earliest start DataLab serves.
    public static let earliest = CalendarDate(year: 2017, month: 8, day: 1)!

    /// The first day of every period from `start` to `end`: `start` itself, then each day, each
    /// Monday or each first of the month after it. This is the grid answers are read onto, so a
    /// period missing from an answer is a 0 in its place, never a shift.
    public var periods: [CalendarDate] {
        guard start <= end else { return [] }
        var out = [start]
        var next: CalendarDate
        switch unit {
        case .date: next = start.adding(days: 1)
        case .week: next = start.monday.adding(days: 7)
        case .month: next = start.firstOfMonth.adding(months: 1)
        }
        while next <= end {
            out.append(next)
            switch unit {
            case .date: next = next.adding(days: 1)
            case .week: next = next.adding(days: 7)
            case .month: next = next.adding(months: 1)
            }
        }
        return out
    }

    /// The index in `periods` of the period holding `date` (an answer may label a week by its
    /// Monday or a month by its first even before `start`); nil when it is outside the range.
    public func periodIndex(of date: CalendarDate, in periods: [CalendarDate]) -> Int? {
        guard let first = periods.first, date <= end else { return nil }
        if date < first {
            switch unit {
            case .date: return nil
            case .week: return date.monday == first.monday ? 0 : nil
            case .month: return date.firstOfMonth == first.firstOfMonth ? 0 : nil
            }
        }
        // Binary search for the last period starting on or before `date`.
        var low = 0, high = periods.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if periods[mid] <= date { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// One series of a comparison: a category (by code) or a keyword.
public struct TrendsSeriesKey: Hashable, Sendable {
    /// The name sent in the body and matched in the answer (the code for a category).
    public var name: String
    /// The code or the keyword sent as `param`.
    public var param: String

    public init(name: String, param: String) {
        self.name = name
        self.param = param
    }
}
