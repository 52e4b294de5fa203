import ShopYBase
import Foundation

/// `coupang.json` as `shopy doctor` sees it: what it holds, and dropping what the hour no longer
/// allows. Coupang's terms let an app keep its data for 60 minutes: a cached answer past that is
/// never used, and it is removed at the next request to Coupang, or at once by `doctor --repair`.
extension CoupangLedger {
    /// What the file holds at `now`.
    public struct Summary: Equatable, Sendable {
        /// Keys (hashed) with requests in the last hour or a hold.
        public var keys: Int
        /// Requests counted in the last hour, all keys together.
        public var sent: Int
        /// Keys held after a 429.
        public var held: Int
        /// Answers that may still be used (younger than an hour).
        public var cached: Int
        /// Answers in the file that the hour no longer allows (older, or dated in the future by a
        /// clock set back): never used, to be removed.
        public var expired: Int
    }

    /// What the file holds; an empty summary when there is none. Read without the lock (the
    /// file is replaced atomically).
    public func summary(now: Date) throws(CoupangLedgerError) -> Summary {
        let stored = try load()
        var pruned = stored
        pruned.prune(now: now)
        let t = now.timeIntervalSince1970
        return Summary(keys: pruned.accounts.count, sent: pruned.accounts.values.reduce(0) { $0 + $1.sent.count },
                       held: pruned.accounts.values.filter { ($0.heldUntil ?? 0) > t }.count,
                       cached: pruned.cache.count, expired: stored.cache.count - pruned.cache.count)
    }

    /// Rewrites the file without what the hour no longer needs (expired answers, old counts),
    /// under its lock; the number of answers removed. Nothing is written when nothing is old.
    public func removeExpired(now: Date) throws(CoupangLedgerError) -> Int {
        try transaction(now: now) { state in state.expiredRemoved }
    }
}
