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
