import ShopYCore
/// What listings (search, popular, rank) keep in the store: liked marks in, the rows and the
/// history out. A damaged store does not stop a listing: it prints, with a warning, and its
/// marks are left out rather than guessed.
struct ListingMemory {
    let context: Context
    let store: SettingsStore

    init(context: Context) {
        self.context = context
        self.store = context.store
    }

    /// Which of `ids` (the listed items) are liked, or nil (with a warning) when the likes cannot
    /// be read. Only these ids are looked up (in the index and the journal): a listing does not
    /// read the likes themselves.
    func likedIDs(among ids: [String]) -> Set<String>? {
        do {
            return try store.read { settings in
                let likes = settings.likes
                return Set(ids.filter { likes.contains($0) })
            }
        } catch {
            warn(error, "liked items are not marked")
            return nil
        }
    }

    /// Saves the rows for `shopy like ROW`, and the query in the history when recording is on.
    func remember(_ description: String, rows: [LastListing.Row], query: String?) {
        let now = Like.timestamp(context.io.now())
        // The preference is read on its own: were a damaged preferences.json to stop the rows
        // from being saved, `like 3` would take row 3 of the listing before this one.
        var recording = false
        if query != nil {
            do {
                recording = try store.read { $0.historyEnabled }
            } catch {
                warn(error, "this search is not recorded in the history")
            }
        }
        do {
            try store.update([.state]) { settings in
                settings.lastListing = LastListing(command: description, savedAt: now, rows: rows)
                if let query, recording {
                    settings.history = HistoryEntry.record(query, at: now, in: settings.history)
                }
            }
        } catch {
            warn(error, "rows of this listing cannot be liked by number")
        }
    }

    func warn(_ error: Error, _ consequence: String) {
        let message = (error as? ShopyError)?.message ?? "\(error)"
        context.io.stderr.line("shopy: warning: \(Sanitizer.clean(message)); \(consequence)")
        if let hint = (error as? ShopyError)?.hint { context.io.stderr.line("hint: \(Sanitizer.clean(hint))") }
    }
}
