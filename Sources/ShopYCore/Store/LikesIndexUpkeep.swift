import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Keeping likes.index in step with likes.json, from whichever command first finds it wanting,
/// so that only that command pays for it: a copied, restored or synced store is fast again from
/// the second command on, and a stale or broken index is not read past again and again.
extension LikesBase {
    /// Gives the snapshot an index that vouches for it. One noted for another file of the same
    /// content (a copy, a restored backup, a sync) is confirmed by the snapshot's CRC — one read,
    /// no parse — and noted for this file; a missing, stale or broken one is built from the
    /// snapshot, read whole and checked. The result is written atomically under the likes' lock:
    /// the caller's (`holdingLock`, a write transaction), else only if it is free at once, since
    /// a reader never waits for a writer (who keeps the index in step anyway). A failure to write
    /// this derived file costs speed, not data, and is not an error.
    func settleIndex(holdingLock: Bool) throws(StoreError) {
        guard index == nil, let info = snapshotInfo, let generation else { return }
        let bytes = try wholeSnapshot()
        let key = SnapshotKey(generation: generation, size: bytes.count, crc: CRC32.checksum(bytes[...]))
        let seen = SnapshotSeen(info)
        let written: [UInt8]
        if let candidate = unconfirmedIndex, candidate.key == key {
            written = candidate.reseen(seen)
            index = candidate
        } else {
            let elements = try snapshot().elements
            if let failure { throw failure }
            written = LikesIndex.build(LikesCommit.entries(elements), key: key, seen: seen)
            index = LikesIndex.parseHeader(IndexBytes(written))
        }
        unconfirmedIndex = nil
        indexWanted = false
        writeIndex(written, holdingLock: holdingLock)
    }

    /// After a transaction that distrusted the index on the way (a lookup its links did not
    /// prove): a new one, if the lock is free.
    func settleIndexIfWanted() {
        guard indexWanted else { return }
        try? settleIndex(holdingLock: false)
    }

    private func writeIndex(_ bytes: [UInt8], holdingLock: Bool) {
        let lock = holdingLock ? nil : FileLock(attempting: files.lock)
        guard holdingLock || lock != nil, let info = snapshotInfo else { return }
        defer { lock?.release() }
        // Still this snapshot at the path? (A compaction may have replaced it since it was opened.)
        var now = stat()
        guard lstat(files.snapshot, &now) == 0, SnapshotSeen(now) == SnapshotSeen(info), now.st_size == info.st_size else { return }
        try? FileIO.atomicWrite(bytes, to: files.index)
    }
}
