// Each store file has a most it can legitimately hold (`StoreFileLimits`): a larger one is damaged
// (65, named with its size and the limit, left as it is) and never read whole; a widget
// timeline, a cache, is as if damaged and replaced; and no write makes a file past its limit.
// Large files are sparse (truncate): no disk and no memory. Through the commands (doctor, likes,
// widget): ShopYCLITests/Commands/StoreFileLimitCommandTests.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class StoreFileLimitTests: XCTestCase {
    var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-limits-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
        super.tearDown()
    }

    /// Grows `name` (made when missing) to `size` bytes without writing them (a hole of zeros).
    func grow(_ name: String, to size: Int) throws {
        let path = home + "/" + name
        if !FileManager.default.fileExists(atPath: path) { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
        XCTAssertEqual(truncate(path, off_t(size)), 0)
    }

    /// Inode, size and modification time.
    func identity(_ name: String) -> [Int] {
        var info = stat()
        guard stat(home + "/" + name, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    // MARK: - Reading

    /// SHOPY_LIKES_JOURNAL_LIMIT as docs/environment.md states it: a whole number of bytes from 1,
    /// held to the largest fold; anything else ignored (the default); the fold happens past the
    /// larger of it and a sixteenth of likes.json, the variable set or not.
    func testTheJournalLimitVariableIsReadAsDocumented() throws {
        func limit(_ value: String?) -> Int {
            SettingsStore(environment: value.map { ["SHOPY_LIKES_JOURNAL_LIMIT": $0, "SHOPY_HOME": "/nonexistent"] } ?? ["SHOPY_HOME": "/nonexistent"]).likesFiles.journalLimit
        }
        XCTAssertEqual(limit(nil), 262_144)
        XCTAssertEqual(limit("100"), 100)
        XCTAssertEqual(limit("1"), 1)
        for ignored in ["abc", "0", "-5", "", " 100", "1e3", "100 bytes"] { XCTAssertEqual(limit(ignored), 262_144, ignored) }
        XCTAssertEqual(limit("99999999999"), 33_554_432)
        XCTAssertEqual(StoreFileLimits.largestJournalFold, 33_554_432)
    }

    func testAFileOverItsLimitIsDamagedBySizeAlone() throws {
        let path = home + "/state.json"
        try grow("state.json", to: (1 << 20) + 1)
        XCTAssertThrowsError(try FileIO.readStoreFile(path, limit: 1 << 20)) { error in
            XCTAssertEqual(error as? StoreError, .damaged(path: path, problem: "it is 1.0 MiB (1,048,577 bytes), more than the 1 MiB shopy ever writes there"))
            XCTAssertEqual(ExitCode(for: error), .dataError)
        }
        XCTAssertEqual(try FileIO.readStoreFile(path, limit: (1 << 20) + 1)?.count, (1 << 20) + 1, "at its limit it is read")
    }

    func testAFileLargerThanItsSizeSaidIsReadNoFurtherThanTheLimit() throws {
        // /proc files say 0 bytes and hold more: the read itself stops one byte past the limit.
        let path = "/proc/self/status"
        guard let whole = try FileIO.readStoreFile(path, limit: 1 << 20), whole.count > 64 else { throw XCTSkip("no /proc/self/status to read") }
        XCTAssertThrowsError(try FileIO.readStoreFile(path, limit: 64)) { error in
            XCTAssertEqual(error as? StoreError, .damaged(path: path, problem: "it is 65 bytes, more than the 64 bytes shopy ever writes there"))
        }
    }

    // MARK: - Writing: never past what the reader accepts

    func testATimelinePastItsLimitIsNotWritten() throws {
        let item = WidgetItem(optionID: "x", kind: .status, short: "s", line: String(repeating: "가", count: 1000))
        let entries = [WidgetEntry(date: Date(timeIntervalSince1970: 1_796_000_000), items: Array(repeating: item, count: 400))]
        let timeline = WidgetTimeline(name: "big", generatedAt: Date(timeIntervalSince1970: 1_796_000_000), policy: .atEnd,
                                      fingerprint: StoreFingerprint(text: "x"), shownIDs: [], entries: entries)
        XCTAssertThrowsError(try timeline.save(directory: home)) { error in
            guard case .unstorable(_, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.contains("more than the 1 MiB shopy reads back"), problem)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/" + WidgetTimeline.fileName("big")))
    }

    func testATransactionWithAFilePastItsLimitWritesNoneOfItsFiles() throws {
        let store = SettingsStore(directory: home)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(Like(product: Product(productId: "1", title: "상품", price: 1000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000))
            settings.likes = likes
        }
        let files = ["likes.json", "likes.journal", "likes.index", "preferences.json"].map { [$0: identity($0)] }
        // Thousands of widgets' worth of configuration: more than preferences.json can hold.
        let show = (0..<2000).map { "like:\($0)" }
        let widgets = Dictionary(uniqueKeysWithValues: (0..<300).map { ("w\($0)", WidgetConfiguration(show: show)) })
        XCTAssertThrowsError(try store.update([.likes, .preferences]) { settings in
            var likes = settings.likes
            likes.add(Like(product: Product(productId: "2", title: "상품", price: 1000), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000))
            settings.likes = likes
            settings.widgets = widgets
        }) { error in
            guard case .unstorable(let path, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, home + "/preferences.json")
            XCTAssertTrue(problem.hasPrefix("it would be ") && problem.hasSuffix("more than the 4 MiB shopy reads back"), problem)
            XCTAssertEqual((error as? StoreError)?.hint, "nothing was changed")
        }
        XCTAssertEqual(["likes.json", "likes.journal", "likes.index", "preferences.json"].map { [$0: identity($0)] }, files,
                       "the like of the same transaction was not written either")
        XCTAssertEqual(try store.read { $0.likes.ids }, ["1"])
    }

    func testTheJournalFoldLimitStaysUnderTheJournalsReadLimit() {
        XCTAssertEqual(LikesFiles(directory: home, journalLimit: 1 << 40).journalLimit, StoreFileLimits.largestJournalFold)
        XCTAssertEqual(StoreFileLimits.likesJournal, 2 * (StoreFileLimits.likesSnapshot / 16))
        XCTAssertEqual(LikesFiles(directory: home).journalLimit, LikesFiles.defaultJournalLimit)
    }
}

/// Counts the widget refreshes it is asked to start; starts none.
