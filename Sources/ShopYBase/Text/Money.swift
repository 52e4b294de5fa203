/// Prices as shown to Korean shoppers: won with thousands separators.
public enum Money {
    /// 19800 -> "19,800원"; nil or 0 -> "-".
    ///
    /// The shopping API reports a missing price as 0 (or not at all), so both show as a dash
    /// rather than as a misleading "0원".
    public static func won(_ amount: Int?) -> String {
        guard let amount, amount != 0 else { return "-" }
        return grouped(amount) + "원"
    }

    /// 5061752 -> "5,061,752" (grouping with commas, negative numbers with a leading "-").
    ///
    /// Written by hand rather than with a NumberFormatter so it is locale-independent, fast, and
    /// needs no Foundation. `Int.min` works too (its magnitude is taken as unsigned).
    public static func grouped(_ value: Int) -> String {
        let negative = value < 0
        let magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        let length = (negative ? 1 : 0) + digits + (digits - 1) / 3
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = length
            var remaining = magnitude
            var written = 0
            repeat {
                if written > 0 && written % 3 == 0 {
                    position -= 1
                    buffer[position] = UInt8(ascii: ",")
                }
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                written += 1
            } while remaining > 0
            if negative { buffer[0] = UInt8(ascii: "-") }
            return length
        }
    }
}
