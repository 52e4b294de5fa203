/// The last check of a stitched comparison: a hostile answer (an anchor ratio tiny but in
/// range, 1e-303 or subnormal) makes the stitch factor astronomically large, and the values
/// on the common scale overflow to inf or nan. Such answers cannot be put on one scale: bad data.
extension Stitcher {
    /// The largest value a series may reach on the common scale before it is normalized
    /// (a ratio of 100 times a factor of 10¹⁰): far beyond any real answer's spread.
    static let maxScaled = 1e12
    /// The largest stitch factor (and 1 over the smallest) that still puts answers on one scale.
    static let maxFactor = 1e10

    /// `normalized()`, after checking that every placed value is finite and bounded and that
    /// every normalized value is a finite number from 0 to 100.
    public func checkedNormalized() throws(DataLabError) -> [[Double]?] {
        let problem = DataLabError.badResponse("the answers cannot be put on one scale (an anchor's ratio is too small against the others)")
        if unscalable { throw problem }
        for series in values {
            guard let series else { continue }
            guard series.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Stitcher.maxScaled }) else { throw problem }
        }
        let out = normalized()
        for series in out {
            guard let series else { continue }
            guard series.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 100.000_01 }) else { throw problem }
        }
        return out
    }
}
