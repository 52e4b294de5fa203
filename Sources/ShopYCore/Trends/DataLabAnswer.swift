/// A DataLab answer read onto the request's period grid: one series per result (or per group
/// for the breakdown endpoints), a value per period, 0 where the answer has none.
import ShopYBase

public struct DataLabAnswer: Equatable, Sendable {
    public struct Series: Equatable, Sendable {
        public var key: TrendsSeriesKey
        /// pc/mo, m/f, 10…60 for a breakdown; nil otherwise.
        public var group: String?
        public var values: [Double]
    }

    public var series: [Series]

    /// The most results and data points an answer may carry (hostile servers): far above what
    /// ten years by day in six groups needs.
    static let maxPoints = 200_000

    /// Parses and checks a 200 body against the request it answers: results in the request's
    /// order (matched by title, else by position), periods on the grid, ratios from 0 to 100,
    /// groups the endpoint has, no period twice.
    public init(body: [UInt8], request: DataLabRequest, periods: [CalendarDate]) throws(DataLabError) {
        let json: JSONValue
        do { json = try JSONParser.parse(body) } catch { throw .badResponse(error.description) }
        guard let results = json["results"]?.arrayValue else { throw .badResponse("no \"results\" array") }
        let keys = request.seriesKeys
        guard results.count == keys.count else {
            throw .badResponse("\(results.count) result\(results.count == 1 ? "" : "s") for \(keys.count) series")
        }
        let breakdown = request.endpoint.breakdown
        let groups = breakdown?.groups(filteredBy: request.filters) ?? []
        var total = 0
        var out: [Series] = []
        // Titles are matched when they are exactly the names sent; otherwise results are taken in order.
        let titles = results.map { $0["title"]?.textValue }
        let byTitle = breakdown == nil && Set(titles.compactMap { $0 }) == Set(keys.map(\.name)) && Set(titles.compactMap { $0 }).count == keys.count
        for (index, key) in keys.enumerated() {
            let position = byTitle ? titles.firstIndex(of: key.name)! : index
            guard let data = results[position]["data"]?.arrayValue else {
                throw .badResponse("result \(position + 1) has no \"data\" array")
            }
            total += data.count
            guard total <= DataLabAnswer.maxPoints else { throw .badResponse("more than \(DataLabAnswer.maxPoints) data points") }
            var valuesByGroup: [String: [Double?]] = [:]
            for group in (breakdown == nil ? [""] : groups) { valuesByGroup[group] = Array(repeating: nil, count: periods.count) }
            for point in data {
                guard let periodText = point["period"]?.stringValue, let date = CalendarDate(periodText) else {
                    throw .badResponse("a period is not a yyyy-mm-dd date")
                }
                guard let slot = request.range.periodIndex(of: date, in: periods) else {
                    throw .badResponse("period \(periodText) is outside \(request.range.start)…\(request.range.end)")
                }
                guard case .number(let text)? = point["ratio"], let ratio = Double(text), ratio.isFinite,
                      ratio >= 0, ratio <= 100.000_01 else {
                    throw .badResponse("the ratio for \(periodText) is not a number from 0 to 100")
                }
                let group: String
                if breakdown != nil {
                    guard let g = point["group"]?.textValue, groups.contains(g) else {
                        throw .badResponse("a \(breakdown!.rawValue) group is not one of \(groups.joined(separator: ", "))")
                    }
                    group = g
                } else {
                    group = ""
                }
                guard valuesByGroup[group]![slot] == nil else { throw .badResponse("period \(periodText) appears twice") }
                valuesByGroup[group]![slot] = min(ratio, 100)
            }
            for group in (breakdown == nil ? [""] : groups) {
                out.append(Series(key: key, group: breakdown == nil ? nil : group, values: valuesByGroup[group]!.map { $0 ?? 0 }))
            }
        }
        series = out
    }

    init(series: [Series]) { self.series = series }
}
