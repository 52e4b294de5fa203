/// A whole comparison as the user asked for it, and its answer on one scale.
public struct TrendsComparison: Sendable {
    public enum Kind: String, Sendable {
        case categories, keywords
    }

    /// One series: a category (code) or a keyword.
    public struct Series: Equatable, Sendable {
        public var name: String
        public var code: String?
        public var keyword: String?

        public static func category(_ category: ShoppingCategory) -> Series {
            Series(name: category.name, code: category.code, keyword: nil)
        }

        public static func keyword(_ keyword: String) -> Series {
            Series(name: keyword, code: nil, keyword: keyword)
        }

        /// What the body carries: a category by its code (names repeat across the table), a keyword as itself.
        var key: TrendsSeriesKey {
            if let code { return TrendsSeriesKey(name: code, param: code) }
            return TrendsSeriesKey(name: keyword ?? name, param: keyword ?? name)
        }
    }

    public var kind: Kind
    /// The category the keywords are in (and the one category of a category breakdown).
    public var category: ShoppingCategory?
    public var series: [Series]
    public var range: TrendsRange
    public var filters: TrendsFilters
    public var by: Breakdown?

    public init(kind: Kind, category: ShoppingCategory?, series: [Series], range: TrendsRange, filters: TrendsFilters, by: Breakdown?) {
        self.kind = kind
        self.category = category
        self.series = series
        self.range = range
        self.filters = filters
        self.by = by
    }

    /// Series one request may carry.
    public var limit: Int { kind == .categories ? DataLabRequest.maxCategories : DataLabRequest.maxKeywords }

    /// The request comparing the series at `indices`.
    public func request(for indices: [Int]) -> DataLabRequest {
        let keys = indices.map { series[$0].key }
        switch kind {
        case .categories:
            return DataLabRequest(endpoint: .categories, range: range, filters: filters, categories: keys)
        case .keywords:
            return DataLabRequest(endpoint: .keywords, range: range, filters: filters, category: category?.code, keywords: keys)
        }
    }

    /// The breakdown request for the one series (`by` must be set).
    public func breakdownRequest(_ by: Breakdown) -> DataLabRequest {
        switch kind {
        case .categories:
            return DataLabRequest(endpoint: .breakdown(by, keyword: false), range: range, filters: filters, category: series[0].code)
        case .keywords:
            return DataLabRequest(endpoint: .breakdown(by, keyword: true), range: range, filters: filters, category: category?.code,
                                  keyword: series[0].keyword)
        }
    }
}

/// The comparison's answer: every series (or group) on one scale whose largest value is 100.
public struct TrendsResult: Sendable {
    public struct Row: Equatable, Sendable {
        public var series: TrendsComparison.Series
        public var group: String?
        /// One value a period, on the common scale.
        public var values: [Double]

        public var latest: Double { values.last ?? 0 }
        public var previous: Double? { values.count >= 2 ? values[values.count - 2] : nil }

        /// Percent change from the previous period; nil without one or when it was 0 as a
        /// ratio is written (under half of `TrendsResult.smallestRatio`): against a subnormal
        /// or tiny previous value the quotient is ∞ or a 300-digit number, not a change. So the
        /// change is at most 999,999,900% (from 0.00001 to 100).
        public var change: Double? {
            guard let previous, !TrendsResult.isZero(previous) else { return nil }
            return (latest - previous) / previous * 100
        }

        /// The first period with the largest value.
        public var peakIndex: Int {
            var best = 0
            for (i, v) in values.enumerated() where v > values[best] { best = i }
            return best
        }
    }

    /// The smallest ratio DataLab writes and shopy shows (five decimals): a value under half
    /// of it is written 0.
    public static let smallestRatio = 0.00001

    /// Whether `ratio` is 0 as written with five decimals.
    public static func isZero(_ ratio: Double) -> Bool { !(ratio >= smallestRatio / 2) }

    public var comparison: TrendsComparison
    public var periods: [CalendarDate]
    /// Ranked: the largest latest value first (ties keep the order asked for).
    public var rows: [Row]
    /// Requests sent (retries not counted).
    public var requests: Int
    /// Series that could not be put on the common scale (their anchor had no clicks).
    public var unplaced: [TrendsComparison.Series]

    public init(comparison: TrendsComparison, periods: [CalendarDate], rows: [Row], requests: Int, unplaced: [TrendsComparison.Series] = []) {
        self.comparison = comparison
        self.periods = periods
        self.requests = requests
        self.unplaced = unplaced
        self.rows = rows.enumerated().sorted { a, b in
            a.element.latest != b.element.latest ? a.element.latest > b.element.latest : a.offset < b.offset
        }.map(\.element)
    }
}
