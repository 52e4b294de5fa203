// `shopy trends` in process against the emulator's DataLab: request bodies, both key schemes,
// anchoring against the ground truth, every error code, every output format.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase

final class TrendsEmulatorTests: XCTestCase {
    typealias F = TrendsFixture
    let range = ["--from", "2026-09-01", "--to", "2026-09-30", "--unit", "month"]

    // MARK: - Bodies and headers

    func testRequestBodiesAndAPIHubHeaders() async throws {
        let server = try startDataLab()
        let transport = RecordingTransport()
        let categories = await F.run(["categories", "패션의류", "화장품/미용", "--format", "json"] + range, environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(categories.code, 0, categories.stderr)
        let keywords = await F.run(["keywords", "원피스", "청바지", "--category", "패션의류", "--device", "mo", "--gender", "f", "--ages", "30,20",
                                    "--format", "json", "--from", "2026-11-02", "--to", "2026-11-29"], environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(keywords.code, 0, keywords.stderr)
        let breakdown = await F.run(["keywords", "원피스", "--category", "50000000", "--by", "age", "--format", "json"] + range,
                                    environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(breakdown.code, 0, breakdown.stderr)
        let device = await F.run(["categories", "50000003", "--by", "device", "--format", "json"] + range, environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(device.code, 0, device.stderr)

        let requests = transport.requests
        XCTAssertEqual(requests.count, 4)
        XCTAssertEqual(requests.map(\.url.absoluteString), ["/categories", "/category/keywords", "/category/keyword/age", "/category/device"].map {
            server.baseURL + "/shopping/v1" + $0
        })
        XCTAssertEqual(requests.map(\.bodyText), [
            #"{"startDate":"2026-09-01","endDate":"2026-09-30","timeUnit":"month","category":[{"name":"50000000","param":["50000000"]},{"name":"50000002","param":["50000002"]}]}"#,
            #"{"startDate":"2026-11-02","endDate":"2026-11-29","timeUnit":"week","category":"50000000","keyword":[{"name":"원피스","param":["원피스"]},{"name":"청바지","param":["청바지"]}],"device":"mo","gender":"f","ages":["20","30"]}"#,
            #"{"startDate":"2026-09-01","endDate":"2026-09-30","timeUnit":"month","category":"50000000","keyword":"원피스"}"#,
            #"{"startDate":"2026-09-01","endDate":"2026-09-30","timeUnit":"month","category":"50000003"}"#,
        ])
        for request in requests {
            XCTAssertEqual(request.method, .post)
            XCTAssertEqual(request.header("X-NCP-APIGW-API-KEY-ID"), F.id)
            XCTAssertEqual(request.header("X-NCP-APIGW-API-KEY"), F.secret)
            XCTAssertEqual(request.header("Content-Type"), "application/json")
            XCTAssertNil(request.header("X-Naver-Client-Id"))
        }
        let groups = try JSONParser.parse(breakdown.stdout)["series"]!.arrayValue!.compactMap { $0["group"]?.stringValue }
        XCTAssertEqual(Set(groups), ["10", "20", "30", "40", "50", "60"])
        let someAges = await F.run(["keywords", "원피스", "--category", "50000000", "--by", "age", "--ages", "20,30", "--format", "json"] + range,
                                   environment: F.apiHub(server), transport: RecordingTransport())
        XCTAssertEqual(someAges.code, 0, someAges.stderr)
        let some = try JSONParser.parse(someAges.stdout)["series"]!.arrayValue!
        XCTAssertEqual(Set(some.compactMap { $0["group"]?.stringValue }), ["20", "30"], "only the ages asked for")
        XCTAssertEqual(some.map { Double($0["latest"]!.textValue!)! }.max(), 100)
    }

    func testDevelopersCenterKeysOnTheirLayout() async throws {
        let server = try startDataLab()
        let transport = RecordingTransport()
        let run = await F.run(["categories", "패션의류", "-v", "--format", "json"] + range, environment: F.developers(server), transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        let request = try XCTUnwrap(transport.requests.first)
        XCTAssertEqual(request.url.absoluteString, server.baseURL + "/v1/datalab/shopping/categories")
        XCTAssertEqual(request.header("X-Naver-Client-Id"), F.id)
        XCTAssertEqual(request.header("X-Naver-Client-Secret"), F.secret)
        XCTAssertNil(request.header("X-NCP-APIGW-API-KEY"))
        XCTAssertTrue(run.stderr.contains("2027-06-30"), run.stderr)
        XCTAssertTrue(run.stderr.contains("[redacted]"))
        XCTAssertFalse((run.stdout + run.stderr).contains(F.secret), "keys are never printed")
        // The Developers Center headers on the API HUB layout are refused, like real API HUB would.
        var wrong = F.developers(server)
        wrong["SHOPY_DATALAB_BASE"] = server.baseURL + "/shopping/v1"
        let refused = await F.run(["categories", "패션의류"] + range, environment: wrong, transport: transport)
        XCTAssertEqual(refused.code, 77, refused.stderr)
    }

    func testAPIHubWinsWhenBothPairsAreSet() async throws {
        let server = try startDataLab()
        let transport = RecordingTransport()
        var environment = F.apiHub(server)
        environment["NAVER_CLIENT_ID"] = "old-id"
        environment["NAVER_CLIENT_SECRET"] = "old-secret-value"
        let run = await F.run(["categories", "패션의류", "식품", "출산/육아", "도서", "-v", "--format", "tsv"] + range, environment: environment, transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(transport.requests.count, 2)
        XCTAssertTrue(transport.requests.allSatisfy { $0.header("X-NCP-APIGW-API-KEY-ID") == F.id && $0.header("X-Naver-Client-Id") == nil })
        XCTAssertEqual(run.stderr.components(separatedBy: "2027-06-30").count - 1, 1, "said once: \(run.stderr)")
        XCTAssertFalse((run.stdout + run.stderr).contains("old-secret-value") || (run.stdout + run.stderr).contains(F.secret))
        XCTAssertEqual(try DataLabKeys.from(environment: ["NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b"])!.base(environment: [:]).absoluteString,
                       "https://openapi.naver.com/v1/datalab/shopping")
        XCTAssertEqual(try DataLabKeys.from(environment: ["NAVER_API_HUB_KEY_ID": "a", "NAVER_API_HUB_KEY": "b"])!.base(environment: [:]).absoluteString,
                       "https://naverapihub.apigw.ntruss.com/shopping/v1")
    }

    // MARK: - Anchoring

    func testSevenCategoriesEqualOneRequestWithAll() async throws {
        let server = try startDataLab { $0.dataLabRatioDecimals = nil }
        let codes = ["50000000", "50000001", "50000002", "50000003", "50000004", "50000005", "50000006"]
        let transport = RecordingTransport()
        let run = await F.run(["categories"] + codes + ["--from", "2026-06-01", "--to", "2026-11-29", "--format", "json", "-v"],
                              environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(transport.requests.count, 3, "⌈6 / 2⌉ requests of 3 with one anchor")
        XCTAssertEqual(try JSONParser.parse(run.stdout)["requests"], .int(3))
        XCTAssertTrue(run.stderr.contains("in 3 requests") && run.stderr.contains("anchored by '패션의류'"), run.stderr)
        let truth = try await F.groundTruth(server, DataLabRequest(
            endpoint: .categories, range: TrendsRange(start: CalendarDate("2026-06-01")!, end: CalendarDate("2026-11-29")!, unit: .week),
            filters: TrendsFilters(), categories: codes.map { TrendsSeriesKey(name: $0, param: $0) }))
        XCTAssertEqual(try F.ratios(run), truth)
        XCTAssertTrue(truth.values.contains { $0.contains("100") })
    }

    func testTwelveKeywordsByDayEqualOneRequestWithAll() async throws {
        let server = try startDataLab { $0.dataLabRatioDecimals = nil }
        let keywords = ["원피스", "청바지", "니트", "코트", "패딩", "셔츠", "슬랙스", "후드티", "가디건", "점퍼", "레깅스", "블라우스"]
        let transport = RecordingTransport()
        let run = await F.run(["keywords"] + keywords + ["--category", "50000000", "--unit", "date", "--from", "2026-10-01", "--to", "2026-11-15",
                                                         "--gender", "f", "--format", "json"], environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(transport.requests.count, 3, "⌈11 / 4⌉ requests of 5 with one anchor")
        let truth = try await F.groundTruth(server, DataLabRequest(
            endpoint: .keywords, range: TrendsRange(start: CalendarDate("2026-10-01")!, end: CalendarDate("2026-11-15")!, unit: .date),
            filters: TrendsFilters(gender: .f), category: "50000000", keywords: keywords.map { TrendsSeriesKey(name: $0, param: $0) }))
        let ours = try F.ratios(run)
        XCTAssertEqual(ours, truth)
        XCTAssertTrue(ours.values.contains { $0.contains("0") }, "some series have days without clicks (missing from answers)")
        XCTAssertTrue(ours.values.allSatisfy { $0.count == 46 })
    }

    func testWithNaverRoundingTheStitchedScaleStaysClose() async throws {
        let server = try startDataLab()  // 5 decimals, as Naver
        let keywords = (1...12).map { "키워드\($0)" }
        let run = await F.run(["keywords"] + keywords + ["--category", "50000001", "--format", "json"] + range,
                              environment: F.apiHub(server), transport: RecordingTransport())
        XCTAssertEqual(run.code, 0, run.stderr)
        let truth = try await F.groundTruth(server, DataLabRequest(
            endpoint: .keywords, range: TrendsRange(start: CalendarDate("2026-09-01")!, end: CalendarDate("2026-09-30")!, unit: .month),
            filters: TrendsFilters(), category: "50000001", keywords: keywords.map { TrendsSeriesKey(name: $0, param: $0) }))
        for (keyword, values) in try F.ratios(run) {
            for (a, b) in zip(values, truth[keyword]!) { XCTAssertEqual(Double(a)!, Double(b)!, accuracy: 5e-4, keyword) }
        }
    }

    func testAnchorWithoutClicksIsReplaced() async throws {
        let server = try startDataLab { $0.dataLabRatioDecimals = nil }
        let keywords = ["noclick-anchor", "원피스", "청바지", "니트", "코트", "패딩", "셔츠"]
        let transport = RecordingTransport()
        let run = await F.run(["keywords"] + keywords + ["--category", "50000000", "--format", "json", "-v"] + range,
                              environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(transport.requests.count, 3, "2 planned, 1 again with a new anchor")
        XCTAssertTrue(run.stderr.contains("has no clicks") && run.stderr.contains("asking again"), run.stderr)
        let truth = try await F.groundTruth(server, DataLabRequest(
            endpoint: .keywords, range: TrendsRange(start: CalendarDate("2026-09-01")!, end: CalendarDate("2026-09-30")!, unit: .month),
            filters: TrendsFilters(), category: "50000000", keywords: keywords.map { TrendsSeriesKey(name: $0, param: $0) }))
        XCTAssertEqual(try F.ratios(run), truth)
    }

    func testAnAnswerOfZerosIsNotTheScale() async throws {
        let server = try startDataLab { $0.dataLabRatioDecimals = nil }
        let keywords = ["noclick-a", "noclick-b", "noclick-c", "noclick-d", "noclick-e", "원피스", "청바지"]
        let transport = RecordingTransport()
        let run = await F.run(["keywords"] + keywords + ["--category", "50000000", "--format", "json"] + range,
                              environment: F.apiHub(server), transport: transport)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(transport.requests.count, 2, "the second answer is the scale; the first is all zeros")
        XCTAssertEqual(run.stderr, "")
        let truth = try await F.groundTruth(server, DataLabRequest(
            endpoint: .keywords, range: TrendsRange(start: CalendarDate("2026-09-01")!, end: CalendarDate("2026-09-30")!, unit: .month),
            filters: TrendsFilters(), category: "50000000", keywords: keywords.map { TrendsSeriesKey(name: $0, param: $0) }))
        XCTAssertEqual(try F.ratios(run), truth)
    }

    func testASeriesThatCannotBePlacedIsNamed() async throws {
        // The anchor has clicks but rounds to 0 beside a far larger series: asked again with the
        // strongest placed series, which rounds to 0 there too.
        let range = TrendsRange(start: CalendarDate("2026-09-01")!, end: CalendarDate("2026-09-30")!, unit: .month)
        let comparison = TrendsComparison(kind: .keywords, category: ShoppingCategory(code: "1", path: ["1"]),
                                          series: ["a", "b", "c", "d", "e", "huge"].map(TrendsComparison.Series.keyword),
                                          range: range, filters: TrendsFilters(), by: nil)
        let keys = DataLabKeys.from(environment: ["NAVER_API_HUB_KEY_ID": "i", "NAVER_API_HUB_KEY": "k"])!
        let client = DataLabClient(base: URL(string: "http://127.0.0.1:9/shopping/v1")!, keys: keys, transport: HugeKeywordDataLab())
        let result = try await TrendsFetcher(client: client, timeout: 5, trace: .off).run(comparison)
        XCTAssertEqual(result.requests, 3, "2 planned, 1 again with another anchor")
        XCTAssertEqual(result.unplaced.map(\.name), ["huge"])
        XCTAssertEqual(result.rows.count, 5)
        let run = await F.run(["keywords", "a", "b", "c", "d", "e", "huge", "--category", "1", "--format", "tsv"] + self.range,
                              environment: ["NAVER_API_HUB_KEY_ID": "i", "NAVER_API_HUB_KEY": "k", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9"],
                              transport: HugeKeywordDataLab())
        XCTAssertEqual(run.code, 0)
        XCTAssertTrue(run.stderr.contains("cannot put 'huge' on the common scale"), run.stderr)
    }
}
