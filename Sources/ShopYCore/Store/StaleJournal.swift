#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ShopYBase

/// A journal that names another snapshot (`LikesBase.staleJournal`). The usual reason is a
/// compaction stopped after it replaced likes.json and before it removed the journal: then every
/// change in it is in likes.json already, and it goes. Any other reason (likes.json's first line
/// edited by hand, or another likes.json put in its place) leaves changes that were acknowledged
/// and are not in likes.json: the journal is then kept aside, never deleted unseen.
extension LikesCommit {
    /// Removes a folded stale journal, or renames one holding changes likes.json lacks to
    /// `likes.journal.aside-TIME.jsonl`; returns that path (nil when it was removed or missing).
    @discardableResult
    package static func retireStaleJournal(_ base: LikesBase) throws(StoreError) -> String? {
        let files = base.files
        guard let bytes = try FileIO.readStoreFile(files.journal, limit: StoreFileLimits.likesJournal) else { return nil }
        if let contents = try? LikesJournal.parse(bytes, path: files.journal), try isFolded(contents.changes, into: base) {
            try removeJournal(files)
            return nil
        }
        let aside = FileIO.timestampedPath(in: files.directory, prefix: "likes.journal.aside", at: Date(), extension: "jsonl")
        guard rename(files.journal, aside) == 0 else { throw .io(path: files.journal, operation: "move aside", errno: errno) }
        FileIO.syncDirectory(files.directory)
        return aside
    }

    /// Whether the snapshot already says what these changes said last of each id they touch:
    /// the like added last is there with the same bytes, an id unliked last is absent.
    package static func isFolded(_ changes: [LikeChange], into base: LikesBase) throws(StoreError) -> Bool {
        var last: [String: ArraySlice<UInt8>?] = [:]
        for change in changes {
            switch change {
            case .add(let element): last[element.id] = .some(element.bytes)
            case .remove(let id): last[id] = .some(nil)
            }
        }
        guard !last.isEmpty else { return true }
        let elements = try base.snapshot().elements
        if let failure = base.failure { throw failure }
        var stored: [String: ArraySlice<UInt8>] = [:]
        stored.reserveCapacity(elements.count)
        for element in elements where last[element.id] != nil { stored[element.id] = element.bytes }
        return last.allSatisfy { id, bytes in stored[id] == bytes }
    }
}
