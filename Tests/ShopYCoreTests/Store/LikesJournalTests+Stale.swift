// The likes journal (continued): a journal naming another likes.json whose changes are not all
// in this one (likes.json's first line edited by hand) is kept aside, never deleted unseen: by
// the next append, by the next compaction, and by doctor --repair, which also tells it apart.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

extension LikesJournalTests {
    /// likes.json holding 1 and 2, and a journal of another generation that liked 7 and unliked 1.
    func storeWithAnUnfoldedStaleJournal(_ name: String, journalLimit: Int = 1 << 20) throws -> (SettingsStore, [UInt8]) {
        let store = SettingsStore(directory: directory + "/" + name, journalLimit: journalLimit)
        try change(store) { $0.add(like("1")); $0.add(like("2")) }
        let seven = try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like("7").json)))
        let journal = LikesJournal.header(generation: "ffffffffffffffffffffffffffffffff") + LikesJournal.line([.add(seven), .remove("1")])
        _ = FileManager.default.createFile(atPath: store.likesFiles.journal, contents: Data(journal))
        return (store, journal)
    }

    func asides(_ store: SettingsStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.hasPrefix("likes.journal.aside-") }
    }

    func testAnUnfoldedStaleJournalIsKeptAsideByTheNextAppend() throws {
        let (store, journal) = try storeWithAnUnfoldedStaleJournal("append")
        XCTAssertEqual(try ids(store), ["1", "2"], "ignored: it continues another likes.json")
        try change(store) { $0.add(like("3")) }
        XCTAssertEqual(try ids(store), ["1", "2", "3"])
        let kept = try asides(store)
        XCTAssertEqual(kept.count, 1, "kept aside, not deleted")
        XCTAssertEqual(contents(store.directory + "/" + kept[0]), journal, "byte for byte")
    }

    func testAnUnfoldedStaleJournalIsKeptAsideByTheNextCompaction() throws {
        let (store, journal) = try storeWithAnUnfoldedStaleJournal("compaction", journalLimit: 1)
        try change(store) { $0.add(like("3")) }  // a limit of 1 byte: this write compacts
        XCTAssertEqual(try ids(store), ["1", "2", "3"])
        XCTAssertNil(contents(store.likesFiles.journal))
        let kept = try asides(store)
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(contents(store.directory + "/" + kept[0]), journal)
    }

}
