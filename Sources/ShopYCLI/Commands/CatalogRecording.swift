import ShopYCore
import ShopYBase
import ShopYCatalog
/// `catalog.record on`: the items the naver source lists go into the local catalog.
public enum CatalogRecording {
    /// Whether recording is on for this run (SHOPY_CATALOG_RECORD, else preferences.json).
    public static func isOn(_ io: IO, store: SettingsStore) -> Bool {
        let resolution = ConfigDefaults.resolve(io: io, store: store, path: "search")
        return resolution.entry("catalog.record")?.value == "true"
    }

    /// The recorder for a naver source, nil when recording is off. A failure to record is a
    /// warning: the listing itself still prints.
    static func recorder(_ context: Context) -> (@Sendable ([WireItem]) -> Void)? {
        guard isOn(context.io, store: context.store) else { return nil }
        let io = context.io, trace = context.trace, diagnostics = context.diagnostics
        let service = CatalogService(local: LocalCatalog(environment: io.environment), now: { Int(io.now().timeIntervalSince1970) })
        return { items in
            do {
                let changed = try service.record(items)
                trace("catalog.record: \(changed) of \(items.count) items added or updated")
            } catch {
                let message = (error as? ShopyError)?.message ?? "\(error)"
                diagnostics.warning("could not record the listing in the local catalog: \(message)")
            }
        }
    }
}
