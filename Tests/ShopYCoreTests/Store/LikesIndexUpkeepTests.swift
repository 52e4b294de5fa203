// likes.index is keyed to the content it indexes (generation, size, CRC of likes.json), not to
// the file's inode: a copied, restored or synced store keeps it, and the first command that finds
// it wanting (noted for another file, stale, broken) puts it right for the next ones, under the
// likes' lock, without waiting for a writer.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class LikesIndexUpkeepTests: StoreUnitTestCase {
    let ids = (0..<200).map { String(90_000_000_000 + $0) }

    /// A store of 200 likes with its index (the first write makes a snapshot and its index).
    func makeIndexedStore() throws -> SettingsStore {
        let store = makeStore()
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for id in ids { likes.add(like(id)) }
            settings.likes = likes
        }
        XCTAssertNotNil(try LikesBase.load(store.likesFiles).index)
        return store
    }

    /// A copy of the store's directory, as `cp -r` makes one: new inodes, new times.
    func copy(_ store: SettingsStore, names: [String]? = nil) throws -> SettingsStore {
        let target = directory + "/copy-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in names ?? self.names(in: store.directory) where !name.hasPrefix(".") {
            let bytes = try XCTUnwrap(contents(store.directory + "/" + name))
            XCTAssertTrue(FileManager.default.createFile(atPath: target + "/" + name, contents: Data(bytes)))
            var times = [timeval(tv_sec: 1_700_000_000, tv_usec: 0), timeval(tv_sec: 1_700_000_000, tv_usec: 0)]
            XCTAssertEqual(utimes(target + "/" + name, &times), 0)
        }
        return SettingsStore(directory: target)
    }

    func body(_ index: [UInt8]?) -> ArraySlice<UInt8> {
        guard let index, let newline = index.firstIndex(of: 0x0A) else { return [] }
        return index[(newline + 1)...]
    }

    func testACopiedStoreIsIndexedAgainByItsFirstRead() throws {
        let store = try makeIndexedStore()
        let copy = try copy(store)
        XCTAssertNil(try LikesBase.load(copy.likesFiles).index, "noted for the original's file")
        let snapshot = contents(copy.likesFiles.snapshot)
        XCTAssertEqual(try copy.read { s in ids.filter { s.likes.contains($0) } }, ids)
        XCTAssertNotNil(try LikesBase.load(copy.likesFiles).index, "the first read noted the copy's likes.json in its index")
        XCTAssertEqual(contents(copy.likesFiles.snapshot), snapshot, "likes.json itself is left as it is")
        XCTAssertEqual(body(contents(copy.likesFiles.index)), body(contents(store.likesFiles.index)), "the same index, noted again, not rebuilt")
        // The next command neither reads likes.json whole nor writes the index again.
        let index = identity(copy.likesFiles.index)
        try copy.read { settings in
            XCTAssertTrue(settings.likes.contains(ids[7]))
            XCTAssertFalse(settings.likes.contains("1"))
            XCTAssertFalse(settings.likes.base?.hasReadSnapshot ?? true)
        }
        XCTAssertEqual(identity(copy.likesFiles.index), index)
    }

    /// A backup restored over another store: its likes.json and its index read as they are,
    /// confirmed by the content's CRC alone (likes.json is not parsed again).
    func testARestoredBackupKeepsItsIndexWithoutAParse() throws {
        let store = try makeIndexedStore()
        let restored = try copy(store, names: ["likes.json", "likes.index"])
        try restored.read { settings in
            XCTAssertTrue(settings.likes.contains(ids[150]))
            XCTAssertFalse(settings.likes.base?.hasReadSnapshot ?? true, "confirmed by its CRC, not rebuilt")
        }
        XCTAssertNotNil(try LikesBase.load(restored.likesFiles).index)
    }

    /// Same generation, same size, other content (a digit of an id edited by hand): not taken
    /// for the indexed content; rebuilt, and the answers are the file's.
    func testAnEditOfTheSameSizeIsNotTakenForTheIndexedContent() throws {
        let store = try makeIndexedStore()
        let edited = try copy(store)
        var text = String(decoding: try XCTUnwrap(contents(edited.likesFiles.snapshot)), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"productId\":\"90000000007\"", with: "\"productId\":\"80000000007\"")
        try write(text, to: edited.likesFiles.snapshot)
        try edited.read { settings in
            XCTAssertTrue(settings.likes.contains("80000000007"))
            XCTAssertFalse(settings.likes.contains("90000000007"))
        }
        let index = try XCTUnwrap(LikesIndex.parse(try XCTUnwrap(contents(edited.likesFiles.index))))
        XCTAssertEqual(index.key.crc, CRC32.checksum(try XCTUnwrap(contents(edited.likesFiles.snapshot))[...]))
        XCTAssertNotNil(try LikesBase.load(edited.likesFiles).index)
    }

    /// A reader never waits for a writer: with the likes' lock held, it answers from likes.json
    /// and leaves the index to the next command.
    func testAReaderDoesNotWaitForTheLock() throws {
        let store = try makeIndexedStore()
        let copy = try copy(store)
        let lock = try FileLock(path: copy.likesFiles.lock)
        XCTAssertEqual(try copy.read { s in s.likes.contains(ids[3]) }, true)
        XCTAssertNil(try LikesBase.load(copy.likesFiles).index, "not written while the lock was held")
        lock.release()
        XCTAssertEqual(try copy.read { s in s.likes.contains(ids[3]) }, true)
        XCTAssertNotNil(try LikesBase.load(copy.likesFiles).index)
    }

    /// A line deleted from the index by hand: the lookup near it proves nothing, the likes are
    /// read whole, and that read writes a sound index for the next command.
    func testABrokenIndexIsReplacedByTheReadThatFindsIt() throws {
        let store = try makeIndexedStore()
        let text = String(decoding: try XCTUnwrap(contents(store.likesFiles.index)), as: UTF8.self)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("\"90000000120\"") }
        try write(lines.joined(separator: "\n") + "\n", to: store.likesFiles.index)
        XCTAssertEqual(try store.read { s in s.likes.contains("90000000120") }, true, "never \"not liked\" from a broken index")
        XCTAssertNotNil(LikesIndex.parse(try XCTUnwrap(contents(store.likesFiles.index))), "replaced by a whole one")
        XCTAssertNotNil(try LikesBase.load(store.likesFiles).index)
    }

    /// A write to a copied store (a like appended to the journal) keeps its index too.
    func testAWriteToACopyNotesItsIndex() throws {
        let store = try makeIndexedStore()
        let copy = try copy(store)
        try copy.update([.likes]) { settings in
            var likes = settings.likes
            XCTAssertTrue(likes.add(like("12345678")))
            settings.likes = likes
        }
        XCTAssertNotNil(try LikesBase.load(copy.likesFiles).index)
        XCTAssertEqual(try copy.read { s in s.likes.contains("12345678") && s.likes.contains(ids[0]) }, true)
    }
}
