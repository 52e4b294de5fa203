/// One DataLab request: which endpoint, and the body the contract wants.
import ShopYBase

public struct DataLabRequest: Equatable, Sendable {
    public enum Endpoint: String, CaseIterable, Sendable {
        case categories = "/categories"
        case categoryDevice = "/category/device"
        case categoryGender = "/category/gender"
        case categoryAge = "/category/age"
        case keywords = "/category/keywords"
        case keywordDevice = "/category/keyword/device"
        case keywordGender = "/category/keyword/gender"
        case keywordAge = "/category/keyword/age"

        public var path: String { rawValue }

        /// The breakdown endpoint for one category (`keyword` false) or one keyword.
        public static func breakdown(_ by: Breakdown, keyword: Bool) -> Endpoint {
            switch (by, keyword) {
            case (.device, false): return .categoryDevice
            case (.gender, false): return .categoryGender
            case (.age, false): return .categoryAge
            case (.device, true): return .keywordDevice
            case (.gender, true): return .keywordGender
            case (.age, true): return .keywordAge
            }
        }

        public var breakdown: Breakdown? {
            switch self {
            case .categories, .keywords: return nil
            case .categoryDevice, .keywordDevice: return .device
            case .categoryGender, .keywordGender: return .gender
            case .categoryAge, .keywordAge: return .age
            }
        }
    }

    /// Series a request may carry at most.
    public static let maxCategories = 3
    public static let maxKeywords = 5

    public var endpoint: Endpoint
    public var range: TrendsRange
    public var filters: TrendsFilters
    /// `/categories`: the categories compared (name = code, param = [code]).
    public var categories: [TrendsSeriesKey] = []
    /// Every other endpoint: the one category code.
    public var category: String? = nil
    /// `/category/keywords`: the keywords compared (name = keyword, param = [keyword]).
    public var keywords: [TrendsSeriesKey] = []
    /// `/category/keyword/*`: the one keyword.
    public var keyword: String? = nil

    public init(endpoint: Endpoint, range: TrendsRange, filters: TrendsFilters, categories: [TrendsSeriesKey] = [],
                category: String? = nil, keywords: [TrendsSeriesKey] = [], keyword: String? = nil) {
        self.endpoint = endpoint
        self.range = range
        self.filters = filters
        self.categories = categories
        self.category = category
        self.keywords = keywords
        self.keyword = keyword
    }

    /// The series the answer's `results` must hold, in order.
    public var seriesKeys: [TrendsSeriesKey] {
        switch endpoint {
        case .categories: return categories
        case .keywords: return keywords
        default: return [TrendsSeriesKey(name: keyword ?? category ?? "", param: keyword ?? category ?? "")]
        }
    }

    /// The JSON body: startDate, endDate, timeUnit, category, keyword, then only the filters
    /// that are set (a filter sent as null is reported to answer 400).
    public var body: JSONValue {
        var o = JSONObject()
        o.appendUnchecked("startDate", .string(range.start.description))
        o.appendUnchecked("endDate", .string(range.end.description))
        o.appendUnchecked("timeUnit", .string(range.unit.rawValue))
        func group(_ key: TrendsSeriesKey) -> JSONValue {
            .object(JSONObject(["name": .string(key.name), "param": .array([.string(key.param)])]))
        }
        switch endpoint {
        case .categories:
            o.appendUnchecked("category", .array(categories.map(group)))
        case .keywords:
            o.appendUnchecked("category", .string(category ?? ""))
            o.appendUnchecked("keyword", .array(keywords.map(group)))
        case .keywordDevice, .keywordGender, .keywordAge:
            o.appendUnchecked("category", .string(category ?? ""))
            o.appendUnchecked("keyword", .string(keyword ?? ""))
        case .categoryDevice, .categoryGender, .categoryAge:
            o.appendUnchecked("category", .string(category ?? ""))
        }
        if let device = filters.device { o.appendUnchecked("device", .string(device.rawValue)) }
        if let gender = filters.gender { o.appendUnchecked("gender", .string(gender.rawValue)) }
        if !filters.ages.isEmpty { o.appendUnchecked("ages", .array(filters.ages.map { .string($0.rawValue) })) }
        return .object(o)
    }

    public var bodyBytes: [UInt8] { JSONWriter.serialize(body) }
}
