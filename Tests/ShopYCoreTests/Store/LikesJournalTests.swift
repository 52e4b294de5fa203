// The likes' snapshot, journal and index (issue 11): migration, appends, compaction and its
// interruption, torn and damaged journal lines, stale indexes, concurrent writers and readers.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class LikesJournalTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-journal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        LikesCommit.compactionHook = nil
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func like(_ id: String, title: String = "상품", price: Int? = 1000) -> Like {
        Like(product: Product(productId: id, title: title, price: price, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: price)
    }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    func ids(_ store: SettingsStore) throws -> [String] { try store.read { $0.likes.ids } }

    @discardableResult
    func change(_ store: SettingsStore, _ body: (inout LikeCollection) -> Void) throws -> LikeCollection {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            body(&likes)
            settings.likes = likes
            return likes
        }
    }

    func journalLines(_ files: LikesFiles) -> [String] {
        guard let bytes = contents(files.journal) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    // MARK: - Appends and the index

    func testALikeAppendsOneLineAndLeavesTheSnapshotAndItsIndexAlone() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { for i in 0..<20 { $0.add(like("1000\(i)")) } }  // the first write makes a snapshot
        let snapshot = try XCTUnwrap(contents(files.snapshot))
        let index = try XCTUnwrap(contents(files.index))
        XCTAssertNil(contents(files.journal), "a first write folds into the snapshot")

        try change(store) { XCTAssertTrue($0.add(like("2000", title: "줄\n바꿈 \"따옴표\""))) }
        try change(store) { XCTAssertTrue($0.remove("10003")) }
        try change(store) { XCTAssertFalse($0.add(like("10004")), "liked already"); XCTAssertFalse($0.remove("999")) }
        XCTAssertEqual(contents(files.snapshot), snapshot, "likes.json is not rewritten by a like")
        XCTAssertEqual(contents(files.index), index)
        let lines = journalLines(files)
        XCTAssertEqual(lines.count, 3, "a header and one line per changing transaction: \(lines)")
        XCTAssertTrue(lines[0].hasPrefix("{\"journal\":1,\"snapshot\":\""), lines[0])
        for line in lines { XCTAssertNoThrow(try JSONParser.parse(line), "every line is JSON") }
        XCTAssertEqual(FileIO.mode(of: files.journal), 0o600)

        let expected = (0..<20).map { "1000\($0)" }.filter { $0 != "10003" } + ["2000"]
        XCTAssertEqual(try ids(store), expected)
        try store.read { settings in
            XCTAssertTrue(settings.likes.contains("2000"))
            XCTAssertFalse(settings.likes.contains("10003"))
            XCTAssertTrue(settings.likes.contains("100019"), "from the index")
            XCTAssertEqual(try settings.likes.like("10007")?.product.productId, "10007", "read where the index says")
            XCTAssertEqual(try settings.likes.like("2000")?.product.title, "줄\n바꿈 \"따옴표\"")
            XCTAssertNil(try settings.likes.like("42"))
            XCTAssertNotNil(settings.likes.base?.index, "an id the index does not list is no reason to drop it")
            XCTAssertFalse(settings.likes.base?.hasReadSnapshot ?? true, "questions about ids never read the other likes")
        }
        // What a like does: it reads the index and the journal, not the snapshot.
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like("3000"))
            likes.remove("100011")
            settings.likes = likes
            XCTAssertFalse(likes.base?.hasReadSnapshot ?? true)
        }
        XCTAssertEqual(contents(files.snapshot), snapshot)
    }

    func testTheIndexFindsEveryIdAndNoOther() throws {
        var entries: [LikesIndex.Entry] = []
        let ids = (0..<500).map { i in i % 7 == 0 ? "id-\(i)-\"q\"\\" : String(80_000_000_000 + i * 37) }
        for (i, id) in ids.enumerated() { entries.append(LikesIndex.Entry(id: id, offset: i * 10, length: 9)) }
        var info = stat()
        XCTAssertEqual(stat(directory, &info), 0)
        let key = SnapshotKey(generation: "ab12", size: 5_000, crc: 0x1234_5678)
        let index = try XCTUnwrap(LikesIndex.parse(LikesIndex.build(entries.shuffled(), key: key, seen: SnapshotSeen(info))))
        XCTAssertEqual(index.key, key)
        XCTAssertEqual(index.seen, SnapshotSeen(info))
        XCTAssertEqual(index.count, 500)
        for (i, id) in ids.enumerated() {
            XCTAssertEqual(index.lookup(id)?.offset, i * 10, id)
        }
        for absent in ["", "8", "80000000001", "id-7-\"q\"", "zzz", "id-0-\"q\"\\\\"] { XCTAssertNil(index.lookup(absent), absent) }
        XCTAssertNil(LikesIndex.parse(Array("not an index\n".utf8)))
    }

    // MARK: - Migration

    func testTodaysLikesJSONIsReadAndMigratedLosslesslyOnTheFirstWrite() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        // As shopy wrote it until now (schema 1), with a hand-edited like (other key order, an
        // extra key) and a key of a newer writer.
        let old = "{\"schema\":1,\n\"likes\":[\n"
            + "{\"productId\":\"111\",\"title\":\"첫 번째\",\"price\":1000,\"highPrice\":null,\"mall\":\"몰\",\"brand\":null,\"maker\":null,\"categories\":[\"생활\"],\"productType\":2,\"link\":null,\"image\":null,\"likedAt\":\"2026-11-01T00:00:00Z\",\"likedPrice\":1000},\n"
            + "{\"title\":\"손으로 고친\",\"productId\":\"222\",\"extra\":true,\"likedAt\":\"2026-11-02T00:00:00Z\"}\n"
            + "],\n\"future\":{\"a\":[1,2]}}\n"
        _ = FileManager.default.createFile(atPath: files.snapshot, contents: Data(old.utf8))
        let before = try store.read { try $0.allLikes() }
        XCTAssertEqual(before.map(\.product.productId), ["111", "222"])
        XCTAssertEqual(contents(files.snapshot), Array(old.utf8), "reading changes nothing")
        XCTAssertNil(contents(files.index))

        try change(store) { $0.add(like("333")) }
        let migrated = String(decoding: try XCTUnwrap(contents(files.snapshot)), as: UTF8.self)
        XCTAssertTrue(migrated.hasPrefix("{\"schema\":2,\n\"generation\":\""), migrated)
        for line in old.split(separator: "\n") where line.hasPrefix("{\"productId\":\"111\"") || line.hasPrefix("{\"title\"") {
            XCTAssertTrue(migrated.contains(line.hasSuffix(",") ? String(line.dropLast()) : String(line)), "each like's bytes are kept: \(line)")
        }
        let document = try JSONParser.parse(migrated)
        XCTAssertEqual(document["future"], try JSONParser.parse("{\"a\":[1,2]}"), "a newer writer's key is kept")
        XCTAssertNotNil(contents(files.index), "the index is built")
        let after = try store.read { try $0.allLikes() }
        XCTAssertEqual(Array(after.prefix(2)), before)
        XCTAssertEqual(after.map(\.product.productId), ["111", "222", "333"])
    }

    func testALargeSnapshotWithABadUTF8ByteIsDamage() throws {
        // Past 4 MB the UTF-8 check runs beside the walk: it must still decide.
        let store = SettingsStore(directory: directory + "/home")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        var text = "{\"schema\":1,\n\"likes\":["
        let title = String(repeating: "방충망 ", count: 150)
        for i in 0..<2_500 { text += (i == 0 ? "\n" : ",\n") + JSONWriter.string(like(String(10_000 + i), title: title).json) }
        text += "\n]}\n"
        var bytes = Array(text.utf8)
        XCTAssertGreaterThan(bytes.count, 4 << 20)
        _ = FileManager.default.createFile(atPath: store.likesFiles.snapshot, contents: Data(bytes))
        XCTAssertEqual(try SettingsStore(directory: store.directory).read { $0.likes.count }, 2_500, "whole: it loads")
        let spot = bytes.count - 5_000
        bytes[spot] = 0xFF
        _ = FileManager.default.createFile(atPath: store.likesFiles.snapshot, contents: Data(bytes))
        XCTAssertThrowsError(try store.read { $0.likes.count }) { error in
            guard case StoreError.damaged(_, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.contains("UTF-8"), problem)
        }
    }

    // MARK: - Compaction

    func testTheJournalIsFoldedIntoANewSnapshotPastItsLimit() throws {
        let store = SettingsStore(directory: directory + "/home", journalLimit: 3000)
        let files = store.likesFiles
        try change(store) { $0.add(like("1")) }
        var generations: Set<String> = []
        var compactions = 0
        for i in 2...40 {
            let hadJournal = contents(files.journal) != nil
            try change(store) { likes in
                if i % 5 == 0 { likes.remove(String(i - 1)) } else { likes.add(like(String(i))) }
            }
            let generation = String(decoding: contents(files.snapshot)!.prefix(60), as: UTF8.self)
            if hadJournal && contents(files.journal) == nil { compactions += 1 }
            generations.insert(generation)
        }
        XCTAssertGreaterThanOrEqual(compactions, 3, "the journal was folded in several times")
        XCTAssertGreaterThanOrEqual(generations.count, 4, "each compaction writes a new generation")
        let expected = (1...40).filter { $0 % 5 != 0 && $0 % 5 != 4 }.map(String.init)
        XCTAssertEqual(try ids(store), expected)
        XCTAssertLessThanOrEqual(contents(files.journal)?.count ?? 0, 3000 + 1000)
    }

}

final class Problems: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ problem: String) { lock.lock(); list.append(problem); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
