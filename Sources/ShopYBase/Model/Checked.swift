/// Integer arithmetic on values that came from the network or argv: never traps.
public enum Checked {
    /// a + b, or nil on overflow.
    public static func add(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    /// a + b, held at Int.min / Int.max instead of overflowing.
    public static func sum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if !overflow { return sum }
        return b > 0 ? .max : .min
    }

    /// a + b - 1 (the last rank of `b` items from `a`), saturating.
    public static func last(from a: Int, count b: Int) -> Int {
        sum(a, sum(b, -1))
    }
}
