import Foundation
import ShopYCore

/// The emulator's DataLab numbers: synthetic, deterministic click counts a day for any
/// category code or keyword, with a weekly rhythm, a yearly season, a slow trend and noise,
/// all drawn from a seed made of the series' name. Nothing here comes from Naver.
struct DataLabSeries: Sendable {
    /// Keywords starting with this have no clicks at all (an empty series, for clients to test with).
    static let noClicksPrefix = "noclick"

    let seed: UInt64
    let silent: Bool

    /// A category by code, or a keyword inside a category.
    init(code: String, keyword: String? = nil) {
        seed = DataLabSeries.fnv1a(keyword.map { code + "|" + $0 } ?? code)
        silent = keyword?.lowercased().hasPrefix(DataLabSeries.noClicksPrefix) ?? false
    }

    private func unit(_ salt: UInt64) -> Double {
        Double(DataLabSeries.splitmix(seed ^ salt) >> 11) / Double(1 << 53)
    }

    /// Clicks on one day, from every device, gender and age.
    func clicks(on day: CalendarDate) -> Double {
        if silent { return 0 }
        let n = day.dayNumber
        // About one series in four has quiet days without a click (missing from answers by day).
        if seed % 4 == 0 && DataLabSeries.splitmix(seed ^ UInt64(bitPattern: Int64(n)) &* 0x9E37) % 9 == 0 { return 0 }
        let level = 20 + unit(1) * 180
        let weekly = 1 + (0.1 + unit(2) * 0.3) * cos(2 * Double.pi * Double(day.isoWeekday - 1 - Int(unit(3) * 7)) / 7)
        let seasonal = 1 + (0.2 + unit(4) * 0.5) * cos(2 * Double.pi * (Double(n) / 365.25 - unit(5)))
        let trend = max(0.05, 1 + (unit(6) * 0.8 - 0.3) * Double(n - 20_000) / 3650)
        let noise = 0.9 + 0.2 * Double(DataLabSeries.splitmix(seed ^ 0x5EED ^ UInt64(bitPattern: Int64(n))) >> 11) / Double(1 << 53)
        return level * weekly * seasonal * trend * noise
    }

    /// The share of clicks from a group (pc/mo, m/f, 10…60) around `day` (shares drift slowly
    /// through the year); the shares of a breakdown add up to 1.
    func share(_ breakdown: Breakdown, _ group: String, on day: CalendarDate) -> Double {
        let t = Double(day.dayNumber) / 365.25
        func drift(_ salt: UInt64) -> Double { 0.12 * sin(2 * Double.pi * (t + unit(salt))) }
        switch breakdown {
        case .device:
            let pc = 0.2 + unit(7) * 0.35 + drift(17)
            return group == "pc" ? pc : 1 - pc
        case .gender:
            let m = 0.25 + unit(8) * 0.5 + drift(18)
            return group == "m" ? m : 1 - m
        case .age:
            let weights = AgeGroup.allCases.enumerated().map { i, _ in max(0.05, 0.3 + unit(9 + UInt64(i)) + drift(19 + UInt64(i))) }
            let index = AgeGroup.allCases.firstIndex { $0.rawValue == group } ?? 0
            return weights[index] / weights.reduce(0, +)
        }
    }

    /// The share of clicks the filters keep around `day`.
    func share(_ filters: TrendsFilters, on day: CalendarDate) -> Double {
        var share = 1.0
        if let device = filters.device { share *= self.share(.device, device.rawValue, on: day) }
        if let gender = filters.gender { share *= self.share(.gender, gender.rawValue, on: day) }
        if !filters.ages.isEmpty { share *= filters.ages.reduce(0) { $0 + self.share(.age, $1.rawValue, on: day) } }
        return share
    }

    /// Clicks a period of `range` (the days of the period inside the range), filtered.
    func values(_ range: TrendsRange, filters: TrendsFilters, group: (Breakdown, String)? = nil) -> [Double] {
        let periods = range.periods
        return periods.enumerated().map { i, start in
            let share = self.share(filters, on: start) * (group.map { self.share($0.0, $0.1, on: start) } ?? 1)
            let last = i + 1 < periods.count ? periods[i + 1].adding(days: -1) : range.end
            var total = 0.0
            var day = start
            while day <= last {
                total += clicks(on: day)
                day = day.adding(days: 1)
            }
            return total * share
        }
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static func splitmix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
