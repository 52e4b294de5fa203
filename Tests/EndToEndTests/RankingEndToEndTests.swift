import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// `shopy popular` and `shopy rank` against the emulator.
final class RankingEndToEndTests: XCTestCase {
    /// 1,500 items that all match 테스트키워드 equally, so relevance order is file order: item i
    /// ranks i+1. A target product sits at rank 777; mall 다중몰 has items at ranks 5, 250 and 1050.
    static let itemsFile: String = {
        var items: [JSONValue] = []
        for i in 0..<1500 {
            let rank = i + 1
            let mall = [5, 250, 1050].contains(rank) ? "다중몰" : "몰\(rank % 37)"
            let id = rank == 777 ? "77700000777" : String(50_000_000_000 + rank)
            items.append(WireItem(title: "테스트키워드 상품 \(rank)", link: "https://example.test/\(rank)", image: "", lprice: "\(1000 + rank)",
                                  hprice: "", mallName: mall, productId: id, productType: "2", brand: "", maker: "",
                                  category1: "테스트", category2: "", category3: "", category4: "").json)
        }
        let path = TestHome.shared.path + "/rank-items.json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(JSONWriter.serialize(.array(items))))
        return path
    }()

    func json(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try JSONParser.parse(result.stdout)
    }

    func testPagesCoverTheContractsReach() {
        XCTAssertEqual(RankScan.pages(depth: 1099).map(\.start), [1, 101, 201, 301, 401, 501, 601, 701, 801, 901, 1000])
        XCTAssertEqual(RankScan.pages(depth: 1099).last?.display, 100)
        XCTAssertEqual(RankScan.pages(depth: 1000).map(\.start).last, 901)
        XCTAssertEqual(RankScan.pages(depth: 250).map(\.display), [100, 100, 50])
        XCTAssertEqual(RankScan.pages(depth: 1001).last.map { [$0.start, $0.display] }, [1000, 2])
    }

    func testAProductAtAKnownDeepRankIsFoundThere() throws {
        let emulator = try EmulatorProcess(["--items", Self.itemsFile])
        defer { emulator.stop() }
        let result = try runShopy(["rank", "테스트키워드", "--product", "77700000777", "--json"], environment: emulator.environment)
        let out = try json(result)
        XCTAssertEqual(out["found"], .bool(true))
        let match = try XCTUnwrap(out["matches"]?.arrayValue?.first)
        XCTAssertEqual(match["rank"]?.intValue, 777)
        XCTAssertEqual(match["webPage"]?.intValue, 20)
        XCTAssertEqual(match["webPosition"]?.intValue, 17)
        XCTAssertEqual(match["productId"]?.stringValue, "77700000777")
        XCTAssertLessThanOrEqual(try emulator.requestCount(), 11)
        // Its rank is a row for `shopy like`.
        let like = try runShopy(["like", "777"], environment: emulator.environment)
        XCTAssertEqual(like.status, 0, like.stderr)
        XCTAssertTrue(like.stderr.contains("liked: 77700000777"), like.stderr)
    }

    func testAllListsEveryProductOfAMallAndTheFirstOneStopsEarly() throws {
        let emulator = try EmulatorProcess(["--items", Self.itemsFile])
        defer { emulator.stop() }
        let all = try json(try runShopy(["rank", "테스트키워드", "--mall", " 다중몰 ", "--all", "--depth", "1099", "--json"], environment: emulator.environment))
        XCTAssertEqual(all["matches"]?.arrayValue?.map { $0["rank"]?.intValue }, [5, 250, 1050])
        XCTAssertEqual(try emulator.requestCount(), 11)
        try emulator.reset()
        let first = try json(try runShopy(["rank", "테스트키워드", "--mall", "다중몰", "--json"], environment: emulator.environment))
        XCTAssertEqual(first["matches"]?.arrayValue?.map { $0["rank"]?.intValue }, [5])
        XCTAssertLessThan(try emulator.requestCount(), 11, "stops once the first match is certain")
        // All matchers must hold.
        try emulator.reset()
        let both = try json(try runShopy(["rank", "테스트키워드", "--mall", "다중몰", "--title", "상품 250", "--json"], environment: emulator.environment))
        XCTAssertEqual(both["matches"]?.arrayValue?.map { $0["rank"]?.intValue }, [250])
    }

    func testAnAbsentProductIsNotInTheTop1099AndTheDefaultRateIsNeverThrottled() throws {
        let emulator = try EmulatorProcess(["--items", Self.itemsFile, "--rate-limit", "10"])
        defer { emulator.stop() }
        let result = try runShopy(["rank", "테스트키워드", "--product", "12345678901", "--depth", "1099", "--json"], environment: emulator.environment)
        let out = try json(result)
        XCTAssertEqual(out["found"], .bool(false))
        XCTAssertEqual(out["scanned"]?.intValue, 1099)
        XCTAssertEqual(out["matches"]?.arrayValue?.count, 0)
        let stats = try emulator.stats()
        XCTAssertEqual(stats["requests"]?.intValue, 11)
        XCTAssertEqual(stats["throttled"]?.intValue, 0, "8 requests a second stays under the API's 10")
        let table = try runShopy(["rank", "테스트키워드", "--product", "12345678901", "--depth", "1099", "--format", "table"], environment: emulator.environment)
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.contains("not in the top 1,099"), table.stdout)
    }

    func testInvalidRankInputIs64BeforeAnyRequest() throws {
        let emulator = try EmulatorProcess(["--items", Self.itemsFile])
        defer { emulator.stop() }
        let cases: [([String], String)] = [
            (["rank", "테스트키워드"], "--product"),
            (["rank", "테스트키워드", "--product", "1", "--depth", "0"], "--depth"),
            (["rank", "테스트키워드", "--product", "1", "--depth", "1100"], "1099"),
            (["rank", "테스트키워드", "--product", "1", "--depth", "deep"], "--depth"),
            (["rank", "테스트키워드", "--mall", " "], "--mall"),
            (["rank", "--mall", "x"], "keyword"),
            (["rank", "x", "--mall", "y", "--rate", "0"], "--rate"),
        ]
        for (arguments, fragment) in cases {
            assertErrorReport(try runShopy(arguments, environment: emulator.environment), status: 64, contains: [fragment])
        }
        XCTAssertEqual(try emulator.requestCount(), 0)
    }

    func testAFailingPopularSectionLeavesTheOthersIntact() throws {
        let emulator = try EmulatorProcess(["--fault", "500", "--fault-query", "세제"])
        defer { emulator.stop() }
        let arguments = ["popular", "-s", "고양이", "-s", "세제", "-s", "방충망", "--size", "5"]
        let out = try json(try runShopy(arguments + ["--json"], environment: emulator.environment))
        let sections = try XCTUnwrap(out["sections"]?.arrayValue)
        XCTAssertEqual(sections.map { $0["keyword"]?.stringValue }, ["고양이", "세제", "방충망"])
        XCTAssertEqual(sections[0]["items"]?.arrayValue?.count, 5)
        XCTAssertEqual(sections[0]["items"]?.arrayValue?.first?["row"]?.stringValue, "1.1")
        XCTAssertNil(sections[1]["items"])
        XCTAssertEqual(sections[1]["error"]?["exitCode"]?.intValue, 69)
        XCTAssertTrue(sections[1]["error"]?["message"]?.stringValue?.contains("SE99") ?? false)
        XCTAssertEqual(sections[2]["items"]?.arrayValue?.count, 5)

        let table = try runShopy(arguments + ["--format", "table"], environment: emulator.environment)
        XCTAssertEqual(table.status, 0)
        XCTAssertTrue(table.stdout.contains("2. 세제") && table.stdout.contains("failed:"), table.stdout)
        XCTAssertTrue(table.stdout.contains("3.5"), "rows are SECTION.RANK")

        // Rows of the last listing can be liked as SECTION.RANK.
        let like = try runShopy(["like", "3.1"], environment: emulator.environment)
        XCTAssertEqual(like.status, 0, like.stderr)
        XCTAssertTrue(like.stderr.hasPrefix("shopy: liked: "), like.stderr)
    }

    func testPopularFailsOnlyWhenEverySectionFails() throws {
        let emulator = try EmulatorProcess(["--fault", "500"])
        defer { emulator.stop() }
        let result = try runShopy(["popular", "-s", "고양이", "-s", "세제", "--json"], environment: emulator.environment)
        XCTAssertEqual(result.status, 69)
        XCTAssertEqual(try JSONParser.parse(result.stdout)["sections"]?.arrayValue?.count, 2)
        // Nothing to show: the error is said once, with its hint.
        let retired = try EmulatorProcess(["--retired"])
        defer { retired.stop() }
        for format in ["table", "tsv"] {
            let all = try runShopy(["popular", "--format", format], environment: retired.environment)
            assertErrorReport(all, status: 69, contains: ["2026-07-31", "--source catalog"])
        }
    }

    func testTheTimeoutStartsWhenTheRateLimiterLetsARequestGo() throws {
        let slow = try EmulatorProcess(["--items", Self.itemsFile, "--latency", "400"])
        defer { slow.stop() }
        // Three pages at one a second take over two seconds in all, each well within 1.5 s.
        let result = try runShopy(["rank", "테스트키워드", "--product", "1", "--depth", "300", "--rate", "1", "--timeout", "1.5", "--json"],
                                  environment: slow.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try JSONParser.parse(result.stdout)["scanned"]?.intValue, 300)
    }

    func testPopularDefaultsAndSavedSections() throws {
        let home = TestHome()
        defer { home.remove() }
        // On the catalog: sections the catalog covers, each full.
        let catalog = try json(try runShopy(["popular", "--json"], home: home.path))
        let sections = try XCTUnwrap(catalog["sections"]?.arrayValue)
        XCTAssertEqual(sections.map { $0["keyword"]?.stringValue ?? "" }, PopularCommand.catalogSections)
        for section in sections { XCTAssertEqual(section["items"]?.arrayValue?.count, 10) }
        // A saved default set is used next time; --reset forgets it.
        XCTAssertEqual(try runShopy(["popular", "-s", "강아지", "--save", "--size", "1"], home: home.path).status, 0)
        let saved = try json(try runShopy(["popular", "--json", "--size", "2"], home: home.path))
        XCTAssertEqual(saved["sections"]?.arrayValue?.map { $0["keyword"]?.stringValue }, ["강아지"])
        XCTAssertEqual(try runShopy(["popular", "--reset", "--size", "1"], home: home.path).status, 0)
        let reset = try json(try runShopy(["popular", "--json", "--size", "1"], home: home.path))
        XCTAssertEqual(reset["sections"]?.arrayValue?.count, 3)
        assertErrorReport(try runShopy(["popular", "--save"], home: home.path), status: 64, contains: ["--save"])
        assertErrorReport(try runShopy(["popular", "--size", "101"], home: home.path), status: 64, contains: ["--size"])
    }

    func testRankReportsTheRequestsTheServerReceived() throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        // 방충망 has 21 results on the emulator's catalog: one page holds them all.
        let result = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table"], environment: emulator.environment.merging(["COLUMNS": "40"]) { $1 })
        XCTAssertEqual(result.status, 0, result.stderr)
        let received = try emulator.requestCount()
        let footer = try XCTUnwrap(result.stdoutLines.last)
        XCTAssertTrue(footer.hasSuffix("· \(received) request\(received == 1 ? "" : "s") sent"), "footer '\(footer)', server received \(received)")
        // The link is whole even at 40 columns.
        XCTAssertTrue(result.stdoutLines.contains("  https://smartstore.naver.com/main/products/2788117408"), result.stdout)

        let catalog = try runShopy(["rank", "방충망", "--mall", "다샵", "--format", "table", "--source", "catalog"])
        XCTAssertTrue(catalog.stdoutLines.last?.hasSuffix("· offline catalog") ?? false, "the catalog sends nothing: \(catalog.stdout)")
    }
}
