// `widget configure --policy after:TIME` takes only a real moment: a day that does not exist
// (2026-02-30, 2100-02-29) is refused with 64, as trends refuses one, and never stored as the
// day it would roll over to. The check is `CalendarDate`'s, which trends' dates go through.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class WidgetPolicyDateTests: XCTestCase {
    func testAnImpossibleDayIsNoTime() {
        for text in ["2026-02-30T00:00:00Z", "2026-02-29T12:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-00-10T00:00:00Z",
                     "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z"] {
            XCTAssertNil(WidgetClock.parse(text), text)
        }
        for text in ["2028-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "0000-02-29T00:00:00Z", "2026-12-31T23:59:59Z", "0001-01-01T00:00:00Z"] {
            let date = WidgetClock.parse(text)
            XCTAssertNotNil(date, text)
            XCTAssertEqual(date.map(WidgetClock.format), text)
        }
        // The same calendar as trends: every day that CalendarDate accepts, and no other.
        for year in [1900, 2000, 2024, 2026] {
            for month in 1...12 {
                for day in 28...31 {
                    let text = String(format: "%04d-%02d-%02dT00:00:00Z", year, month, day)
                    XCTAssertEqual(WidgetClock.parse(text) != nil, CalendarDate(year: year, month: month, day: day) != nil, text)
                }
            }
        }
    }

    func testConfigureRefusesAPolicyAtAnImpossibleTime() async throws {
        let home = NSTemporaryDirectory() + "shopy-policy-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let refused = await Shell.run(["widget", "configure", "--policy", "after:2026-02-30T00:00:00Z"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(refused.code, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("shopy: invalid --policy 'after:2026-02-30T00:00:00Z': not a real UTC time\n"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/preferences.json"), "nothing stored")
        let leap = await Shell.run(["widget", "configure", "--policy", "after:2028-02-29T00:00:00Z"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(leap.code, 0, leap.stderr)
        XCTAssertTrue(leap.stdout.contains("policy: after 2028-02-29T00:00:00Z"), leap.stdout)
        // Other bad values keep their message.
        let other = await Shell.run(["widget", "configure", "--policy", "sometimes"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(other.code, 64)
        XCTAssertTrue(other.stderr.hasPrefix("shopy: invalid --policy 'sometimes'\n"), other.stderr)
    }
}
