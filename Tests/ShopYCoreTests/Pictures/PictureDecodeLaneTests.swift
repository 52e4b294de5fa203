@testable import ShopYBase
import Foundation
import XCTest
import ShopYTestSupport
@testable import ShopYCore

/// The decode lane: one decode at a time, off the cooperative pool; a cancelled waiter answered
/// at once without waiting for its running decode; a job cancelled while queued never started.
final class PictureDecodeLaneTests: XCTestCase {
    typealias Log = WorkLog

    func testACancelledWaiterIsAnsweredAtOnceWhileItsDecodeRuns() {
        let lane = PictureDecodeLane()
        let log = Log()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let task = Task {
            let answer = await lane.run { () -> Int in
                started.signal()
                release.wait()  // a decode in C: not interruptible
                log.add("decoded")
                return 1
            }
            log.add("answered \(answer.map(String.init) ?? "nil")")
        }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
        task.cancel()
        XCTAssertTrue(log.wait(for: "answered nil"), "answered without waiting for the decode: \(log.all)")
        XCTAssertEqual(log.all, ["answered nil"])
        release.signal()
        XCTAssertTrue(log.wait(for: "decoded"), "the decode finishes on the lane, unwatched")
        XCTAssertEqual(log.all, ["answered nil", "decoded"])
    }

    func testAJobCancelledWhileQueuedNeverStartsAndOneDecodeRunsAtATime() {
        let lane = PictureDecodeLane()
        let log = Log()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        Task {
            _ = await lane.run { () -> Int in
                started.signal()
                release.wait()
                log.add("first ran")
                return 1
            }
        }
        XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
        let queued = Task {
            let answer = await lane.run { () -> Int in
                log.add("queued ran")
                return 2
            }
            log.add("queued answered \(answer.map(String.init) ?? "nil")")
            answered.signal()
        }
        queued.cancel()
        XCTAssertEqual(answered.wait(timeout: .now() + 10), .success)
        release.signal()
        // Several more at once: each runs alone, and all behind the first.
        let group = DispatchGroup()
        for n in 1...4 {
            group.enter()
            Task {
                _ = await lane.run { () -> Int in
                    log.enter()
                    Thread.sleep(forTimeInterval: 0.02)
                    log.leave()
                    log.add("more \(n) ran")
                    return n
                }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertFalse(log.all.contains("queued ran"), "\(log.all)")
        XCTAssertEqual(log.all.first, "queued answered nil")
        XCTAssertEqual(log.all.dropFirst().first, "first ran")
        XCTAssertEqual(log.all.filter { $0.hasPrefix("more ") }.count, 4)
        XCTAssertEqual(log.mostAtOnce, 1, "one decode at a time")
    }
}
