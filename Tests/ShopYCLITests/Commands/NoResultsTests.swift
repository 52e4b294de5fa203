// Tests for the catalog's no-results help (Catalog/CatalogSummary.swift) in search, popular and
// rank, and for the catalog notice (Sources/ProductSource.swift, Commands/Context.swift).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

final class NoResultsTests: XCTestCase {
    let holds = "the offline catalog holds 340 items recorded in 2025: 생활용품 153 · 반려동물 100 · 노트북 20 · 태블릿PC 20"

    func testSearchWithNoMatchSaysWhatTheCatalogHolds() async {
        // Table: on stdout after the line.
        var run = await Home().run(["search", "없는물건", "--format", "table"], environment: ["COLUMNS": "300"])
        XCTAssertEqual(run.code, 0)
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(lines.first, "no results for '없는물건' in the offline catalog")
        XCTAssertTrue(run.stdout.contains("생활용품 153 · 반려동물 100"), run.stdout)
        XCTAssertTrue(run.stdout.contains("shopy-emulator --port 8080"), run.stdout)
        XCTAssertTrue(run.stdout.contains("SHOPY_API_BASE"), run.stdout)
        // Piped: stdout stays data (empty), the help goes to stderr as hints.
        run = await Home().run(["search", "없는물건"])
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("shopy: no results for '없는물건' in the offline catalog\nhint: " + holds), run.stderr)
        run = await Home().run(["search", "없는물건", "--json"])
        XCTAssertTrue(run.stdout.contains("\"items\": []"))
        XCTAssertTrue(run.stderr.contains("hint: " + holds), run.stderr)
        // A page past the end is not "no match": no catalog help.
        run = await Home().run(["search", "방충망", "--page", "5"])
        XCTAssertFalse(run.stderr.contains("holds"), run.stderr)
    }

    func testPopularPipedNoLongerPrintsNothing() async {
        var run = await Home().run(["popular", "-s", "없는물건"])
        XCTAssertEqual(run.code, 0)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("shopy: no results for section '없는물건' in the offline catalog"), run.stderr)
        XCTAssertTrue(run.stderr.contains("hint: " + holds), run.stderr)
        run = await Home().run(["popular", "-s", "없는물건", "-s", "세제", "--format", "table"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(run.stdout.contains("no results"), run.stdout)
        XCTAssertTrue(run.stdout.contains("생활용품 153"), run.stdout)
    }

    func testRankWithNoResults() async {
        var run = await Home().run(["rank", "없는물건", "--mall", "다샵", "--format", "table"], environment: ["COLUMNS": "300"])
        XCTAssertEqual(run.code, 0)
        XCTAssertTrue(run.stdout.hasPrefix("no results for '없는물건'"), run.stdout)
        XCTAssertTrue(run.stdout.contains("생활용품 153"), run.stdout)
        run = await Home().run(["rank", "없는물건", "--mall", "다샵", "--quiet"])
        XCTAssertEqual(run.stderr, "shopy: no results for '없는물건'\n", "--quiet leaves the hints out")
    }

    func testCatalogNotice() async {
        var run = await Home().run(["search", "방충망"])
        XCTAssertTrue(run.stderr.contains("Naver retired its shopping search API on 2026-07-31"), run.stderr)
        XCTAssertTrue(run.stderr.contains("SHOPY_API_BASE"), run.stderr)
        XCTAssertFalse(run.stderr.contains("to search Naver"), "no longer sends users to the retired API")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line in a pipe")
        run = await Home().run(["search", "방충망"], environment: ["NAVER_CLIENT_ID": "x"])
        XCTAssertTrue(run.stderr.contains("NAVER_CLIENT_SECRET is not set (NAVER_CLIENT_ID is)"), run.stderr)
        run = await Home().run(["search", "방충망"], environment: ["NAVER_CLIENT_SECRET": "x"])
        XCTAssertTrue(run.stderr.contains("NAVER_CLIENT_ID is not set (NAVER_CLIENT_SECRET is)"), run.stderr)
        run = await Home().run(["search", "방충망", "--source", "catalog"])
        XCTAssertEqual(run.stderr, "", "asked for: no notice")
        run = await Home().run(["search", "방충망"], environment: ["COLUMNS": "50"], stderrTerminal: true)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertTrue(lines.allSatisfy { DisplayWidth.of(String($0)) <= 50 }, "wrapped to the terminal: \(lines)")
    }
}
