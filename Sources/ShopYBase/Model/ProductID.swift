/// What shopy accepts as a productId.
///
/// Naver's productIds are decimal numbers sent as strings (`"81813683218"`, 8 to 12 digits), and
/// so are the offline catalog's (recorded from Naver). The other sources' ids are namespaced so
/// that no two sources' products share one: `11st:6543210987` (11번가's ProductCode) and
/// `coupang:27664441` (Coupang's productId). Naver's stay bare, so every existing like stays valid.
/// A usable id is, after trimming ASCII whitespace, 1 to `maxLength` ASCII digits, bare or after
/// one of the namespaces. Anything else (blank, letters, controls, an escape sequence) cannot be
/// liked or looked up, and a blank one is what the store calls damage.
public enum ProductID {
    /// Digits of an id (without its namespace).
    public static let maxLength = 32
    /// The namespaces of the sources whose ids are not Naver's, with their separator.
    public static let namespaces: [(prefix: String, source: SourceKind)] = [("11st:", .elevenst), ("coupang:", .coupang)]
    /// Bytes of the longest usable id: the longest namespace and `maxLength` digits.
    public static let maxIDBytes = maxLength + 8
    /// What a usable id is, in the words errors use: `1 to 32 ASCII digits, alone or after
    /// 11st: or coupang:`.
    public static let described = "1 to \(maxLength) ASCII digits, alone or after " + namespaces.map(\.prefix).joined(separator: " or ")

    /// The trimmed id when usable (bare or namespaced), else nil.
    public static func usable(_ raw: String) -> String? {
        let trimmed = raw.trimmingASCIIWhitespace()
        return trimmed.utf8.withContiguousStorageIfAvailable(isUsable) ?? isUsable(Array(trimmed.utf8)) ? trimmed : nil
    }

    /// The trimmed id when it is bare digits (what a source sends, before shopy namespaces it).
    public static func digits(_ raw: String) -> String? {
        let trimmed = raw.trimmingASCIIWhitespace()
        return isDigits(trimmed.utf8) ? trimmed : nil
    }

    /// Whether `bytes` are a usable id, exactly (no whitespace).
    public static func isUsable<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if isDigits(bytes) { return true }
        for (prefix, _) in namespaces where bytes.starts(with: prefix.utf8) {
            return isDigits(bytes.dropFirst(prefix.utf8.count))
        }
        return false
    }

    static func isDigits<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        !bytes.isEmpty && bytes.count <= maxLength && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The source whose namespace `id` carries; nil for a bare (Naver or catalog) id.
    public static func namespace(of id: String) -> SourceKind? {
        namespaces.first { id.hasPrefix($0.prefix) }?.source
    }

    /// `digits` in `source`'s namespace (bare for Naver and the catalog).
    public static func namespaced(_ digits: String, in source: SourceKind) -> String {
        guard let prefix = namespaces.first(where: { $0.source == source })?.prefix else { return digits }
        return prefix + digits
    }

    /// The id without its namespace.
    public static func bare(_ id: String) -> String {
        for (prefix, _) in namespaces where id.hasPrefix(prefix) { return String(id.dropFirst(prefix.count)) }
        return id
    }
}
