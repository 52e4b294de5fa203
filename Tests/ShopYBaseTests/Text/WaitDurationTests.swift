// Tests for Sources/ShopYBase/Text/WaitDuration.swift: how long a hold lasts, as every hold
// message says it.

import Foundation
import XCTest
@testable import ShopYBase

final class WaitDurationTests: XCTestCase {
    func testWholeMinutesRoundedUpAndCarriedIntoHours() {
        let cases: [(Double, String)] = [
            (1, "1 min"), (59, "1 min"), (60, "1 min"), (61, "2 min"), (3540, "59 min"), (3541, "1 h"), (3599, "1 h"), (3600, "1 h"),
            (3601, "1 h 1 min"), (3660, "1 h 1 min"), (3661, "1 h 2 min"), (5400, "1 h 30 min"), (7199, "2 h"), (82800, "23 h"),
            (86340, "23 h 59 min"), (86341, "24 h"), (86399, "24 h"), (86400, "24 h"), (86401, "24 h 1 min"), (25 * 3600, "25 h"),
        ]
        for (seconds, text) in cases {
            XCTAssertEqual(WaitDuration.text(seconds: seconds), text, "\(seconds) s")
        }
    }

    func testAFractionOfASecondNeitherAddsAMinuteNorEndsTheWait() {
        // A hold's end is stored rounded up to the second: a 60 s or one-hour hold read at once.
        XCTAssertEqual(WaitDuration.text(seconds: 60.7), "1 min")
        XCTAssertEqual(WaitDuration.text(seconds: 3600.9), "1 h")
        XCTAssertEqual(WaitDuration.text(seconds: 86400.5), "24 h")
        // Under a second left is still a wait.
        XCTAssertEqual(WaitDuration.text(seconds: 0.2), "1 min")
        XCTAssertEqual(WaitDuration.text(seconds: 0), "0 min")
        XCTAssertEqual(WaitDuration.text(seconds: -5), "0 min")
        XCTAssertEqual(WaitDuration.text(seconds: .nan), "0 min")
        XCTAssertEqual(WaitDuration.text(seconds: .infinity), "0 min")
    }

    func testUntilNamesTheTimeAndTheDistance() {
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let end = now.addingTimeInterval(3601)
        let local = Timestamp.local(end)
        let today = Timestamp.local(now).prefix(10) == local.prefix(10)
        XCTAssertEqual(WaitDuration.until(end, now: now), (today ? String(local.dropFirst(11)) : local) + " (in 1 h 1 min)")
        let tomorrow = now.addingTimeInterval(25 * 3600)
        XCTAssertEqual(WaitDuration.until(tomorrow, now: now), Timestamp.local(tomorrow) + " (in 25 h)", "another day: with its date")
    }
}
