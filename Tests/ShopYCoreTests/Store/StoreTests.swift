// Tests for the store's files (Sources/ShopYCore/Store): durable writes and permissions, and the file lock.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class StoreTests: StoreUnitTestCase {
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

    /// This thread's id (from the /proc/thread-self link: `PID/task/TID`).
    static func threadID() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))?.split(separator: "/").last.map(String.init)
    }

    /// Whether thread `tid` of this process sleeps waiting on a lock (a futex: an NSLock, in
    /// FileLock the lock of its path within the process, taken before the file's flock).
    static func waitingOnALock(_ tid: String) -> Bool {
        let task = "/proc/self/task/\(tid)/"
        guard let wchan = try? String(contentsOfFile: task + "wchan", encoding: .utf8),
              let stat = try? String(contentsOfFile: task + "stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return wchan.contains("futex") && stat[stat.index(after: close)...].split(separator: " ").first == "S"
    }

    func testFileLockMakesASecondThreadWait() throws {
        guard Self.threadID() != nil else { throw XCTSkip("needs /proc/thread-self to see the second thread wait") }
        let path = directory + "/.test.lock"
        let events = Events()
        let held = DispatchSemaphore(value: 0), asking = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var second: String?
        let done = DispatchGroup()
        done.enter()
        Thread {
            defer { done.leave() }
            do {
                let lock = try FileLock(path: path)
                events.mark("A acquired")
                held.signal()
                // Held until B is seen asleep waiting for it (or 10 s pass).
                asking.wait()
                let giveUp = DispatchTime.now() + 10
                while let tid = second, !Self.waitingOnALock(tid), DispatchTime.now() < giveUp { sched_yield() }
                if let tid = second, Self.waitingOnALock(tid) { events.mark("B waiting") }
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
            second = Self.threadID()
            events.mark("B trying")
            asking.signal()
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
        XCTAssertNotNil(events.time("B waiting"), "B's request waited for A's lock")
        XCTAssertGreaterThanOrEqual(acquired, releasing, "B got the lock only after A released it")
        XCTAssertLessThan(trying, releasing, "B asked while A held it")
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
}
