/// How trends text counts its series: "1 category", "3 categories", "1 keyword".
extension TrendsComparison.Kind {
    package var singular: String { self == .categories ? "category" : "keyword" }

    /// `n` and the noun, singular for 1.
    package func counted(_ n: Int) -> String { "\(n) \(n == 1 ? singular : rawValue)" }
}
