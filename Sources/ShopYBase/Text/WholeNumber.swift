/// Whole numbers from floating-point values that came from outside (a DataLab ratio, a change
/// computed from prices): `Int(_:)` traps on NaN, ±∞ and anything past Int's range, which a
/// hostile answer can reach; these return nil instead.
public enum WholeNumber {
    /// The nearest whole number (halves away from zero), or nil when there is none in Int.
    public static func rounded(_ value: Double) -> Int? {
        Int(exactly: value.rounded())
    }

    /// `value` written as a whole number when it is one (`8`), else as it is (`2.5`).
    public static func text(_ value: Double) -> String {
        guard value == value.rounded(), let whole = Int(exactly: value) else { return String(value) }
        return String(whole)
    }
}
