/// Bounds of the ground-truth endpoints (`POST /_emulator/datalab/<endpoint>`), which lift the
/// contract's 3-category and 5-keyword limits: a body, a series count and a period count past
/// these get a 400 with a one-line JSON error instead of unbounded work.
struct GroundTruthLimits: Sendable {
    var bodyBytes = 1 << 20
    var series = 20
    var periodsPerSeries = 5_000

    static let standard = GroundTruthLimits()

    /// The 400 for a request past a bound, or nil when it is within them all.
    func refusal(bodyCount: Int) -> Reply? {
        guard bodyCount > bodyBytes else { return nil }
        return DataLabAPI.error(400, "400", "Bad request: a ground-truth body may take at most \(bodyBytes) bytes")
    }

    func refusal(_ query: DataLabQuery) -> Reply? {
        if query.series.count > series {
            return DataLabAPI.error(400, "400", "Bad request: the ground truth answers at most \(series) series (\(query.series.count) asked)")
        }
        let periods = query.range.periods.count
        if periods > periodsPerSeries {
            return DataLabAPI.error(400, "400", "Bad request: the ground truth answers at most \(periodsPerSeries) periods per series (\(periods) asked)")
        }
        return nil
    }
}
