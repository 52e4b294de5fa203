// Unit tests for Sources/ShopYCore/Trends: dates and periods, the category table and lookup,
// request bodies, answer parsing (missing periods), the anchor plan and stitching. (The options'
// default range and the table's sparkline: ShopYCLITests/Trends.)

import Foundation
import XCTest
@testable import ShopYCore
import ShopYTestSupport

final class TrendsUnitTests: XCTestCase {
    let table = CategoryTable.embedded

    func date(_ text: String) -> CalendarDate { CalendarDate(text)! }

    // MARK: - Dates

    func testCalendarDates() {
        XCTAssertNil(CalendarDate("2026-02-29"))
        XCTAssertNotNil(CalendarDate("2024-02-29"))
        XCTAssertNil(CalendarDate("2026-13-01"))
        XCTAssertNil(CalendarDate("2026-1-01"))
        XCTAssertNil(CalendarDate("２０２６-01-01"))
        XCTAssertEqual(date("2026-12-01").isoWeekday, 2, "a Tuesday")
        XCTAssertEqual(date("2026-12-01").monday, date("2026-11-30"))
        XCTAssertEqual(date("2026-03-31").adding(months: -1), date("2026-02-28"))
        XCTAssertEqual(CalendarDate(dayNumber: date("2017-08-01").dayNumber), date("2017-08-01"))
        // 15:30 UTC is already the next day in Korea.
        XCTAssertEqual(CalendarDate.todayInKorea(Date(timeIntervalSince1970: 1_796_139_000)).description, "2026-12-02")
    }

    func testPeriodsStartAtTheRangeAndFollowTheUnit() {
        let weeks = TrendsRange(start: date("2026-11-04"), end: date("2026-11-20"), unit: .week).periods
        XCTAssertEqual(weeks.map(\.description), ["2026-11-04", "2026-11-09", "2026-11-16"])
        let months = TrendsRange(start: date("2026-09-15"), end: date("2026-11-01"), unit: .month).periods
        XCTAssertEqual(months.map(\.description), ["2026-09-15", "2026-10-01", "2026-11-01"])
        XCTAssertEqual(TrendsRange(start: date("2026-11-29"), end: date("2026-12-01"), unit: .date).periods.count, 3)
        let range = TrendsRange(start: date("2026-11-04"), end: date("2026-11-20"), unit: .week)
        XCTAssertEqual(range.periodIndex(of: date("2026-11-02"), in: weeks), 0, "a week labelled by its Monday")
        XCTAssertEqual(range.periodIndex(of: date("2026-11-17"), in: weeks), 2)
        XCTAssertNil(range.periodIndex(of: date("2026-10-26"), in: weeks))
        XCTAssertNil(range.periodIndex(of: date("2026-11-21"), in: weeks))
    }

    // MARK: - Category table

    func testEmbeddedTableMatchesFixture() throws {
        let fixture = Repository.root()
            .appendingPathComponent("Fixtures/shopping-categories.json")
        let table = try CategoryTable(json: Array(Data(contentsOf: fixture)))
        XCTAssertEqual(table.leaves.count, 4967)
        XCTAssertEqual(table.leaves, CategoryTable.embedded.leaves, "run Scripts/embed-categories.py after changing the fixture")
        let licence = try String(contentsOf: fixture.deletingLastPathComponent().appendingPathComponent("shopping-categories.LICENSE"), encoding: .utf8)
        XCTAssertTrue(licence.contains("MIT License") && licence.contains("isnow890"))
        XCTAssertEqual(CategoryTable.embedded.defaultComparison.count, 11, "the top level with leaves (no 면세점)")
        XCTAssertEqual(CategoryTable.defaultTopLevel, CategoryTable.embedded.defaultComparison)
        XCTAssertEqual(CategoryTable.topLevelLookup("50000002"), CategoryTable.topLevelLookup("화장품/미용"))
    }

    func testLookup() {
        let table = CategoryTable.embedded
        XCTAssertEqual(table.lookup("50000000"), .found(ShoppingCategory(code: "50000000", path: ["패션의류"])))
        XCTAssertEqual(table.lookup("50003854"), .found(ShoppingCategory(code: "50003854", path: ["패션잡화", "남성신발", "운동화", "러닝화"])))
        XCTAssertEqual(table.lookup("12345678"), .found(ShoppingCategory(code: "12345678", path: ["12345678"])), "any cat_id is accepted")
        XCTAssertEqual(table.lookup("화장품/미용"), .found(ShoppingCategory(code: "50000002", path: ["화장품/미용"])))
        XCTAssertEqual(table.lookup("남성신발/운동화/러닝화"), .found(ShoppingCategory(code: "50003854", path: ["패션잡화", "남성신발", "운동화", "러닝화"])))
        XCTAssertEqual(table.lookup(" 남성신발 > 운동화 > 러닝화 "), table.lookup("남성신발/운동화/러닝화"))
        guard case .ambiguous(let two) = table.lookup("러닝화") else { return XCTFail("러닝화 is in 남성신발 and 여성신발") }
        XCTAssertEqual(Set(two.map(\.code)), ["50003854", "50003835"])
        guard case .ambiguous(let six) = table.lookup("남성신발/운동화") else { return XCTFail("a node with six leaves") }
        XCTAssertEqual(six.count, 6)
        guard case .unknown(let closest) = table.lookup("런닝화") else { return XCTFail("not a name") }
        XCTAssertTrue(closest.contains { $0.code == "50003854" }, "\(closest)")
        guard case .unknown(let none) = table.lookup("qqqqqqqqqq") else { return XCTFail() }
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(table.list("러닝화").map(\.code).sorted(), ["50003835", "50003854"])
        XCTAssertEqual(table.list(nil).count, 4967 + 12)
    }

    // MARK: - Bodies and answers

    func testBodiesLeaveOutFiltersThatAreNotGiven() {
        let range = TrendsRange(start: date("2026-09-01"), end: date("2026-09-30"), unit: .month)
        let plain = DataLabRequest(endpoint: .categories, range: range, filters: TrendsFilters(),
                                   categories: [TrendsSeriesKey(name: "50000000", param: "50000000")])
        XCTAssertEqual(String(decoding: plain.bodyBytes, as: UTF8.self),
                       #"{"startDate":"2026-09-01","endDate":"2026-09-30","timeUnit":"month","category":[{"name":"50000000","param":["50000000"]}]}"#)
        let filtered = DataLabRequest(endpoint: .keywordAge, range: range, filters: TrendsFilters(device: .mo, gender: .f, ages: [.a20, .a30]),
                                      category: "50000000", keyword: "원피스")
        XCTAssertEqual(String(decoding: filtered.bodyBytes, as: UTF8.self),
                       #"{"startDate":"2026-09-01","endDate":"2026-09-30","timeUnit":"month","category":"50000000","keyword":"원피스","device":"mo","gender":"f","ages":["20","30"]}"#)
    }

    func testAnswerMissingPeriodsAreZeroInPlace() throws {
        let range = TrendsRange(start: date("2026-11-01"), end: date("2026-11-04"), unit: .date)
        let request = DataLabRequest(endpoint: .keywords, range: range, filters: TrendsFilters(), category: "50000000",
                                     keywords: [TrendsSeriesKey(name: "a", param: "a"), TrendsSeriesKey(name: "b", param: "b")])
        let body = #"{"startDate":"2026-11-01","endDate":"2026-11-04","timeUnit":"date","results":[{"title":"b","keyword":["b"],"data":[{"period":"2026-11-03","ratio":100}]},{"title":"a","keyword":["a"],"data":[{"period":"2026-11-01","ratio":12.5},{"period":"2026-11-04","ratio":50}]}]}"#
        let answer = try DataLabAnswer(body: Array(body.utf8), request: request, periods: range.periods)
        XCTAssertEqual(answer.series.map(\.values), [[12.5, 0, 0, 50], [0, 0, 100, 0]], "matched by title, missing periods 0, no shift")
        for bad in [#"{"results":[]}"#, #"{"results":[{"data":[{"period":"2026-11-09","ratio":1}]},{"data":[]}]}"#,
                    #"{"results":[{"data":[{"period":"2026-11-01","ratio":101}]},{"data":[]}]}"#, "<html>"] {
            XCTAssertThrowsError(try DataLabAnswer(body: Array(bad.utf8), request: request, periods: range.periods), bad)
        }
    }

    // MARK: - Anchoring

    func testPlanMakesTheFewestRequests() {
        XCTAssertEqual(AnchorPlan.groups(count: 3, limit: 3), [[0, 1, 2]])
        XCTAssertEqual(AnchorPlan.groups(count: 7, limit: 3), [[0, 1, 2], [0, 3, 4], [0, 5, 6]])
        XCTAssertEqual(AnchorPlan.groups(count: 12, limit: 5).count, 3)
        for n in 1...40 {
            for limit in [3, 5] {
                let groups = AnchorPlan.groups(count: n, limit: limit)
                XCTAssertEqual(groups.count, AnchorPlan.requestCount(count: n, limit: limit))
                XCTAssertEqual(Set(groups.flatMap { $0 }), Set(0..<n))
                XCTAssertTrue(groups.allSatisfy { $0.count <= limit && (groups.count == 1 || $0[0] == 0) })
            }
        }
    }

    func testStitchingRestoresOneScale() {
        // True values; each "answer" is scaled to its own maximum as DataLab does.
        let truth: [[Double]] = [[10, 20], [40, 5], [80, 160], [1, 2], [0, 0]]
        func answer(_ group: [Int]) -> [[Double]] {
            let peak = group.flatMap { truth[$0] }.max()!
            return group.map { truth[$0].map { $0 / peak * 100 } }
        }
        var stitcher = Stitcher(count: 5)
        let groups = AnchorPlan.groups(count: 5, limit: 3)
        stitcher.setReference(series: groups[0], answer: answer(groups[0]))
        for group in groups.dropFirst() { XCTAssertTrue(stitcher.place(series: group, answer: answer(group), anchor: group[0])) }
        let result = stitcher.normalized()
        for i in 0..<5 {
            for t in 0..<2 { XCTAssertEqual(result[i]![t], truth[i][t] / 160 * 100, accuracy: 1e-9) }
        }
        // An anchor without clicks cannot place a series that has some.
        var blocked = Stitcher(count: 3)
        blocked.setReference(series: [0, 1], answer: [[0, 0], [100, 50]])
        XCTAssertFalse(blocked.place(series: [0, 2], answer: [[0, 0], [100, 10]], anchor: 0))
        XCTAssertEqual(blocked.unplaced, [2])
        XCTAssertEqual(blocked.strongest(excluding: [0]), 1)
    }

    func testALeafNameThatIsAlsoABranchIsAmbiguous() {
        guard case .ambiguous(let candidates) = table.lookup("운동화") else { return XCTFail("운동화: \(table.lookup("운동화"))") }
        XCTAssertEqual(candidates.first?.code, "50004198", "the leaf of that name first")
        XCTAssertEqual(candidates.count, 13, "the leaf and the six leaves under each of the two branches")
        guard case .ambiguous = table.lookup("청소기") else { return XCTFail("청소기 is a leaf and a branch") }
    }

    func testMoreOfThePathPicksOne() {
        XCTAssertEqual(table.lookup("신발/운동화"), .found(ShoppingCategory(code: "50004198", path: ["출산/육아", "유아동잡화", "신발", "운동화"])))
        XCTAssertEqual(table.lookup("50004198"), table.lookup("유아동잡화/신발/운동화"))
        XCTAssertEqual(table.lookup("남성신발/운동화/러닝화"), .found(ShoppingCategory(code: "50003854", path: ["패션잡화", "남성신발", "운동화", "러닝화"])))
        XCTAssertEqual(table.lookup("가구다리").code, "50003307", "a leaf name nothing else bears is found")
        XCTAssertEqual(table.lookup("패션의류").code, "50000000", "a top-level name is the top-level category")
    }

    func testTheStitcherRefusesAnOverflowingScale() {
        var stitcher = Stitcher(count: 3)
        stitcher.setReference(series: [0, 1], answer: [[100], [100]])
        stitcher.place(series: [0, 2], answer: [[1e-303], [100]], anchor: 0)
        XCTAssertThrowsError(try stitcher.checkedNormalized())
    }
}

private extension CategoryTable.Lookup {
    var code: String? { if case .found(let category) = self { return category.code } else { return nil } }
}
