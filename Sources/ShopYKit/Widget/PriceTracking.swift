/// The seam for price tracking (issue 14, "price drops"): which likes are now below their liked
/// price. Until prices are tracked, the "price drops" option is listed as unavailable with the
/// reason, and the default set leaves it out. The change that tracks prices supplies a
/// conforming type and passes it to `WidgetProvider`.
public protocol PriceTracking: Sendable {
    /// nil when price drops can be shown; otherwise why not (one short line).
    var unavailableReason: String? { get }
    /// The likes whose current price is below their liked price, with that current price.
    func drops(among likes: [Like]) -> [PriceDrop]
}

public struct PriceDrop: Equatable, Sendable {
    public var like: Like
    public var currentPrice: Int

    public init(like: Like, currentPrice: Int) {
        self.like = like
        self.currentPrice = currentPrice
    }
}

/// What there is today: no price tracking.
public struct NoPriceTracking: PriceTracking {
    public init() {}
    public var unavailableReason: String? { "price tracking does not exist yet: shopy keeps only the price when liked" }
    public func drops(among likes: [Like]) -> [PriceDrop] { [] }
}
