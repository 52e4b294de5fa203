
/// Price drops for the widget: which likes are now below their liked price. `TrackedPrices` reads
/// them from the prices suite; when it cannot, the "price drops" option is listed as unavailable
/// with the reason and the default set leaves it out. Tests may pass their own.
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
