import ShopYBase

/// What the widget reads from the shared store, in one read: its configuration, the likes,
/// the history and the saved popular sections. Nothing here touches the network.
public struct WidgetStoreView: Sendable {
    public var configuration: WidgetConfiguration
    /// Every liked product's id, in the store's order.
    public var likeIDs: [String]
    /// The likes decoded: all of them when `allLikes`, else only the configured ones.
    public var likes: [Like]
    public var history: [HistoryEntry]
    public var savedSections: [String]?

    public static func load(_ store: SettingsStore, name: String, allLikes: Bool) throws(StoreError) -> WidgetStoreView {
        do {
            return try store.read { settings in
                let configuration = settings.widgets[name] ?? WidgetConfiguration()
                let collection = settings.likes
                let likes: [Like]
                if allLikes {
                    likes = try settings.allLikes()
                } else {
                    let wanted = configuration.show.compactMap { id -> String? in
                        id.hasPrefix("like:") ? String(id.dropFirst(5)) : nil
                    }
                    likes = try wanted.compactMap { id in try collection.like(id) }
                }
                return WidgetStoreView(configuration: configuration, likeIDs: collection.ids, likes: likes,
                                       history: settings.history, savedSections: settings.popularSections)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as StoredValueError {
            throw .damaged(path: store.path(of: .likes), problem: error.problem)
        } catch {
            throw .damaged(path: store.directory, problem: String(describing: error))
        }
    }
}

/// Every option a widget can show, computed from what exists now.
public enum WidgetOptionCatalog {
    /// Recent history queries offered as options.
    public static let historyLimit = 10

    public static func options(_ view: WidgetStoreView, environment: [String: String], priceTracking: any PriceTracking,
                               popularDefaults: PopularDefaults) -> [WidgetOption] {
        var options: [WidgetOption] = [
            WidgetOption(kind: .status, title: "Network and API status"),
            WidgetOption(kind: .likes, title: "Likes count (\(view.likeIDs.count))"),
        ]
        let dropsReason = priceTracking.unavailableReason
        options.append(WidgetOption(kind: .priceDrops, title: "Price drops: likes below their liked price",
                                    available: dropsReason == nil, reason: dropsReason))
        let trendsReason = TrendsService.unavailableReason(environment: environment)
        options.append(WidgetOption(kind: .trends, title: "Trends: the top category this month",
                                    available: trendsReason == nil, reason: trendsReason))
        for keyword in sections(view, environment: environment, defaults: popularDefaults) {
            options.append(WidgetOption(kind: .popular, subject: keyword, title: "Popular: \(keyword) (top items)"))
        }
        for entry in view.history.prefix(historyLimit) {
            options.append(WidgetOption(kind: .history, subject: entry.query, title: "Search: \(entry.query) (top result)"))
        }
        let titles = Dictionary(view.likes.map { ($0.product.productId, $0) }, uniquingKeysWith: { a, _ in a })
        for id in view.likeIDs {
            let title = titles[id].map { TitleCleaner.clean($0.product.title) } ?? id
            options.append(WidgetOption(kind: .like, subject: id, title: "Liked: \(title)"))
        }
        return options
    }

    /// The saved popular sections, else the built-in ones of the source the refresh will use.
    public static func sections(_ view: WidgetStoreView, environment: [String: String], defaults: PopularDefaults) -> [String] {
        defaults.keywords(saved: view.savedSections, source: NaverCredentials.from(environment: environment) == nil ? .catalog : .naver)
    }
}
