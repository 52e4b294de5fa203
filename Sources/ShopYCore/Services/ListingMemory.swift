/// What listings (search, popular, rank) keep in the store: liked marks in, the rows and the
/// history out. A damaged store does not stop a listing: it is shown, with a warning, and its
/// marks are left out rather than guessed.
import ShopYBase

package struct ListingMemory: Sendable {
    package let store: SettingsStore
    package let diagnostics: any DiagnosticsSink
    /// The time the rows and the history entry are saved with (`Like.timestamp`).
    package let now: String

    package init(store: SettingsStore, diagnostics: any DiagnosticsSink, now: String) {
        self.store = store
        self.diagnostics = diagnostics
        self.now = now
    }

    /// Which of `ids` (the listed items) are liked, or nil (with a warning) when the likes cannot
    /// be read. Only these ids are looked up (in the index and the journal): a listing does not
    /// read the likes themselves.
    package func likedIDs(among ids: [String]) -> Set<String>? {
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
    package func remember(_ description: String, rows: [LastListing.Row], query: String?) {
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
                if let query, recording { note(query, in: settings) }
            }
        } catch {
            warn(error, "rows of this listing cannot be liked by number")
        }
    }

    /// Saves a listing of the likes: the productId of each row, in the order printed (the likes
    /// hold the products; see `LastListing.likedIDs`).
    package func rememberLikes(_ description: String, ids: [String]) {
        guard let rows = LikedRows(ids) else { return }  // never: every like's id is usable
        do {
            try store.update([.state]) { settings in
                settings.lastListing = LastListing(command: description, savedAt: now, rows: [], likedIDs: rows)
            }
        } catch {
            warn(error, "rows of this listing cannot be used by number")
        }
    }

    /// Records `query` alone in the history when recording is on (a search browse shows, which
    /// leaves the last listing as it is). A store that cannot be read or written is the error.
    package func record(_ query: String) throws {
        guard try store.read({ $0.historyEnabled }) else { return }
        try store.update([.state]) { settings in
            note(query, in: settings)
            settings.dropExpiredCoupangData(now: now)
        }
    }

    /// Takes `query` out of the history (written only when it was there).
    package func forget(_ query: String) throws {
        try store.update([.state]) { settings in
            let kept = settings.history.filter { $0.query != query }
            if kept.count != settings.history.count {
                settings.history = kept
                settings.dropExpiredCoupangData(now: now)
            }
        }
    }

    /// The one history step: the query first, at `now`, its older entry dropped.
    private func note(_ query: String, in settings: Settings) {
        settings.history = HistoryEntry.record(query, at: now, in: settings.history)
    }

    /// A warning that says what failed and what it costs, then the error's hint.
    package func warn(_ error: Error, _ consequence: String) {
        let message = (error as? ShopyError)?.message ?? "\(error)"
        diagnostics.warning("\(message); \(consequence)")
        if let hint = (error as? ShopyError)?.hint { diagnostics.hint("\(hint)") }
    }
}
