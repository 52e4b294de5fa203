import ShopYBase

/// One item of the local catalog: the item as the API sent it, when shopy first and last saw
/// it, and where it came from (a file's name, `stdin`, or `naver` for a recorded listing).
public struct CatalogRecord: Equatable, Sendable {
    public var item: WireItem
    public var firstSeen: String
    public var updated: String
    public var origin: String

    public init(item: WireItem, firstSeen: String, updated: String, origin: String) {
        self.item = item
        self.firstSeen = firstSeen
        self.updated = updated
        self.origin = origin
    }

    /// The stored line: the item's fields as the API writes them, then shopy's three.
    var json: JSONValue {
        guard case .object(var object) = item.json else { return item.json }
        object.appendUnchecked("firstSeen", .string(firstSeen))
        object.appendUnchecked("updated", .string(updated))
        object.appendUnchecked("origin", .string(origin))
        return .object(object)
    }

    init(json: JSONValue, index: Int) throws(WireDecodingError) {
        item = try WireItem(json: json, index: index)
        guard ProductID.usable(item.productId) == item.productId else { throw WireDecodingError("item \(index + 1) has an unusable productId") }
        firstSeen = json["firstSeen"]?.stringValue ?? ""
        updated = json["updated"]?.stringValue ?? firstSeen
        origin = json["origin"]?.stringValue ?? ""
    }

    /// The text when it is a timestamp as `timestamp` writes it (`2026-12-01T12:41:07Z`), else nil:
    /// such timestamps order as text.
    static func validTimestamp(_ text: String) -> String? {
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A,
              digits.allSatisfy({ bytes[$0] &- 0x30 < 10 }) else { return nil }
        return text
    }

    /// The older of a record's first-seen date and another one (an import's), a missing or
    /// unreadable one never winning.
    static func earlier(_ a: String, _ b: String?) -> String {
        guard let b, validTimestamp(b) != nil else { return a }
        guard validTimestamp(a) != nil else { return b }
        return b < a ? b : a
    }

    /// Now as an ISO 8601 UTC timestamp (`2026-12-01T12:41:07Z`).
    static func timestamp(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
