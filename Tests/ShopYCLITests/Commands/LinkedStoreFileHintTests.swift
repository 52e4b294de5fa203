// A store file or lock that is a symbolic link is refused (74) with a hint that fits it: a lock
// is removed (it holds nothing), a link whose target is missing is removed or pointed at a file;
// never a copy of a target that does not exist.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class LinkedStoreFileHintTests: XCTestCase {
    func home() async throws -> Home {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let search = await home.run(["search", "고양이", "--source", "catalog", "--size", "2"])
        XCTAssertEqual(search.code, 0, search.stderr)
        return home
    }

    func testALockThatIsADanglingLinkSaysToRemoveIt() async throws {
        let home = try await home()
        let lock = home.path + "/.likes.lock"
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: "/nonexistent")
        let run = await home.run(["like", "1"])
        XCTAssertEqual(run.code, 74, run.stderr)
        XCTAssertEqual(run.stderr, "shopy: \(lock) is a symbolic link, not a regular file: shopy neither follows nor uses it\n"
                       + "hint: a lock holds nothing: remove the link (rm \(lock)) and shopy makes a new lock; the link's target is not touched\n")
        // As the hint says: removed, the next command makes a new lock.
        XCTAssertEqual(unlink(lock), 0)
        let again = await home.run(["like", "1"])
        XCTAssertEqual(again.code, 0, again.stderr)
    }

    func testADataFileLinkedToNothingSaysItsTargetIsMissing() async throws {
        let home = try await home()
        let likes = home.path + "/likes.json"
        try FileManager.default.createSymbolicLink(atPath: likes, withDestinationPath: "/nonexistent/likes.json")
        let run = await home.run(["likes"])
        XCTAssertEqual(run.code, 74, run.stderr)
        XCTAssertEqual(run.stderr, "shopy: \(likes) is a symbolic link, not a regular file: shopy neither follows nor uses it\n"
                       + "hint: its target (/nonexistent/likes.json) does not exist: remove the link (rm \(likes)) to start afresh, or put the file there and replace the link with it\n")
    }

    func testAPathThatNeedsQuotingIsQuotedInTheHint() {
        XCTAssertEqual(StoreError.shellWord("/tmp/a b/.likes.lock"), "'/tmp/a b/.likes.lock'")
        XCTAssertEqual(StoreError.shellWord("/tmp/it's"), #"'/tmp/it'\''s'"#)
        XCTAssertEqual(StoreError.shellWord("/tmp/plain.lock"), "/tmp/plain.lock")
    }
}
