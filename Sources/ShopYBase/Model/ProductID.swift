/// What shopy accepts as a productId from the network.
///
/// Naver's productIds are decimal numbers sent as strings (`"81813683218"`, 8 to 12 digits).
/// A usable one is, after trimming ASCII whitespace, 1 to `maxLength` ASCII digits. Anything else
/// (blank, letters, controls, an escape sequence) cannot be liked or looked up, and a blank one
/// is what the store calls damage, so the mapper leaves such items out of the page.
public enum ProductID {
    public static let maxLength = 32

    /// The trimmed id when usable, else nil.
    public static func usable(_ raw: String) -> String? {
        let trimmed = raw.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxLength,
              trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return trimmed
    }
}
