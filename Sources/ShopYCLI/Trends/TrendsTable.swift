import ShopYCore
import ShopYBase
/// The terminal table of a trends result: rank, name (or group), a sparkline of the whole
/// range, the latest value, the change against the previous period and the peak. Every line
/// fits in the width.
public enum TrendsTable {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One cell a value, `width` cells at most (consecutive periods averaged when there are
    /// more), from the row's own lowest value (▁) to its highest (█), so that the shape shows
    /// whatever the level. A row without clicks (all 0) lies on the floor, all ▁; a flat row
    /// with clicks (the same value > 0 in every period) is all ▄, at mid height, so the two
    /// never look alike.
    public static func sparkline(_ values: [Double], width: Int) -> String {
        guard !values.isEmpty, width > 0 else { return "" }
        let cells = downsample(values, to: width)
        let low = cells.min() ?? 0, high = cells.max() ?? 0
        guard high > low else { return String(repeating: high > 0 ? bars[3] : bars[0], count: cells.count) }
        return String(cells.map { v in bars[min(7, max(0, WholeNumber.rounded(((v - low) / (high - low) * 8).rounded(.down)) ?? 0))] })
    }

    static func downsample(_ values: [Double], to width: Int) -> [Double] {
        guard values.count > width else { return values }
        return (0..<width).map { j in
            let lower = j * values.count / width, upper = max(lower + 1, (j + 1) * values.count / width)
            let slice = values[lower..<upper]
            return slice.reduce(0, +) / Double(slice.count)
        }
    }

    static func value(_ v: Double) -> String {
        let rounded = (v * 10).rounded() / 10
        return rounded == rounded.rounded() ? WholeNumber.text(rounded) + ".0" : String(format: "%.1f", rounded)
    }

    static func change(_ row: TrendsResult.Row) -> String {
        guard let previous = row.previous else { return "-" }
        guard let change = row.change else { return !TrendsResult.isZero(row.latest) && TrendsResult.isZero(previous) ? "▲ new" : "-" }
        if abs(change) < 0.05 { return "= 0.0%" }
        return (change > 0 ? "▲ " : "▼ ") + String(format: "%.1f", abs(change)) + "%"
    }

    public static func lines(_ result: TrendsResult, columns: Int, color: Bool) -> [String] {
        let byGroup = result.comparison.by != nil
        let names = result.rows.map { Sanitizer.clean(byGroup ? Breakdown.label($0.group ?? "") : $0.series.name) }
        let ranks = result.rows.indices.map { String($0 + 1) }
        let latest = result.rows.map { value($0.latest) }
        let changes = result.rows.map(change)
        let peaks = result.rows.map { row in row.values.isEmpty ? "-" : value(row.values[row.peakIndex]) + " " + result.periods[row.peakIndex].description }
        let nameTitle = byGroup ? "GROUP" : (result.comparison.kind == .categories ? "CATEGORY" : "KEYWORD")
        let rankWidth = max(1, ranks.map(\.count).max() ?? 1)
        var nameWidth = min(24, max(DisplayWidth.of(nameTitle), names.map { DisplayWidth.of($0) }.max() ?? 0))
        let latestWidth = max(6, latest.map { DisplayWidth.of($0) }.max() ?? 0)
        let changeWidth = max(6, changes.map { DisplayWidth.of($0) }.max() ?? 0)
        var peakWidth = max(4, peaks.map { DisplayWidth.of($0) }.max() ?? 0)
        let gap = 2
        func fixed() -> Int { rankWidth + nameWidth + latestWidth + changeWidth + peakWidth + 5 * gap }
        // The sparkline keeps at least 8 cells: the peak column, then the names, give way first.
        var showPeak = true
        if columns - fixed() < 8 { showPeak = false; peakWidth = 0 }
        func fixedNow() -> Int { fixed() - (showPeak ? 0 : gap) }
        if columns - fixedNow() < 8 { nameWidth = max(4, columns - (fixedNow() - nameWidth) - 8) }
        let trendTitle = "TREND"
        let cells = max(1, min(result.periods.count, columns - fixedNow()))
        let trendWidth = max(DisplayWidth.of(trendTitle), cells)

        func line(_ cells: [(String, Int, Bool, Style?)], header: Bool) -> String {
            var parts: [String] = []
            for (text, width, right, style) in cells where width > 0 {
                let padded = DisplayWidth.pad(DisplayWidth.truncate(text, toWidth: width), toWidth: width, alignRight: right)
                parts.append(style.map { $0.apply(padded, enabled: color && !header) } ?? padded)
            }
            var text = parts.joined(separator: String(repeating: " ", count: gap))
            while text.hasSuffix(" ") { text.removeLast() }
            return header ? Style.bold.apply(text, enabled: color) : text
        }

        var out = [line([("#", rankWidth, true, nil), (nameTitle, nameWidth, false, nil), (trendTitle, trendWidth, false, nil),
                         ("LATEST", latestWidth, true, nil), ("CHANGE", changeWidth, true, nil), ("PEAK", showPeak ? peakWidth : 0, false, nil)],
                        header: true)]
        for (i, row) in result.rows.enumerated() {
            let changeStyle: Style? = changes[i].hasPrefix("▲") ? .green : (changes[i].hasPrefix("▼") ? .red : nil)
            out.append(line([(ranks[i], rankWidth, true, .dim), (names[i], nameWidth, false, nil),
                             (sparkline(row.values, width: cells), trendWidth, false, .cyan),
                             (latest[i], latestWidth, true, nil), (changes[i], changeWidth, true, changeStyle),
                             (peaks[i], showPeak ? peakWidth : 0, false, .dim)], header: false))
        }
        return out.map { DisplayWidth.of($0) > columns && !color ? DisplayWidth.truncate($0, toWidth: columns) : $0 }
    }

    /// The line under the table: range, unit, scale, filters and requests.
    public static func footer(_ result: TrendsResult) -> String {
        let c = result.comparison
        var parts = ["\(c.range.start) – \(c.range.end)", "\(result.periods.count) \(c.range.unit == .date ? "day" : c.range.unit.rawValue)\(result.periods.count == 1 ? "" : "s")"]
        if let by = c.by, c.kind == .keywords, let series = c.series.first { parts.append("'\(Sanitizer.clean(series.name))' by \(by.rawValue)") }
        if let category = c.category { parts.append((c.by != nil && c.kind == .categories ? "\(c.by!.rawValue) in " : "in ") + Sanitizer.clean(category.pathText) + " (\(category.code))") }
        var filters: [String] = []
        if let device = c.filters.device { filters.append(device == .pc ? "pc" : "mobile") }
        if let gender = c.filters.gender { filters.append(gender == .m ? "men" : "women") }
        if !c.filters.ages.isEmpty { filters.append("ages " + c.filters.ages.map { $0.rawValue + "s" }.joined(separator: ",")) }
        if !filters.isEmpty { parts.append(filters.joined(separator: ", ")) }
        parts.append("\(result.requests) request\(result.requests == 1 ? "" : "s")")
        parts.append("100 = the largest value")
        return parts.joined(separator: " · ")
    }
}
