// A like whose journal append fails (a full disk) leaves the likes as they were: a journal the
// append created is removed again (no empty likes.journal stays behind), an existing one is cut
// back to its last whole line. `doctor` describes an empty journal (a crash between its creation
// and its first line) as what it is, not as a stale compaction's. The failure is injected.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LikesJournalAppendFailureTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home] }

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-append-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        LikesCommit.writeJournal = { FileIO.writeAll($0, to: $1) }
        try? FileManager.default.removeItem(atPath: home)
        super.tearDown()
    }

    func shopy(_ arguments: [String]) async -> CLIRun {
        let io = IO.capture(environment: env)
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
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

    func testDoctorCallsAnEmptyJournalEmpty() async throws {
        let store = SettingsStore(directory: home)
        try add(store, "1")
        XCTAssertTrue(FileManager.default.createFile(atPath: journal, contents: Data(), attributes: [.posixPermissions: 0o600]))
        let doctor = await shopy(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("likes.journal     stale: it is empty (a write stopped before its first line; it never held a change): ignored; the next change or --repair removes it"),
                      doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("compaction"), doctor.stdout)
        let likes = await shopy(["likes"])
        XCTAssertEqual(likes.code, 0, likes.stderr)
        let repair = await shopy(["doctor", "--repair"])
        XCTAssertTrue(repair.stdout.contains("removed: it was empty"), repair.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
    }
}
