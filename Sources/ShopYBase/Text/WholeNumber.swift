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

/// The exact value of a JSON number as a whole number, without going through a Double (which
/// would round 9007199254740993 and call 9223372036854775808 a whole Int).
extension WholeNumber {
    public enum Exact: Equatable, Sendable {
        /// A whole number that fits an Int: `1000`, `1e3`, `1.5E3`, `1000.0`, `-0`.
        case whole(Int)
        /// Not a whole number: `1.5`, `1e-3`.
        case fraction
        /// Whole, but past Int's range: `9223372036854775808`, `1e30`.
        case outOfRange
    }

    /// `text`'s exact value, or nil when it is not a JSON number.
    public static func exactly(jsonNumber text: String) -> Exact? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        let whole = bytes.prefix(while: isDigit)
        guard !whole.isEmpty else { return nil }
        bytes = bytes.dropFirst(whole.count)
        var fraction = ArraySlice<UInt8>()
        if bytes.first == UInt8(ascii: ".") {
            fraction = bytes.dropFirst().prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        var exponent = 0
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            let minus = bytes.first == UInt8(ascii: "-")
            if minus || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix(while: isDigit)
            guard !digits.isEmpty else { return nil }
            bytes = bytes.dropFirst(digits.count)
            // Past a million the exponent alone decides (no Int has more than 19 digits).
            for d in digits { exponent = min(exponent * 10 + Int(d - 0x30), 1_000_000) }
            if minus { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }
        // The significant digits and the power of ten they are scaled by.
        var digits = Array((whole + fraction).drop { $0 == 0x30 })
        guard !digits.isEmpty else { return .whole(0) }
        exponent -= fraction.count
        while exponent < 0, digits.last == 0x30 {
            digits.removeLast()
            exponent += 1
        }
        if exponent < 0 { return .fraction }
        if digits.count + exponent > 19 { return .outOfRange }
        var value = 0
        for d in digits + [UInt8](repeating: 0x30, count: exponent) {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(Int(d - 0x30)) : times.addingReportingOverflow(Int(d - 0x30))
            if o1 || o2 { return .outOfRange }
            value = sum
        }
        return .whole(value)
    }
}
