import Foundation
import ShopYCore

// The widget's core services (Sources/ShopYCore/Widget: provider, entries, timeline, refresher)
// on this CLI's composition root: the prices `likes refresh` keeps, `popular`'s sections, the
// product source and the trends service of `Context`.

extension WidgetProvider {
    /// Widget `name` on `store`, with the price drops of the prices suite (`TrackedPrices`) unless
    /// `priceTracking` is given, and `shopy popular`'s built-in sections.
    public init(store: SettingsStore, name: String, environment: [String: String], priceTracking: (any PriceTracking)? = nil) {
        self.init(store: store, name: name, environment: environment, priceTracking: priceTracking ?? TrackedPrices(store: store),
                  popularDefaults: .shopy)
    }
}

extension WidgetRefresher {
    /// A refresh with the context's source (the default one, as `search` picks it) and trends service.
    static func refresh(_ provider: WidgetProvider, context: Context) async throws -> WidgetRefreshReport {
        try await refresh(provider, now: context.io.now(), source: { try context.source(nil, timeout: requestTimeout) }, trends: context.trends)
    }
}
