import ShopYCore

extension ListingMemory {
    /// The listing memory of this run: the store, the diagnostics and the clock of `context`.
    init(context: Context) {
        self.init(store: context.store, diagnostics: context.diagnostics, now: Like.timestamp(context.io.now()))
    }
}
