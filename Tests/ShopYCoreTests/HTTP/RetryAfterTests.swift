// Tests for Sources/ShopYCore/HTTP/RetryAfter.swift: the three date forms of RFC 9110 and
// delay-seconds, capped, and what a hostile server sends in their place.

import Foundation
import XCTest
@testable import ShopYCore

final class RetryAfterTests: XCTestCase {
    func testRetryAfterParsing() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:47 GMT", now: now), 10)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:57 GMT", now: now), 20)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:50:07 1994", now: now), 30)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0, "a past date is no wait")
        XCTAssertEqual(RetryAfter.seconds("99999999999999999999", now: now), RetryAfter.maxSeconds)
        XCTAssertEqual(RetryAfter.seconds("86401", now: now), RetryAfter.maxSeconds)
        XCTAssertEqual(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: now), RetryAfter.maxSeconds)
        for bad in ["1e300", "inf", "+5", "1.5", "-3", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
                    "Sun, 06 Nov 1994 08:49:37 UTC", "Sun Nov 6 08:50:07 1994", "soon", "\u{1B}[2J"] {
            XCTAssertNil(RetryAfter.seconds(bad, now: now), bad)
        }
    }
}
