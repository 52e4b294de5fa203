import Foundation
import ShopYBase

/// One observed price of a liked product.
public struct PricePoint: Codable, Equatable, Sendable {
    /// ISO 8601 in UTC, as `Like.timestamp` writes it.
    public var at: String
    /// Nil when the source listed the product without a price.
    public var price: Int?

    public init(at: String, price: Int?) {
        self.at = at
        self.price = price
    }
}

/// A price alert of one like: at or below a price, or a drop of a percentage against the liked
/// price. It fires once per crossing: after firing it is disarmed until a refresh sees the price
/// back above the line.
public struct PriceAlert: Codable, Equatable, Sendable {
    public enum Rule: Equatable, Sendable {
        case below(Int)
        case drop(percent: Int)
    }

    public var rule: Rule
    /// True while the alert may fire: set when the alert is made and whenever the price is seen
    /// above its line.
    public var armed: Bool
    /// When it last fired.
    public var firedAt: String?

    public init(rule: Rule) {
        self.rule = rule
        armed = true
        firedAt = nil
    }

    /// The price at or under which the alert holds; nil when it cannot be known (a drop alert of
    /// a like without a liked price).
    public func line(likedPrice: Int?) -> Int? {
        switch rule {
        case .below(let price): return price
        case .drop(let percent):
            guard let liked = likedPrice, liked > 0 else { return nil }
            // Integer arithmetic, no overflow: prices are capped by FieldLimits well under Int.max / 100.
            let (product, overflow) = liked.multipliedReportingOverflow(by: 100 - percent)
            return overflow ? nil : product / 100
        }
    }

    /// The largest drop, in percent (1 to 99), whose line is at least 1원 for `likedPrice`: a
    /// greater drop's line is 0 (prices are whole won, at least 1), so it could never fire; nil
    /// when no drop can (a liked price of 1원, or none).
    public static func largestDrop(from likedPrice: Int?) -> Int? {
        guard let liked = likedPrice, liked > 0 else { return nil }
        // The line is ⌊liked × (100 − p) / 100⌋ ≥ 1 ⇔ 100 − p ≥ ⌈100 / liked⌉.
        let most = 100 - (100 + liked - 1) / liked
        return most >= 1 ? min(most, 99) : nil
    }

    /// Sees one price; true when the alert fires now.
    public mutating func observe(price: Int?, likedPrice: Int?, at time: String) -> Bool {
        guard let price, let line = line(likedPrice: likedPrice) else { return false }
        if price <= line {
            guard armed else { return false }
            armed = false
            firedAt = time
            return true
        }
        armed = true
        return false
    }

    /// `below 12,000` / `drop 10%`.
    public var description: String {
        switch rule {
        case .below(let price): return "below " + Money.won(price)
        case .drop(let percent): return "drop \(percent)%"
        }
    }

    private enum Keys: String, CodingKey { case below, drop, armed, firedAt }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if let price = try c.decodeIfPresent(Int.self, forKey: .below), price > 0 {
            rule = .below(price)
        } else if let percent = try c.decodeIfPresent(Int.self, forKey: .drop), (1...99).contains(percent) {
            rule = .drop(percent: percent)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "an alert needs \"below\" (a price > 0) or \"drop\" (1-99)"))
        }
        armed = try c.decodeIfPresent(Bool.self, forKey: .armed) ?? true
        firedAt = try c.decodeIfPresent(String.self, forKey: .firedAt)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch rule {
        case .below(let price): try c.encode(price, forKey: .below)
        case .drop(let percent): try c.encode(percent, forKey: .drop)
        }
        try c.encode(armed, forKey: .armed)
        try c.encodeIfPresent(firedAt, forKey: .firedAt)
    }
}

/// What shopy knows about the price of one like: its recent history (bounded), the all-time
/// extremes, when it was last refreshed, and its alert.
public struct PriceRecord: Codable, Equatable, Sendable {
    /// Points kept per like; older ones are dropped (the extremes stay).
    public static let historyLimit = 100

    public var points: [PricePoint] = []
    public var lowest: PricePoint?
    public var highest: PricePoint?
    public var refreshedAt: String?
    public var alert: PriceAlert?

    public init() {}

    /// The latest price seen, if any.
    public var latest: Int? { points.last?.price }

    /// Appends a point, keeps the last `historyLimit`, updates the extremes.
    public mutating func record(_ point: PricePoint) {
        points.append(point)
        if points.count > Self.historyLimit { points.removeFirst(points.count - Self.historyLimit) }
        refreshedAt = point.at
        guard let price = point.price else { return }
        if lowest?.price.map({ price < $0 }) ?? true { lowest = point }
        if highest?.price.map({ price > $0 }) ?? true { highest = point }
    }

    /// Decoding checks the bounds a hand edit could break: at most `historyLimit` points.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        points = try c.decodeIfPresent([PricePoint].self, forKey: .points) ?? []
        if points.count > Self.historyLimit { points.removeFirst(points.count - Self.historyLimit) }
        lowest = try c.decodeIfPresent(PricePoint.self, forKey: .lowest)
        highest = try c.decodeIfPresent(PricePoint.self, forKey: .highest)
        refreshedAt = try c.decodeIfPresent(String.self, forKey: .refreshedAt)
        alert = try c.decodeIfPresent(PriceAlert.self, forKey: .alert)
    }
}

/// The price records of every like, by productId: the value of the `prices` suite.
public struct PriceBook: Codable, Equatable, Sendable {
    public var records: [String: PriceRecord] = [:]

    public init() {}

    public subscript(id: String) -> PriceRecord? {
        get { records[id] }
        set { records[id] = newValue }
    }

    public var isEmpty: Bool { records.isEmpty }

    /// Drops the records of products no longer liked (an unlike leaves its record behind; the
    /// next write of this suite tidies it).
    public mutating func keepOnly(_ liked: Set<String>) {
        records = records.filter { liked.contains($0.key) }
    }

    public init(from decoder: Decoder) throws {
        records = try decoder.singleValueContainer().decode([String: PriceRecord].self)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(records)
    }
}
