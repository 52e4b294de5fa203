// A like whose journal append fails (a full disk) leaves the likes as they were: a journal the
// append created is removed again (no empty likes.journal stays behind), an existing one is cut
// back to its last whole line. The failure is injected. (What `doctor` says of an empty journal:
// ShopYCLITests/Commands/DoctorLikesFilesTests.)

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class LikesJournalAppendFailureTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-append-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        LikesCommit.writeJournal = { FileIO.writeAll($0, to: $1) }
        try? FileManager.default.removeItem(atPath: home)
        super.tearDown()
    }

    var journal: String { home + "/likes.journal" }

    func like(_ id: String) -> Like {
        Like(product: Product(productId: id, title: "상품", price: 1000, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000)
    }

    func add(_ store: SettingsStore, _ id: String) throws {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like(id))
            settings.likes = likes
        }
    }

    /// Writes half of what it is given, then fails as a full disk does.
    func failWrites() {
        LikesCommit.writeJournal = { bytes, fd in
            _ = FileIO.writeAll(bytes.prefix(bytes.count / 2), to: fd)
            return ENOSPC
        }
    }

    func testAFailedFirstAppendLeavesNoJournal() throws {
        let store = SettingsStore(directory: home)
        try add(store, "1")  // the first like is a compaction: no journal yet
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
        failWrites()
        XCTAssertThrowsError(try add(store, "2")) { error in
            XCTAssertEqual(error as? StoreError, .io(path: journal, operation: "write", errno: ENOSPC))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "the journal this append created is removed again")
        XCTAssertEqual(try store.read { $0.likes.ids }, ["1"])
        LikesCommit.writeJournal = { FileIO.writeAll($0, to: $1) }
        try add(store, "2")
        XCTAssertEqual(Set(try store.read { $0.likes.ids }), ["1", "2"])
    }

    func testAFailedLaterAppendCutsTheJournalBack() throws {
        let store = SettingsStore(directory: home)
        try add(store, "1")
        try add(store, "2")
        let before = try XCTUnwrap(FileManager.default.contents(atPath: journal))
        failWrites()
        XCTAssertThrowsError(try add(store, "3"))
        XCTAssertEqual(FileManager.default.contents(atPath: journal), before, "no partial line stays")
        XCTAssertEqual(Set(try store.read { $0.likes.ids }), ["1", "2"])
    }

}
