// Tests for the store (Sources/ShopYCore/Store): durable writes and permissions, the file lock,
// the @Stored settings and their files, damaged files, the likes' raw codec, the history, and
// how `like`/`unlike` read their arguments. In process, each test in its own temporary directory.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

/// Timestamps from several threads, in the order they happened.
private final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: UInt64] = [:]
    private(set) var failures: [String] = []

    func mark(_ name: String) {
        lock.lock()
        times[name] = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
    }

    func fail(_ text: String) {
        lock.lock()
        failures.append(text)
        lock.unlock()
    }

    func time(_ name: String) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return times[name]
    }
}

final class StoreTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-store-unit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    // MARK: - Helpers

    /// A store whose directory does not exist yet (shopy creates it).
    private func makeStore() -> SettingsStore { SettingsStore(directory: directory + "/home") }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func names(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Inode, size and modification time: what changes when a file is rewritten or replaced.
    private func identity(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    private func product(_ id: String, price: Int? = 12_900, title: String = "상품") -> Product {
        Product(productId: id, title: title, price: price, highPrice: price.map { $0 * 2 }, mall: "몰", brand: "브랜드", maker: nil,
                categories: ["생활/건강", "생활용품"], productType: 2, link: "https://example.com/\(id)",
                image: "https://example.com/\(id).jpg")
    }

    private func like(_ id: String, price: Int? = 12_900, title: String = "상품", at likedAt: String = "2026-01-02T03:04:05Z") -> Like {
        Like(product: product(id, price: price, title: title), likedAt: likedAt, likedPrice: price)
    }

    private func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let old = umask(mask)
        defer { umask(old) }
        return try body()
    }

    /// Runs `body`, which must fail with a StoreError about `path`; returns that error.
    @discardableResult
    private func expectStoreError(_ path: String, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                                  _ body: () throws -> Void) -> StoreError? {
        do {
            try body()
            XCTFail("\(what): expected a StoreError about \(path), got success", file: file, line: line)
            return nil
        } catch let error as StoreError {
            switch error {
            case .damaged(let errorPath, let problem):
                XCTAssertEqual(errorPath, path, what, file: file, line: line)
                XCTAssertFalse(problem.isEmpty, what, file: file, line: line)
            case .newerSchema(let errorPath, _, _):
                XCTAssertEqual(errorPath, path, what, file: file, line: line)
            default:
                XCTFail("\(what): expected .damaged or .newerSchema, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(error.message.contains(path), "\(what): the message names the file: \(error.message)", file: file, line: line)
            XCTAssertEqual(ExitCode(for: error), .dataError, what, file: file, line: line)
            return error
        } catch {
            XCTFail("\(what): expected a StoreError, got \(type(of: error)): \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: - FileIO

    func testAtomicWriteIsExactly0600WhateverTheUmaskAndLeavesNoTemporaryFile() throws {
        for mask: mode_t in [0, 0o022, 0o077] {
            let path = directory + "/file-\(mask).json"
            try withUmask(mask) {
                try FileIO.atomicWrite(Array("first".utf8), to: path)
                XCTAssertEqual(FileIO.mode(of: path), 0o600, "umask \(String(mask, radix: 8))")
                XCTAssertEqual(contents(path), Array("first".utf8))

                // Replacing: new content, still 0600, even over a file someone made 0644.
                XCTAssertEqual(chmod(path, 0o644), 0)
                try FileIO.atomicWrite(Array("second, longer than the first".utf8), to: path)
                XCTAssertEqual(FileIO.mode(of: path), 0o600, "umask \(String(mask, radix: 8)), replaced")
                XCTAssertEqual(contents(path), Array("second, longer than the first".utf8))

                try FileIO.atomicWrite([], to: path)
                XCTAssertEqual(contents(path), [], "an empty write replaces too")
            }
        }
        XCTAssertEqual(names(in: directory), ["file-0.json", "file-18.json", "file-63.json"], "no temporary file is left")
    }

    func testAtomicWriteOfALargeFileIsComplete() throws {
        let path = directory + "/large.json"
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileIO.atomicWrite(bytes, to: path)
        XCTAssertEqual(contents(path), bytes)
        XCTAssertEqual(try FileIO.read(path), bytes, "FileIO.read reads it whole")
        XCTAssertNil(try FileIO.read(directory + "/missing.json"), "a missing file reads as nil")
    }

    func testAFailedAtomicWriteLeavesTheTargetAndNoTemporaryFile() throws {
        // The target is a non-empty directory: the rename fails after the temp file was written.
        let target = directory + "/occupied"
        try write("x", to: target + "/inside")
        XCTAssertThrowsError(try FileIO.atomicWrite(Array("new".utf8), to: target)) { error in
            guard case StoreError.io(let path, _, _)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, target)
        }
        XCTAssertEqual(names(in: directory), ["occupied"], "the temporary file was removed")
        XCTAssertEqual(contents(target + "/inside"), Array("x".utf8))

        // A directory that does not exist: nothing is created.
        XCTAssertThrowsError(try FileIO.atomicWrite(Array("new".utf8), to: directory + "/nowhere/file.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/nowhere"))
    }

    func testEnsureDirectoryCreates0700WithItsParents() throws {
        let path = directory + "/a/b/shopy"
        try withUmask(0) { try FileIO.ensureDirectory(path) }
        XCTAssertEqual(FileIO.mode(of: directory + "/a"), 0o700)
        XCTAssertEqual(FileIO.mode(of: directory + "/a/b"), 0o700)
        XCTAssertEqual(FileIO.mode(of: path), 0o700)
        try FileIO.ensureDirectory(path)  // exists: fine

        try write("x", to: directory + "/plain")
        XCTAssertThrowsError(try FileIO.ensureDirectory(directory + "/plain")) { error in
            XCTAssertEqual(error as? StoreError, .io(path: self.directory + "/plain", operation: "use the directory", errno: ENOTDIR))
        }
    }

    func testHomeFollowsShopyHomeThenXDGThenHome() {
        XCTAssertEqual(FileIO.home(environment: ["SHOPY_HOME": "/s", "XDG_DATA_HOME": "/x", "HOME": "/h"]), "/s")
        XCTAssertEqual(FileIO.home(environment: ["SHOPY_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]), "/x/shopy")
        XCTAssertEqual(FileIO.home(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]), "/h/.local/share/shopy",
                       "a relative XDG_DATA_HOME is ignored, as the spec says")
        XCTAssertEqual(FileIO.home(environment: ["HOME": "/h"]), "/h/.local/share/shopy")
    }

    // MARK: - FileLock

    func testFileLockMakesASecondThreadWait() throws {
        let path = directory + "/.test.lock"
        let events = Events()
        let held = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread {
            defer { done.leave() }
            do {
                let lock = try FileLock(path: path)
                events.mark("A acquired")
                held.signal()
                usleep(300_000)
                events.mark("A releasing")
                lock.release()
            } catch {
                events.fail("A: \(error)")
                held.signal()
            }
        }.start()
        done.enter()
        Thread {
            defer { done.leave() }
            held.wait()
            events.mark("B trying")
            do {
                let lock = try FileLock(path: path)
                events.mark("B acquired")
                lock.release()
            } catch {
                events.fail("B: \(error)")
            }
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "both threads finish")
        XCTAssertEqual(events.failures, [])
        let releasing = try XCTUnwrap(events.time("A releasing"))
        let trying = try XCTUnwrap(events.time("B trying"))
        let acquired = try XCTUnwrap(events.time("B acquired"))
        XCTAssertGreaterThanOrEqual(acquired, releasing, "B got the lock only after A released it")
        XCTAssertGreaterThan(acquired - trying, 150_000_000, "B waited for A")
    }

    func testFileLockExcludesOtherProcesses() throws {
        let flockTool = "/usr/bin/flock"
        guard FileManager.default.isExecutableFile(atPath: flockTool) else { throw XCTSkip("no \(flockTool)") }
        let path = directory + "/.likes.lock"
        /// flock(1) without waiting: 0 when it got the lock, 3 when someone holds it.
        func tryFromAnotherProcess() throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flockTool)
            process.arguments = ["--nonblock", "--conflict-exit-code", "3", path, "/bin/true"]
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        let lock = try FileLock(path: path)
        XCTAssertEqual(try tryFromAnotherProcess(), 3, "held by us")
        lock.release()
        XCTAssertEqual(try tryFromAnotherProcess(), 0, "released")
    }

    func testConcurrentUpdatesFromThreadsLoseNothing() throws {
        let store = makeStore()
        let events = Events()
        let group = DispatchGroup()
        for t in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                for i in 0..<15 {
                    do {
                        try store.update([.likes]) { settings in
                            var likes = settings.likes
                            likes.add(Like(product: Product(productId: "\(t * 1000 + i)", title: "t"), likedAt: "", likedPrice: nil))
                            settings.likes = likes
                        }
                    } catch {
                        events.fail("\(t)-\(i): \(error)")
                    }
                }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(events.failures, [])
        let ids = try store.read { $0.likes.ids }
        XCTAssertEqual(ids.count, 90)
        XCTAssertEqual(Set(ids).count, 90)
    }

    // MARK: - Settings

    func testEverySettingHasItsDefaultWhenNothingIsStored() throws {
        let store = makeStore()
        try store.read { settings in
            XCTAssertTrue(settings.likes.isEmpty)
            XCTAssertEqual(settings.history, [])
            XCTAssertNil(settings.lastListing)
            XCTAssertTrue(settings.historyEnabled)
            XCTAssertNil(settings.popularSections)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.directory), "reading creates nothing")

        // A transaction that changes nothing writes nothing.
        try store.update(Set(Suite.all)) { settings in _ = settings.likes.count + settings.history.count }
        XCTAssertEqual(names(in: store.directory).filter { !$0.hasPrefix(".") }, [])
        XCTAssertEqual(FileIO.mode(of: store.directory), 0o700)
    }

    func testEverySettingRoundTripsThroughItsOwnFile() throws {
        let store = makeStore()
        var likes = LikeCollection()
        likes.add(like("111", title: "첫 \"번째\"\n줄바꿈"))
        likes.add(like("222", price: nil))
        let history = [HistoryEntry(query: "방충망", at: "2026-01-02T03:04:05Z"), HistoryEntry(query: "모기장", at: "2026-01-01T00:00:00Z")]
        let listing = LastListing(command: "search 방충망", savedAt: "2026-01-02T03:04:05Z",
                                  rows: [.init(row: "1", product: product("111")), .init(row: "2.5", product: product("333", price: nil))])
        try store.update(Set(Suite.all)) { settings in
            settings.likes = likes
            settings.history = history
            settings.lastListing = listing
            settings.historyEnabled = false
            settings.popularSections = ["패션의류", "디지털/가전"]
            var prices = PriceBook()
            prices["111"] = PriceRecord()
            settings.prices = prices
        }
        for suite in Suite.all {
            let path = store.path(of: suite)
            XCTAssertEqual(FileIO.mode(of: path), 0o600, suite.name)
            let json = try JSONParser.parse(try XCTUnwrap(contents(path), suite.name))
            XCTAssertEqual(json["schema"]?.intValue, suite.schema, suite.name)
        }
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .likes))!)["likes"])
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .state))!)["history"])
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .state))!)["lastListing"])
        XCTAssertEqual(try JSONParser.parse(contents(store.path(of: .preferences))!)["historyEnabled"], .bool(false))

        // A fresh store object reads it all back.
        let again = SettingsStore(directory: store.directory)
        try again.read { settings in
            XCTAssertEqual(try settings.likes.all(), try likes.all())
            XCTAssertEqual(try settings.allLikes(), try likes.all())
            XCTAssertEqual(settings.history, history)
            XCTAssertEqual(settings.lastListing, listing)
            XCTAssertFalse(settings.historyEnabled)
            XCTAssertEqual(settings.popularSections, ["패션의류", "디지털/가전"])
        }

        // Back to the defaults, which are stored as such.
        try again.update([.state, .preferences]) { settings in
            settings.lastListing = nil
            settings.historyEnabled = true
            settings.popularSections = nil
        }
        try makeStore().read { settings in
            XCTAssertNil(settings.lastListing)
            XCTAssertTrue(settings.historyEnabled)
            XCTAssertNil(settings.popularSections)
            XCTAssertEqual(settings.history, history, "the other key of state.json is kept")
        }
    }

    func testUnknownKeysOfANewerWriterOfTheSameSchemaAreKept() throws {
        let store = makeStore()
        try write("{\"schema\":1,\"future\":{\"a\":[1,2]},\"historyEnabled\":true}", to: store.path(of: .preferences))
        try store.update([.preferences]) { $0.historyEnabled = false }
        let json = try JSONParser.parse(contents(store.path(of: .preferences))!)
        XCTAssertEqual(json["future"], try JSONParser.parse("{\"a\":[1,2]}"))
        XCTAssertEqual(json["historyEnabled"], .bool(false))
    }

    func testAWriteToStateDoesNotTouchLikes() throws {
        let store = makeStore()
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like("111"))
            settings.likes = likes
        }
        let likesPath = store.path(of: .likes)
        let bytes = contents(likesPath)
        let before = identity(likesPath)
        usleep(20_000)  // so that a rewrite would show in the modification time
        try store.update([.state]) { settings in
            settings.history = HistoryEntry.record("방충망", at: "2026-01-02T03:04:05Z", in: settings.history)
            settings.lastListing = LastListing(command: "search 방충망", savedAt: "2026-01-02T03:04:05Z", rows: [])
        }
        // Both files locked, only state changed: likes.json is not rewritten either.
        try store.update([.likes, .state]) { settings in
            _ = settings.likes.count
            settings.history = []
        }
        XCTAssertEqual(contents(likesPath), bytes)
        XCTAssertEqual(identity(likesPath), before, "likes.json was not replaced")
        XCTAssertTrue(try store.read { $0.history.isEmpty })
    }

    func testDamagedFilesAreReportedWithTheirPathAndLeftUnchanged() throws {
        let cases: [(String, String)] = [
            ("empty", ""),
            ("whitespace", "  \n\t \n"),
            ("truncated", "{\"schema\":1,\"likes\":["),
            ("truncated inside a like", "{\"schema\":1,\n\"likes\":[\n{\"productId\":\"111\",\"title\":\"방"),
            ("garbage", "garbage"),
            ("binary", "\u{0}\u{1}\u{2}{"),
            ("an array", "[]"),
            ("no schema", "{\"likes\":[]}"),
            ("schema as a string", "{\"schema\":\"1\",\"likes\":[]}"),
            ("schema 0", "{\"schema\":0,\"likes\":[]}"),
            ("schema 99", "{\"schema\":99,\"likes\":[]}"),
            ("trailing data", "{\"schema\":1,\"likes\":[]}\n{}"),
            ("likes not a list", "{\"schema\":1,\"likes\":{}}"),
            ("likes null", "{\"schema\":1,\"likes\":null}"),
            ("a like without productId", "{\"schema\":1,\"likes\":[{\"title\":\"x\"}]}"),
            ("a like with a numeric productId", "{\"schema\":1,\"likes\":[{\"productId\":80285861246,\"title\":\"x\"}]}"),
            ("a like with an empty productId", "{\"schema\":1,\"likes\":[{\"productId\":\"\",\"title\":\"x\"}]}"),
            ("a like that is a string", "{\"schema\":1,\"likes\":[\"80285861246\"]}"),
        ]
        for (name, text) in cases {
            let store = SettingsStore(directory: directory + "/\(name.replacingOccurrences(of: " ", with: "-"))")
            let path = store.path(of: .likes)
            try write(text, to: path)
            let bytes = contents(path)

            let error = expectStoreError(path, "\(name): read") { _ = try store.read { $0.likes } }
            if name == "schema 99" {
                XCTAssertEqual(error, .newerSchema(path: path, found: 99, known: Suite.likes.schema))
            }
            expectStoreError(path, "\(name): update") {
                try store.update([.likes]) { settings in
                    var likes = settings.likes
                    likes.add(self.like("222"))
                    settings.likes = likes
                }
            }
            expectStoreError(path, "\(name): update that only reads") { try store.update([.likes]) { _ = $0.likes.count } }
            XCTAssertEqual(contents(path), bytes, "\(name): the file is byte-for-byte unchanged")
            XCTAssertEqual(names(in: store.directory), [".likes.lock", "likes.json"], "\(name): nothing else was written")

            // Other files are still usable.
            try store.update([.state]) { $0.history = [HistoryEntry(query: "q", at: "t")] }
            XCTAssertEqual(try store.read { $0.history.count }, 1, name)
        }
    }

    func testDamagedStateAndPreferencesAreReportedWithTheirPath() throws {
        let cases: [(Suite, String)] = [
            (.state, "{\"schema\":1,\"history\":[{\"query\":1,\"at\":\"t\"}]}"),
            (.state, "{\"schema\":1,\"history\":{}}"),
            (.state, "{\"schema\":1,\"lastListing\":5}"),
            (.state, "{\"schema\":1,\"lastListing\":{\"command\":\"c\"}}"),
            (.preferences, "{\"schema\":1,\"historyEnabled\":\"yes\"}"),
            (.preferences, "{\"schema\":1,\"popularSections\":[1]}"),
            (.preferences, "{\"schema\":2}"),
        ]
        for (i, (suite, text)) in cases.enumerated() {
            let store = SettingsStore(directory: directory + "/\(i)")
            let path = store.path(of: suite)
            try write(text, to: path)
            expectStoreError(path, "\(i): \(text)") {
                _ = try store.read { settings in
                    suite == .state ? "\(settings.history)\(String(describing: settings.lastListing))"
                                    : "\(settings.historyEnabled)\(String(describing: settings.popularSections))"
                }
            }
            expectStoreError(path, "\(i): update") {
                try store.update([suite]) { settings in
                    if suite == .state { settings.history = [] } else { settings.historyEnabled = false }
                }
            }
            XCTAssertEqual(contents(path), Array(text.utf8), "\(i): unchanged")
        }
    }

    func testAFileIsWholeOrDamagedWhicheverKeyIsRead() throws {
        // lastListing is fine, history is not: reading the listing alone reports the damage too,
        // so `like 3` never takes a row from a file the last search could not update.
        let store = makeStore()
        let listing = LastListing(command: "search a", savedAt: "t", rows: [.init(row: "1", product: product("111"))])
        try store.update([.state]) { $0.lastListing = listing }
        let path = store.path(of: .state)
        let text = String(decoding: contents(path)!, as: UTF8.self).replacingOccurrences(of: "\"schema\":1", with: "\"schema\":1,\"history\":7")
        try write(text, to: path)
        expectStoreError(path, "read lastListing") { _ = try store.read { $0.lastListing } }
        expectStoreError(path, "update reading lastListing") { try store.update([.likes]) { _ = $0.lastListing } }
        XCTAssertEqual(contents(path), Array(text.utf8))
        // Other files are not involved.
        XCTAssertTrue(try store.read { $0.historyEnabled })
        XCTAssertTrue(try store.read { $0.likes.isEmpty })
    }

    func testDamageMetWhileReadingIsReportedRatherThanWhatTheBodyConcludedFromTheDefault() throws {
        // `like 3` with a damaged state.json: the getter hands back "no listing", the body then
        // throws a usage error; the damage is the real problem and is what the caller sees.
        let store = makeStore()
        let statePath = store.path(of: .state)
        try write("{\"schema\":1,\"lastListing\":", to: statePath)
        expectStoreError(statePath, "update") {
            try store.update([.likes]) { settings in
                guard settings.lastListing != nil else { throw UsageError("there is no listing yet") }
            }
        }
        expectStoreError(statePath, "read") {
            try store.read { settings in
                guard settings.lastListing != nil else { throw UsageError("there is no listing yet") }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path(of: .likes)))
        // Without damage the body's own error comes through.
        let clean = SettingsStore(directory: directory + "/clean")
        XCTAssertThrowsError(try clean.update([.likes]) { _ in throw UsageError("mine") }) { error in
            XCTAssertEqual(error as? UsageError, UsageError("mine"))
        }
    }

    func testALikeThatDoesNotDecodeIsDamageInLikesJSON() throws {
        let store = makeStore()
        let path = store.path(of: .likes)
        let text = "{\"schema\":1,\n\"likes\":[\n{\"productId\":\"111\",\"title\":\"ok\"},\n{\"productId\":\"222\",\"price\":\"cheap\"}\n]}\n"
        try write(text, to: path)
        // Every like is checked on load, types included: reading or changing the likes is
        // refused with the path, and the file stays as it was.
        let read = expectStoreError(path, "likes") { _ = try store.read { $0.likes.ids } }
        XCTAssertTrue(read?.message.contains("item 2") ?? false, read?.message ?? "")
        _ = expectStoreError(path, "allLikes") { _ = try store.read { try $0.allLikes() } }
        _ = expectStoreError(path, "update") {
            try store.update([.likes]) { settings in
                var likes = settings.likes
                likes.remove("222")
                settings.likes = likes
            }
        }
        XCTAssertEqual(String(decoding: try XCTUnwrap(FileIO.read(path)), as: UTF8.self), text)
    }

    func testDoctorMovesAsideOnlyAFileThatIsStillDamagedUnderTheLock() throws {
        let doctor = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        let store = makeStore()
        let path = store.path(of: .likes)
        let now = Date(timeIntervalSince1970: 1_795_984_423)

        // Repaired by someone else meanwhile, and liked again: the good file stays.
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(self.like("111"))
            settings.likes = likes
        }
        let good = contents(path)
        let action = try doctor.moveAside(.likes, store: store, now: now)
        XCTAssertTrue(action.hasPrefix("left as it is"), action)
        XCTAssertEqual(contents(path), good)
        XCTAssertEqual(names(in: store.directory).filter { $0.contains("damaged") }, [])

        // Still damaged: moved aside, bytes kept, with a name that does not clash.
        for round in 1...2 {
            try write("{\"schema\":1,\"likes\":[", to: path)
            let moved = try doctor.moveAside(.likes, store: store, now: now)
            XCTAssertTrue(moved.hasPrefix("moved aside"), moved)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
            let aside = names(in: store.directory).filter { $0.hasPrefix("likes.damaged-20261129T203343Z") }
            XCTAssertEqual(aside.count, round, "\(aside)")
            for name in aside { XCTAssertEqual(contents(store.directory + "/" + name), Array("{\"schema\":1,\"likes\":[".utf8)) }
        }
    }

    // MARK: - LikeCollection and Like

    func testLikeCollectionAddRemoveContainsAll() throws {
        var likes = LikeCollection()
        XCTAssertTrue(likes.isEmpty)
        XCTAssertTrue(likes.add(like("111", at: "2026-01-01T00:00:00Z")))
        XCTAssertTrue(likes.add(like("222")))
        XCTAssertFalse(likes.add(like("111", title: "다른 제목", at: "2030-01-01T00:00:00Z")), "liked already: kept as it was")
        XCTAssertEqual(likes.count, 2)
        XCTAssertEqual(likes.ids, ["111", "222"])
        XCTAssertTrue(likes.contains("111"))
        XCTAssertFalse(likes.contains("333"))
        XCTAssertEqual(try likes.like("111"), like("111", at: "2026-01-01T00:00:00Z"))
        XCTAssertNil(try likes.like("333"))
        XCTAssertEqual(try likes.all(), [like("111", at: "2026-01-01T00:00:00Z"), like("222")])

        XCTAssertTrue(likes.remove("111"))
        XCTAssertFalse(likes.remove("111"), "removing an absent like is not an error")
        XCTAssertEqual(likes.ids, ["222"])
        likes.removeAll()
        XCTAssertTrue(likes.isEmpty)
        XCTAssertEqual(likes.encodeStored(), Array("[]".utf8))
    }

    func testLikeCollectionStoredFormRoundTripsOneLikeALine() throws {
        var likes = LikeCollection()
        likes.add(like("111", title: "줄\n바꿈과 \"따옴표\" \\ 그리고 \u{2028}"))
        likes.add(like("222", price: nil))
        likes.add(Like(product: Product(productId: "333", title: ""), likedAt: "", likedPrice: nil))
        let stored = likes.encodeStored()
        let lines = String(decoding: stored, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, "[, three likes, ]: \(lines)")
        XCTAssertEqual(lines.first, "[")
        XCTAssertEqual(lines.last, "]")
        for (i, line) in lines.dropFirst().dropLast().enumerated() {
            let text = line.hasSuffix(",") ? line.dropLast() : line
            let json = try JSONParser.parse(String(text))
            XCTAssertEqual(json["productId"]?.stringValue, ["111", "222", "333"][i])
            XCTAssertEqual(try Like(json: json), try likes.all()[i])
        }

        let decoded = try LikeCollection.decodeStored(stored)
        XCTAssertEqual(decoded.ids, likes.ids)
        XCTAssertEqual(try decoded.all(), try likes.all())
        XCTAssertEqual(decoded.encodeStored(), stored, "stable: what is read is written back byte for byte")
        XCTAssertEqual(try LikeCollection.decodeStored(Array("[]".utf8)).count, 0)
        XCTAssertEqual(try LikeCollection.decodeStored(Array(" [ ] ".utf8)).count, 0)

        // Codable, for anything that goes through it, has the same flat shape.
        let data = try JSONEncoder().encode(likes)
        XCTAssertEqual(try JSONDecoder().decode(LikeCollection.self, from: data).all(), try likes.all())
        let first = try JSONParser.parse(Array(data)).arrayValue?.first
        XCTAssertEqual(first?["productId"], .string("111"))
        XCTAssertEqual(first?["likedAt"], .string("2026-01-02T03:04:05Z"))
    }

    func testIdsAreFoundWhereverProductIdIsInAHandWrittenLike() throws {
        let text = """
        [
          {"title": "first key is not the id", "productId": "111"},
          { "productId" : "222" },
          {"productId":"3\\u00334","title":"escaped"},
          {"categories":["a"],"likedAt":"2026-01-01T00:00:00Z","productId":"555","price":1000}
        ]
        """
        var likes = try LikeCollection.decodeStored(Array(text.utf8))
        XCTAssertEqual(likes.ids, ["111", "222", "334", "555"])
        XCTAssertTrue(likes.contains("334"))
        XCTAssertEqual(try likes.like("555")?.product.price, 1000)
        XCTAssertEqual(try likes.like("111")?.product.title, "first key is not the id")

        // Adding and removing keep the untouched likes as they were written.
        likes.add(like("666"))
        XCTAssertTrue(likes.remove("222"))
        let out = String(decoding: likes.encodeStored(), as: UTF8.self)
        XCTAssertTrue(out.contains("{\"title\": \"first key is not the id\", \"productId\": \"111\"}"), out)
        XCTAssertTrue(out.contains("{\"productId\":\"3\\u00334\",\"title\":\"escaped\"}"), out)
        XCTAssertFalse(out.contains("\"222\""), out)
        XCTAssertEqual(try LikeCollection.decodeStored(likes.encodeStored()).ids, ["111", "334", "555", "666"])
    }

    func testRemovingAnIdHeldTwiceLeavesNone() throws {
        var likes = try LikeCollection.decodeStored(Array("[{\"productId\":\"1\"},{\"productId\":\"2\"},{\"productId\":\"1\"}]".utf8))
        XCTAssertTrue(likes.remove("1"))
        XCTAssertFalse(likes.contains("1"))
        XCTAssertEqual(likes.ids, ["2"])
    }

    func testLikeJSONIsStrict() throws {
        let original = like("80285861246")
        XCTAssertEqual(try Like(json: original.json), original)
        XCTAssertEqual(original.json.objectValue?.keys.first, "productId", "productId first: the store's fast path")
        for bad in ["[]", "{}", "{\"productId\":1}", "{\"productId\":\"\"}", "{\"productId\":\"1\",\"price\":\"x\"}",
                    "{\"productId\":\"1\",\"price\":1.5}", "{\"productId\":\"1\",\"categories\":[1]}", "{\"productId\":\"1\",\"title\":[]}"] {
            XCTAssertThrowsError(try Like(json: try JSONParser.parse(bad)), bad)
        }
        XCTAssertEqual(Like.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Like.timestamp(Date(timeIntervalSince1970: 1_795_984_423.9)), "2026-11-29T20:33:43Z")
    }

    // MARK: - History

    func testHistoryRecordDedupesOrdersAndCaps() {
        var history: [HistoryEntry] = []
        history = HistoryEntry.record("a", at: "1", in: history)
        history = HistoryEntry.record("b", at: "2", in: history)
        history = HistoryEntry.record("a", at: "3", in: history)
        XCTAssertEqual(history, [HistoryEntry(query: "a", at: "3"), HistoryEntry(query: "b", at: "2")])

        for i in 1...105 { history = HistoryEntry.record("q\(i)", at: "\(i)", in: history) }
        XCTAssertEqual(history.count, HistoryEntry.limit)
        XCTAssertEqual(HistoryEntry.limit, 100)
        XCTAssertEqual(history.first?.query, "q105")
        XCTAssertEqual(history.last?.query, "q6")
        XCTAssertEqual(Set(history.map(\.query)).count, 100)

        // An old query searched again moves to the front; nothing else is lost.
        history = HistoryEntry.record("q50", at: "now", in: history)
        XCTAssertEqual(history.count, 100)
        XCTAssertEqual(history.first, HistoryEntry(query: "q50", at: "now"))
        XCTAssertEqual(history.last?.query, "q6")
        XCTAssertEqual(history.filter { $0.query == "q50" }.count, 1)
    }

    // MARK: - LikeTarget

    func testLikeTargetParsesRowsAndIds() throws {
        XCTAssertEqual(try LikeTarget.parse("3", forceID: false), .row("3"))
        XCTAssertEqual(try LikeTarget.parse(" 21 ", forceID: false), .row("21"))
        XCTAssertEqual(try LikeTarget.parse("1099", forceID: false), .row("1099"))
        XCTAssertEqual(try LikeTarget.parse("2.5", forceID: false), .row("2.5"))
        XCTAssertEqual(try LikeTarget.parse("80285861246", forceID: false), .id("80285861246"))
        XCTAssertEqual(try LikeTarget.parse("12345", forceID: false), .id("12345"))
        XCTAssertEqual(try LikeTarget.parse("1.2.3", forceID: false), .id("1.2.3"))
        XCTAssertEqual(try LikeTarget.parse("abc-1", forceID: false), .id("abc-1"))
        XCTAssertEqual(try LikeTarget.parse("٣", forceID: false), .id("٣"), "only ASCII digits make a row")
        XCTAssertEqual(try LikeTarget.parse("3", forceID: true), .id("3"))
        XCTAssertEqual(try LikeTarget.parse("2.5", forceID: true), .id("2.5"))
        XCTAssertEqual(try LikeTarget.parse("80285861246", forceID: true), .id("80285861246"))
        for bad in ["", "  ", "1 2", "a\tb"] {
            XCTAssertThrowsError(try LikeTarget.parse(bad, forceID: false), "'\(bad)'") { error in
                XCTAssertTrue(error is UsageError)
            }
            XCTAssertThrowsError(try LikeTarget.parse(bad, forceID: true), "'\(bad)' with --id")
        }
    }
}
