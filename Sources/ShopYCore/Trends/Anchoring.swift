/// Comparing more series than one DataLab request carries (3 categories, 5 keywords).
///
/// Every answer is scaled so that its own largest value is 100, so two answers share a scale
/// only through a series they both carry. The plan puts one anchor series into every request
/// and fills the rest of each request with new series: ⌈(n − 1) / (limit − 1)⌉ requests, the
/// fewest any scheme with a shared series can make. `Stitcher` then rescales each answer by
/// the anchor's total in the first answer over its total in this one, and the whole comparison
/// is scaled once more so that its largest value is 100.
public enum AnchorPlan {
    /// Groups of series indices, one group a request; with more than one group, `anchor` is
    /// the first index of every group.
    public static func groups(count: Int, limit: Int, anchor: Int = 0) -> [[Int]] {
        precondition(limit >= 2 && count >= 1 && (0..<count).contains(anchor))
        if count <= limit { return [Array(0..<count)] }
        let others = (0..<count).filter { $0 != anchor }
        return stride(from: 0, to: others.count, by: limit - 1).map { start in
            [anchor] + others[start..<min(start + limit - 1, others.count)]
        }
    }

    /// The number of requests `groups` makes.
    public static func requestCount(count: Int, limit: Int) -> Int {
        count <= limit ? 1 : (count - 1 + limit - 2) / (limit - 1)
    }
}

/// Puts the answers of several requests onto one scale.
public struct Stitcher: Sendable {
    /// Values on the common scale, by series index; nil until placed.
    public private(set) var values: [[Double]?]
    /// A stitch factor was not finite or outside 10⁻¹⁰…10¹⁰ (see `checkedNormalized`).
    public private(set) var unscalable = false

    public init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    public var unplaced: [Int] { values.indices.filter { values[$0] == nil } }

    /// The first answer: its scale becomes the common one.
    public mutating func setReference(series: [Int], answer: [[Double]]) {
        for (i, index) in series.enumerated() { values[index] = answer[i] }
    }

    /// Places the series of one answer through `anchor` (already placed, and in `series`).
    /// Returns false, placing nothing, when the anchor has no clicks in the answer or on the
    /// common scale while another series of the answer has some: then the answer cannot be
    /// scaled. An answer that is all zeros places its series at 0.
    @discardableResult
    public mutating func place(series: [Int], answer: [[Double]], anchor: Int) -> Bool {
        guard let anchorPosition = series.firstIndex(of: anchor), let reference = values[anchor] else { return false }
        let answerTotal = answer[anchorPosition].reduce(0, +)
        let referenceTotal = reference.reduce(0, +)
        let factor: Double
        if answerTotal > 0 && referenceTotal > 0 {
            factor = referenceTotal / answerTotal
        } else if answer.allSatisfy({ $0.allSatisfy { $0 == 0 } }) {
            factor = 0
        } else {
            return false
        }
        if factor != 0 && !(factor.isFinite && (1 / Stitcher.maxFactor...Stitcher.maxFactor).contains(factor)) { unscalable = true }
        for (i, index) in series.enumerated() where index != anchor && values[index] == nil {
            values[index] = answer[i].map { $0 * factor }
        }
        return true
    }

    /// The placed series with the most clicks on the common scale (a new anchor), or nil.
    public func strongest(excluding excluded: Set<Int>) -> Int? {
        var best: (Int, Double)?
        for (index, series) in values.enumerated() where !excluded.contains(index) {
            guard let series else { continue }
            let total = series.reduce(0, +)
            if total > 0 && (best == nil || total > best!.1) { best = (index, total) }
        }
        return best?.0
    }

    /// Every placed series scaled so that the largest value of the comparison is 100.
    public func normalized() -> [[Double]?] {
        let peak = values.compactMap { $0?.max() }.max() ?? 0
        guard peak > 0 else { return values }
        return values.map { $0?.map { $0 * 100 / peak } }
    }
}
