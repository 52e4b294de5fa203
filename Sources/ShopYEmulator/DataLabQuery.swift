import Foundation
import ShopYCore
import ShopYBase

/// One DataLab request body as the emulator reads it, checked as the contract says, and the
/// answer it gets.
struct DataLabQuery: Sendable {
    struct Series: Sendable {
        var title: String
        /// `"category": [codes]` or `"keyword": [keywords]` in the answer.
        var field: String
        var params: [String]
        var numbers: [DataLabSeries]
    }

    var endpoint: DataLabRequest.Endpoint
    var range: TrendsRange
    var filters: TrendsFilters
    var series: [Series]

    /// Every name and param, for `--fault-query`.
    var names: [String] { series.flatMap { [$0.title] + $0.params } }

    static func bad(_ message: String) -> Result<DataLabQuery, APIError> {
        .failure(APIError(status: 400, code: "400", message: "Bad request: " + message))
    }

    /// `limits` false (the ground truth) lifts the 3-category and 5-keyword limits.
    static func parse(_ body: [UInt8], endpoint: DataLabRequest.Endpoint, limits: Bool, today: CalendarDate) -> Result<DataLabQuery, APIError> {
        guard let json = try? JSONParser.parse(body), let o = json.objectValue else { return bad("the body is not a JSON object") }
        guard let startText = o["startDate"]?.stringValue, let start = CalendarDate(startText) else { return bad("startDate must be a yyyy-mm-dd date") }
        guard let endText = o["endDate"]?.stringValue, let end = CalendarDate(endText) else { return bad("endDate must be a yyyy-mm-dd date") }
        guard start >= TrendsRange.earliest else { return bad("startDate must be 2017-08-01 or later") }
        guard start <= end else { return bad("startDate must not be after endDate") }
        guard end <= today else { return bad("endDate must not be in the future") }
        guard let unitText = o["timeUnit"]?.stringValue, let unit = TimeUnit(rawValue: unitText) else {
            return bad("timeUnit must be date, week or month")
        }
        var filters = TrendsFilters()
        if let device = o["device"] {
            guard let text = device.stringValue, text.isEmpty || DeviceFilter(rawValue: text) != nil else { return bad("device must be pc, mo or \"\"") }
            filters.device = DeviceFilter(rawValue: text)
        }
        if let gender = o["gender"] {
            guard let text = gender.stringValue, text.isEmpty || GenderFilter(rawValue: text) != nil else { return bad("gender must be m, f or \"\"") }
            filters.gender = GenderFilter(rawValue: text)
        }
        if let ages = o["ages"] {
            guard let array = ages.arrayValue else { return bad("ages must be an array") }
            var groups: [AgeGroup] = []
            for age in array {
                guard let group = age.stringValue.flatMap(AgeGroup.init(rawValue:)) else { return bad("ages holds 10, 20, 30, 40, 50 or 60") }
                if !groups.contains(group) { groups.append(group) }
            }
            filters.ages = groups.sorted()
        }
        let range = TrendsRange(start: start, end: end, unit: unit)
        func code(_ value: JSONValue?) -> String? {
            guard let text = value?.stringValue, CategoryTable.isCode(text) else { return nil }
            return text
        }
        var series: [Series] = []
        switch endpoint {
        case .categories:
            guard let groups = o["category"]?.arrayValue, !groups.isEmpty else { return bad("category must be an array of 1 to 3 groups") }
            if limits && groups.count > DataLabRequest.maxCategories { return bad("category holds at most 3 groups") }
            for group in groups {
                guard let name = group["name"]?.stringValue, !name.isEmpty, let params = group["param"]?.arrayValue, !params.isEmpty else {
                    return bad("each category group needs a name and a param array of codes")
                }
                let codes = params.compactMap(code)
                guard codes.count == params.count else { return bad("category codes are strings of digits") }
                series.append(Series(title: name, field: "category", params: codes, numbers: codes.map { DataLabSeries(code: $0) }))
            }
        case .keywords:
            guard let category = code(o["category"]) else { return bad("category must be one code string") }
            guard let groups = o["keyword"]?.arrayValue, !groups.isEmpty else { return bad("keyword must be an array of 1 to 5 groups") }
            if limits && groups.count > DataLabRequest.maxKeywords { return bad("keyword holds at most 5 groups") }
            for group in groups {
                guard let name = group["name"]?.stringValue, !name.isEmpty, let params = group["param"]?.arrayValue, !params.isEmpty else {
                    return bad("each keyword group needs a name and a param array of keywords")
                }
                let words = params.compactMap(\.stringValue).filter { !$0.isEmpty }
                guard words.count == params.count else { return bad("keywords are non-empty strings") }
                series.append(Series(title: name, field: "keyword", params: words, numbers: words.map { DataLabSeries(code: category, keyword: $0) }))
            }
        case .categoryDevice, .categoryGender, .categoryAge:
            guard let category = code(o["category"]) else { return bad("category must be one code string") }
            series.append(Series(title: category, field: "category", params: [category], numbers: [DataLabSeries(code: category)]))
        case .keywordDevice, .keywordGender, .keywordAge:
            guard let category = code(o["category"]) else { return bad("category must be one code string") }
            guard let keyword = o["keyword"]?.stringValue, !keyword.isEmpty else { return bad("keyword must be one keyword string") }
            series.append(Series(title: keyword, field: "keyword", params: [keyword], numbers: [DataLabSeries(code: category, keyword: keyword)]))
        }
        return .success(DataLabQuery(endpoint: endpoint, range: range, filters: filters, series: series))
    }

    /// The 200 body: every series (or group) per period, scaled so that the answer's largest
    /// value is 100, rounded to `decimals` (nil: full precision); periods without clicks left out.
    func answer(decimals: Int?) -> [UInt8] {
        let periods = range.periods
        let groups: [(Breakdown, String)?] = endpoint.breakdown.map { by in by.groups(filteredBy: filters).map { (by, $0) } } ?? [nil]
        // values[series][group][period]
        let values: [[[Double]]] = series.map { s in
            groups.map { group in
                s.numbers.map { $0.values(range, filters: group?.0 == .age ? TrendsFilters(device: filters.device, gender: filters.gender) : filters, group: group) }.reduce(into: Array(repeating: 0.0, count: periods.count)) { total, v in
                    for i in v.indices { total[i] += v[i] }
                }
            }
        }
        let peak = values.flatMap { $0.flatMap { $0 } }.max() ?? 0
        var results: [JSONValue] = []
        for (si, s) in series.enumerated() {
            var data: [JSONValue] = []
            for (pi, period) in periods.enumerated() {
                for (gi, group) in groups.enumerated() {
                    let raw = values[si][gi][pi]
                    guard raw > 0, peak > 0 else { continue }
                    var point = JSONObject()
                    point["period"] = .string(period.description)
                    if let group { point["group"] = .string(group.1) }
                    point["ratio"] = .number(DataLabQuery.format(raw / peak * 100, decimals: decimals))
                    data.append(.object(point))
                }
            }
            var result = JSONObject()
            result["title"] = .string(s.title)
            result[s.field] = .array(s.params.map(JSONValue.string))
            result["data"] = .array(data)
            results.append(.object(result))
        }
        var o = JSONObject()
        o["startDate"] = .string(range.start.description)
        o["endDate"] = .string(range.end.description)
        o["timeUnit"] = .string(range.unit.rawValue)
        o["results"] = .array(results)
        return JSONWriter.serialize(.object(o))
    }

    static func format(_ value: Double, decimals: Int?) -> String {
        guard let decimals else { return "\(value)" }
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
