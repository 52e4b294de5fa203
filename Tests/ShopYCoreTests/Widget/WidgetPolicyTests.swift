// Tests for Sources/ShopYCore/Widget (WidgetPolicy.swift, WidgetDue.swift, WidgetTimeline.swift):
// when a widget's timeline is due again, under each policy, with an injected clock.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class WidgetPolicyTests: XCTestCase {
    func testPoliciesWithAnInjectedClock() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let print = StoreFingerprint(text: "a")
        let entries = (0..<4).map { WidgetEntry(date: t0.addingTimeInterval(Double($0) * 300), items: []) }
        func timeline(_ policy: WidgetPolicy, retryAt: Date? = nil) -> WidgetTimeline {
            WidgetTimeline(name: "default", generatedAt: t0, policy: policy, fingerprint: print, shownIDs: ["status"], entries: entries, retryAt: retryAt)
        }
        func due(_ t: WidgetTimeline?, _ policy: WidgetPolicy, at seconds: Double, fingerprint: StoreFingerprint = StoreFingerprint(text: "a")) -> WidgetDue.Reason? {
            WidgetDue.reason(timeline: t, policy: policy, fingerprint: fingerprint, shownIDs: ["status"], now: t0.addingTimeInterval(seconds))
        }
        XCTAssertEqual(due(nil, .atEnd, at: 0), .noTimeline)
        XCTAssertNil(due(timeline(.atEnd), .atEnd, at: 899), "not due before the last entry")
        XCTAssertEqual(due(timeline(.atEnd), .atEnd, at: 900), .policy)
        let later = t0.addingTimeInterval(3600)
        XCTAssertNil(due(timeline(.after(later)), .after(later), at: 3599))
        XCTAssertEqual(due(timeline(.after(later)), .after(later), at: 3600), .policy)
        XCTAssertNil(due(timeline(.never), .never, at: 86400 * 30), "never: not on time alone")
        XCTAssertEqual(due(timeline(.never), .never, at: 1, fingerprint: StoreFingerprint(text: "b")), .storeChanged)
        XCTAssertNil(due(timeline(.atEnd, retryAt: t0.addingTimeInterval(2000)), .atEnd, at: 1000), "a failed refresh backs off")
        XCTAssertEqual(WidgetPolicy.parse("after:15m", now: t0), .after(t0.addingTimeInterval(900)))
        XCTAssertEqual(WidgetPolicy.parse("after:2027-01-02T03:04:05Z", now: t0), .after(WidgetClock.parse("2027-01-02T03:04:05Z")!))
        XCTAssertNil(WidgetPolicy.parse("sometimes", now: t0))
        XCTAssertEqual(WidgetClock.format(WidgetClock.parse("2026-12-01T12:41:07Z")!), "2026-12-01T12:41:07Z")
    }
}
