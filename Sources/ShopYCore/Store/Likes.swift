import Foundation
import ShopYBase

/// A liked product: the full snapshot at the time of the like, so likes work when the source is
/// offline or retired.
public struct Like: Equatable, Sendable {
    public var product: Product
    /// ISO 8601 in UTC (`2026-11-29T20:33:43Z`): sorts as text.
    public var likedAt: String
    /// The price when liked.
    public var likedPrice: Int?

    public init(product: Product, likedAt: String, likedPrice: Int?) {
        self.product = product
        self.likedAt = likedAt
        self.likedPrice = likedPrice
    }

    /// The stored form: the item schema of search's JSON (without rank), then likedAt and
    /// likedPrice. productId comes first so the store can find ids without decoding.
    public var json: JSONValue {
        var o = JSONObject()
        ProductJSON.append(product, to: &o)
        o.appendUnchecked("likedAt", .string(likedAt))
        o.appendUnchecked("likedPrice", .int(orNull: likedPrice))
        return .object(o)
    }

    /// Strict decoding of a stored or imported like; `problem` says what is wrong.
    public init(json: JSONValue) throws(StoredValueError) {
        guard case .object(let o) = json else { throw StoredValueError("is \(json.kindName), not a like object") }
        func string(_ key: String, required: Bool = false) throws(StoredValueError) -> String? {
            switch o[key] {
            case .string(let s)?: return s
            case nil, .null?:
                if required { throw StoredValueError("has no \"\(key)\"") }
                return nil
            case let other?: throw StoredValueError("has \(other.kindName) for \"\(key)\"")
            }
        }
        func int(_ key: String) throws(StoredValueError) -> Int? {
            switch o[key] {
            case nil, .null?: return nil
            case .number(let n)?:
                // Any whole number (`1000`, `1e3`, `1000.0`): stored as its digits.
                let value: Int
                switch Int(n).map(WholeNumber.Exact.whole) ?? WholeNumber.exactly(jsonNumber: n) {
                case .whole(let whole)?: value = whole
                case .outOfRange?: throw StoredValueError(Like.outOfRange(key))
                case .fraction?, nil: throw StoredValueError("has a non-integer \"\(key)\"")
                }
                // Prices and the product type are never negative (as `LikeCollection`'s check says).
                guard value >= 0 else { throw StoredValueError("has a negative \"\(key)\"") }
                return value
            case let other?: throw StoredValueError("has \(other.kindName) for \"\(key)\"")
            }
        }
        guard let id = try string("productId", required: true), !id.isEmpty else { throw StoredValueError("has an empty \"productId\"") }
        guard ProductID.usable(id) == id else { throw StoredValueError("has a \"productId\" that is not \(ProductID.described)") }
        var categories: [String] = []
        switch o["categories"] {
        case nil, .null?: break
        case .array(let values)?:
            for value in values {
                guard case .string(let s) = value else { throw StoredValueError("has a non-string category") }
                categories.append(s)
            }
        case let other?: throw StoredValueError("has \(other.kindName) for \"categories\"")
        }
        product = Product(productId: id, title: try string("title") ?? "", price: try int("price"), highPrice: try int("highPrice"),
                          mall: try string("mall"), brand: try string("brand"), maker: try string("maker"), categories: categories,
                          productType: try int("productType"), link: try string("link"), image: try string("image"))
        likedAt = try string("likedAt") ?? ""
        likedPrice = try int("likedPrice")
    }

    /// `2026-11-29T20:33:43Z`: whole seconds, UTC, the year always in four digits (`0001`, not
    /// `1`), which is the only form `WidgetClock.parse` and the likes' sort key read. A time
    /// outside the years 0000–9999 has no such form and is held at the nearest end, so that
    /// whatever time is stored reads back.
    public static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let bounded = interval.isNaN ? 0 : min(max(interval.rounded(.down), Like.earliestSecond), Like.latestSecond)
        var t = time_t(Int(bounded))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(parts.tm_year + 1900)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year
            + "-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since 1970.
    static let earliestSecond: Double = -62_167_219_200
    static let latestSecond: Double = 253_402_300_799
}

/// Codable in the same flat shape as `Like.json`.
extension Like: Codable {
    private enum Keys: String, CodingKey { case likedAt, likedPrice }

    public init(from decoder: Decoder) throws {
        product = try Product(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        likedAt = try container.decodeIfPresent(String.self, forKey: .likedAt) ?? ""
        likedPrice = try container.decodeIfPresent(Int.self, forKey: .likedPrice)
    }

    public func encode(to encoder: Encoder) throws {
        try product.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(likedAt, forKey: .likedAt)
        try container.encodeIfPresent(likedPrice, forKey: .likedPrice)
    }
}

extension StoredValueError: CustomStringConvertible {
    public var description: String { problem }
}

/// A search remembered in the history.
public struct HistoryEntry: Codable, Equatable, Sendable {
    public var query: String
    /// ISO 8601 UTC.
    public var at: String

    public init(query: String, at: String) {
        self.query = query
        self.at = at
    }

    public static let limit = 100

    /// Adds `query` as the most recent, removing older duplicates, keeping at most `limit`.
    public static func record(_ query: String, at: String, in history: [HistoryEntry]) -> [HistoryEntry] {
        var updated = [HistoryEntry(query: query, at: at)]
        updated += history.filter { $0.query != query }
        return Array(updated.prefix(limit))
    }
}

/// The rows of the last listing, so that `shopy like 3` means the third row printed.
public struct LastListing: Codable, Equatable, Sendable {
    public struct Row: Codable, Equatable, Sendable {
        /// The row as printed: `21`, or `2.3` for section 2, rank 3 of a popular listing.
        public var row: String
        public var product: Product

        public init(row: String, product: Product) {
            self.row = row
            self.product = product
        }
    }

    /// What produced it, e.g. `search 방충망 (page 2)`.
    public var command: String
    public var savedAt: String
    /// The rows with their products. Of a likes listing (`likedIDs`), only the rows whose like
    /// was removed since, with the snapshot the like had, so that `like 3` can undo `unlike 3`.
    public var rows: [Row]
    /// A `shopy likes` listing: the productId of each row, row 1 first. Its products are the
    /// likes themselves, so they are not copied here (100,000 likes make 1.2 MB of ids rather
    /// than 50 MB of snapshots that every later command would read).
    public var likedIDs: LikedRows?

    public init(command: String, savedAt: String, rows: [Row], likedIDs: LikedRows? = nil) {
        self.command = command
        self.savedAt = savedAt
        self.rows = rows
        self.likedIDs = likedIDs
    }

    /// What row `name` shows: the row kept with its product, else the productId of the like a
    /// likes listing showed there; nil when the listing has no such row.
    public func lookup(_ name: String) -> (id: String, product: Product?)? {
        if let row = rows.first(where: { $0.row == name }) { return (row.product.productId, row.product) }
        guard let likedIDs, let number = Int(name), String(number) == name, let id = likedIDs.id(atRow: number) else { return nil }
        return (id, nil)
    }

    /// How many rows it printed.
    public var rowCount: Int { likedIDs?.count ?? rows.count }

    /// The listing's rows said the way a person reads them (`its rows are 1–20`).
    public var rowSpan: String {
        guard let likedIDs else { return RowList.describe(rows.map(\.row)) }
        switch likedIDs.count {
        case 0: return RowList.describe([])
        case 1: return RowList.describe(["1"])
        case let count: return "its rows are 1–\(count)"
        }
    }
}
