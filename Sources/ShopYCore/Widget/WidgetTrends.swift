import ShopYBase

/// The trends item: the top-level shopping category with the most clicks over the last four
/// weeks (DataLab Shopping Insight), fetched by the background refresh only.
public enum WidgetTrends {
    /// The comparison the item shows: the default top-level categories, by week, the four weeks
    /// that ended yesterday (in Korea).
    static func comparison(today: CalendarDate) -> TrendsComparison {
        let end = today.adding(days: -1)
        let range = TrendsRange(start: end.adding(days: -27), end: end, unit: .week)
        return TrendsComparison(kind: .categories, category: nil, series: CategoryTable.embedded.defaultComparison.map(TrendsComparison.Series.category),
                                range: range, filters: TrendsFilters(), by: nil)
    }

    /// One DataLab round (a request per group of categories) through the service `trends`
    /// uses; throws what it throws.
    package static func fetch(_ trends: TrendsService, today: CalendarDate, timeout: Double) async throws -> (item: WidgetItem, requests: Int) {
        let result = try await trends.compare(comparison(today: today), timeout: timeout)
        guard let top = result.rows.max(by: { $0.latest < $1.latest }) else { throw SourceError.badResponse("DataLab answered no rows") }
        // A checked conversion: the change comes from the network (bounded by `change`, but a
        // trap here once left the bar without a timeline).
        let change = top.change.flatMap(WholeNumber.rounded).map { percent in
            percent >= 0 ? " ▲\(percent)%" : " ▼\(percent.magnitude)%"
        } ?? ""
        let item = WidgetItem(optionID: "trends", kind: .trends, short: "↗ \(top.series.name)",
                              line: "↗ trending: \(top.series.name)\(change) (clicks, last 4 weeks)")
        return (item, result.requests)
    }
}
