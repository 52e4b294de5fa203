// Tests for `shopy search` (Sources/ShopYCLI/Commands/SearchCommand.swift) run in process on the
// offline catalog (no keys in the environment). Catalog.bold: ShopYCatalogTests/Search/CatalogBoldTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
@testable import ShopYCatalog

final class SearchCommandTests: XCTestCase {

    // MARK: - Helpers

    private func search(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) async -> CLIRun {
        await Shell.run(["search"] + arguments, environment: environment, terminal: terminal)
    }

    /// Runs with --format json and returns the envelope.
    private func searchJSON(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) async throws -> JSONValue {
        let run = await search(arguments + ["--format", "json"])
        XCTAssertEqual(run.code, 0, run.stderr, file: file, line: line)
        return try JSONParser.parse(run.stdout)
    }

    private func items(_ envelope: JSONValue) -> [JSONValue] { envelope["items"]?.arrayValue ?? [] }

    private func tsvRows(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Everything a term may match in, lowercased: the cleaned title, brand, maker, categories.
    private func haystack(_ item: JSONValue) -> [String] {
        var fields = [item["title"]?.stringValue, item["brand"]?.stringValue, item["maker"]?.stringValue]
        fields += (item["categories"]?.arrayValue ?? []).map(\.stringValue)
        return fields.compactMap { $0?.lowercased() }
    }

    /// The recorded items that match every term, computed here independently of Catalog.
    private func expectedMatches(_ query: String) -> [WireItem] {
        let terms = query.lowercased().split(separator: " ").map(String.init)
        return Catalog.embedded.items.filter { item in
            let product = ProductMapper.product(from: item)
            let fields = ([product.title, product.brand, product.maker].compactMap { $0 } + product.categories).map { $0.lowercased() }
            return terms.allSatisfy { term in fields.contains { $0.contains(term) } }
        }
    }

    // MARK: - Basics

    func testCatalogSearchRowsAndNotice() async {
        let run = await search(["방충망"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let rows = tsvRows(run.stdout)
        XCTAssertEqual(rows.count, 20, "default size 20 (21 matches)")
        XCTAssertEqual(rows.map { $0[0] }, (1...20).map(String.init))
        for row in rows {
            XCTAssertEqual(row.count, 6, "\(row)")
            XCTAssertFalse(row[4].contains("<b>"), "titles are cleaned: \(row[4])")
            XCTAssertTrue(row[1].allSatisfy(\.isNumber), row[1])
        }
        // The notice, once, on stderr, naming both variables.
        XCTAssertEqual(run.stderr, "shopy: " + CatalogSource.notice + "\n")
        XCTAssertTrue(run.stderr.contains("NAVER_CLIENT_ID"))
        XCTAssertTrue(run.stderr.contains("NAVER_CLIENT_SECRET"))
        XCTAssertTrue(run.stderr.hasPrefix("shopy: "))
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
    }

    func testTableFooter() async {
        let run = await search(["방충망", "--format", "table"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1 + 20 + 1, "header, rows, footer")
        XCTAssertEqual(lines.last, "1–20 of 21 · sort sim · offline catalog")
        XCTAssertTrue(lines[0].trimmingCharacters(in: .whitespaces).hasPrefix("#"), lines[0])
        XCTAssertTrue(lines[0].contains("PRICE") && lines[0].contains("TITLE"), lines[0])
        XCTAssertFalse(run.stdout.contains("\u{1B}"), "no colour when stdout is not a terminal")

        let page2 = await search(["방충망", "--format", "table", "--page", "2", "--size", "5", "--sort", "asc"])
        XCTAssertEqual(page2.stdout.split(separator: "\n").last, "6–10 of 21 · sort asc · offline catalog")
    }

    func testPagingRanks() async throws {
        let run = await search(["방충망", "--page", "2", "--size", "5"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let rows = tsvRows(run.stdout)
        XCTAssertEqual(rows.map { $0[0] }, ["6", "7", "8", "9", "10"])

        let envelope = try await searchJSON(["방충망", "--page", "2", "--size", "5"])
        XCTAssertEqual(envelope["start"], .number("6"))
        XCTAssertEqual(envelope["display"], .number("5"))
        XCTAssertEqual(items(envelope).map { $0["rank"] }, (6...10).map { .number(String($0)) })

        // Pages tile the whole result: page 1 + page 2 at size 5 = page 1 at size 10.
        let first = try await searchJSON(["방충망", "--size", "5"])
        let both = try await searchJSON(["방충망", "--size", "10"])
        XCTAssertEqual((items(first) + items(envelope)).map { $0["productId"] }, items(both).map { $0["productId"] })
        XCTAssertEqual((items(first) + items(envelope)).map { $0["rank"] }, items(both).map { $0["rank"] })

        // The last partial page.
        let last = try await searchJSON(["방충망", "--page", "3", "--size", "10"])
        XCTAssertEqual(items(last).count, 1)
        XCTAssertEqual(items(last).first?["rank"], .number("21"))
    }

    func testEveryTermMustMatch() async throws {
        let envelope = try await searchJSON(["방충망", "자석", "--size", "100"])
        let found = items(envelope)
        let expected = expectedMatches("방충망 자석")
        XCTAssertFalse(found.isEmpty)
        XCTAssertEqual(envelope["total"], .number(String(expected.count)))
        XCTAssertEqual(Set(found.compactMap { $0["productId"]?.stringValue }), Set(expected.map(\.productId)))
        for item in found {
            let fields = haystack(item)
            for term in ["방충망", "자석"] {
                XCTAssertTrue(fields.contains { $0.contains(term) }, "\(term) in \(fields)")
            }
        }
        // Terms are found case-insensitively, in any order, with extra spaces.
        let reordered = try await searchJSON(["  자석", "방충망  ", "--size", "100"])
        XCTAssertEqual(Set(items(reordered).compactMap { $0["productId"]?.stringValue }), Set(expected.map(\.productId)))
        XCTAssertEqual(reordered["query"], .string("자석 방충망"))

        let upper = try await searchJSON(["P&G", "--size", "100"])
        let lower = try await searchJSON(["p&g", "--size", "100"])
        XCTAssertFalse(items(upper).isEmpty)
        XCTAssertEqual(items(upper).map { $0["productId"] }, items(lower).map { $0["productId"] })
        XCTAssertTrue(items(upper).allSatisfy { haystack($0).contains { $0.contains("p&g") } })
        XCTAssertEqual(upper["total"], .number(String(expectedMatches("p&g").count)))
    }

    func testTotalMatchesIndependentCount() async throws {
        for query in ["방충망", "세제", "고양이", "자석"] {
            let envelope = try await searchJSON([query, "--size", "1"])
            XCTAssertEqual(envelope["total"], .number(String(expectedMatches(query).count)), query)
        }
    }

    // MARK: - Sort orders

    private func prices(_ arguments: [String]) async throws -> [Int?] {
        let envelope = try await searchJSON(arguments)
        return items(envelope).map { $0["price"]?.intValue }
    }

    func testSortAscending() async throws {
        for query in ["방충망", "세제", "고양이"] {
            let values = try await prices([query, "--sort", "asc", "--size", "100"])
            XCTAssertGreaterThan(values.count, 1, query)
            let known = values.compactMap { $0 }
            XCTAssertEqual(known, known.sorted(), "\(query): \(values)")
            if let firstUnknown = values.firstIndex(where: { $0 == nil }) {
                XCTAssertTrue(values[firstUnknown...].allSatisfy { $0 == nil }, "unknown prices last")
            }
        }
    }

    func testSortDescending() async throws {
        for query in ["방충망", "세제", "고양이"] {
            let values = try await prices([query, "--sort", "dsc", "--size", "100"])
            XCTAssertGreaterThan(values.count, 1, query)
            let known = values.compactMap { $0 }
            XCTAssertEqual(known, known.sorted(by: >), "\(query): \(values)")
            if let firstUnknown = values.firstIndex(where: { $0 == nil }) {
                XCTAssertTrue(values[firstUnknown...].allSatisfy { $0 == nil }, "unknown prices last")
            }
        }
    }

    func testSortAcrossPages() async throws {
        // Sorting happens before paging: page 2 continues where page 1 stopped.
        let page1 = try await prices(["방충망", "--sort", "asc", "--size", "7"])
        let page2 = try await prices(["방충망", "--sort", "asc", "--size", "7", "--page", "2"])
        let all = try await prices(["방충망", "--sort", "asc", "--size", "14"])
        XCTAssertEqual(page1 + page2, all)
    }

    func testSortByDate() async throws {
        for query in ["방충망", "고양이", "생활"] {
            let envelope = try await searchJSON([query, "--sort", "date", "--size", "100"])
            XCTAssertEqual(envelope["sort"], .string("date"))
            let ids = items(envelope).compactMap { $0["productId"]?.stringValue }.compactMap { Int($0) }
            XCTAssertEqual(ids.count, items(envelope).count, "numeric ids")
            XCTAssertGreaterThan(ids.count, 1, query)
            XCTAssertEqual(ids, ids.sorted(by: >), "\(query): newest (largest id) first")
        }
    }

    func testSortsAreOrdersOfTheSameSet() async throws {
        var sets: [Set<String>] = []
        for sort in ["sim", "date", "asc", "dsc"] {
            let envelope = try await searchJSON(["고양이", "--sort", sort, "--size", "100"])
            XCTAssertEqual(envelope["sort"], .string(sort))
            sets.append(Set(items(envelope).compactMap { $0["productId"]?.stringValue }))
        }
        XCTAssertEqual(Set(sets).count, 1)
    }

    // MARK: - JSON envelope

    func testJSONEnvelope() async throws {
        let run = await search(["방충망", "--json", "--size", "3"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasSuffix("}\n"))
        let envelope = try JSONParser.parse(run.stdout)
        XCTAssertEqual(envelope.objectValue?.keys, ["query", "sort", "source", "total", "start", "display", "items"])
        XCTAssertEqual(envelope["query"], .string("방충망"))
        XCTAssertEqual(envelope["sort"], .string("sim"))
        XCTAssertEqual(envelope["source"], .string("catalog"))
        XCTAssertEqual(envelope["total"], .number("21"))
        XCTAssertEqual(envelope["start"], .number("1"))
        XCTAssertEqual(envelope["display"], .number("3"))
        XCTAssertEqual(items(envelope).count, 3)
        for item in items(envelope) {
            // The schema's keys in order; search knows the likes, so "liked" follows.
            // A listing's items say where they were found (Coupang's also carry rocket and freeShipping).
            XCTAssertEqual(item.objectValue?.keys,
                           ["rank", "productId", "title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image",
                            "source", "liked"])
            XCTAssertEqual(item["source"], .string("catalog"))
            XCTAssertEqual(item["liked"], .bool(false), "nothing is liked in a fresh store")
            XCTAssertFalse(item["title"]?.stringValue?.contains("<b>") ?? true)
            XCTAssertFalse(item["link"]?.stringValue?.contains("\\/") ?? true)
        }
        // Pretty: two-space indent, "key": value.
        XCTAssertTrue(run.stdout.hasPrefix("{\n  \"query\": \"방충망\",\n  \"sort\": \"sim\",\n"), run.stdout)
        // The same JSON with --format json.
        let again = await search(["방충망", "--format", "json", "--size", "3"])
        XCTAssertEqual(again.stdout, run.stdout)
    }

    func testNoMatch() async throws {
        let run = await search(["쿼리에맞는상품없음zzz", "--json"])
        XCTAssertEqual(run.code, 0)
        let envelope = try JSONParser.parse(run.stdout)
        XCTAssertEqual(envelope["items"], .array([]))
        XCTAssertEqual(envelope["total"], .number("0"))
        XCTAssertEqual(envelope["display"], .number("0"))

        let tsv = await search(["쿼리에맞는상품없음zzz"])
        XCTAssertEqual(tsv.code, 0)
        XCTAssertEqual(tsv.stdout, "")
        XCTAssertTrue(tsv.stderr.contains("no results for '쿼리에맞는상품없음zzz'"), tsv.stderr)

        let table = await search(["쿼리에맞는상품없음zzz"], terminal: true)
        XCTAssertEqual(table.code, 0)
        XCTAssertTrue(table.stdout.contains("no results"), table.stdout)

        // Only one term matching is no match.
        let half = try await searchJSON(["방충망", "쿼리에맞는상품없음zzz"])
        XCTAssertEqual(half["total"], .number("0"))
    }

    func testPagePastTheEnd() async throws {
        let envelope = try await searchJSON(["방충망", "--page", "5", "--size", "10"])
        XCTAssertEqual(envelope["items"], .array([]))
        XCTAssertEqual(envelope["total"], .number("21"))
        let tsv = await search(["방충망", "--page", "5", "--size", "10"])
        XCTAssertEqual(tsv.code, 0)
        XCTAssertEqual(tsv.stdout, "")
        XCTAssertTrue(tsv.stderr.contains("the last page at size 10 is 3"), tsv.stderr)
    }

    func testOtherFormats() async throws {
        let csv = await search(["방충망", "--format", "csv", "--size", "4"])
        XCTAssertEqual(csv.code, 0)
        XCTAssertEqual(csv.stdout.components(separatedBy: "\r\n").count, 1 + 4 + 1)
        XCTAssertTrue(csv.stdout.hasPrefix(Render.csvHeader.joined(separator: ",")), csv.stdout)
        // A listing's rows end with their source.
        XCTAssertTrue(csv.stdout.components(separatedBy: "\r\n")[0] == (Render.csvHeader + ["source"]).joined(separator: ",")
                      || csv.stdout.components(separatedBy: "\r\n")[0] == (Render.csvHeader + ["liked", "source"]).joined(separator: ","))

        let jsonl = await search(["방충망", "--format", "jsonl", "--size", "4"])
        XCTAssertEqual(jsonl.code, 0)
        let lines = jsonl.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        for (i, line) in lines.enumerated() {
            XCTAssertEqual(try JSONParser.parse(String(line))["rank"], .number(String(i + 1)))
        }
    }

    func testNaverPayAndExcludeOnCatalog() async throws {
        let all = try await searchJSON(["고양이", "--size", "100"])
        let pay = try await searchJSON(["고양이", "--size", "100", "--naverpay"])
        XCTAssertLessThanOrEqual(items(pay).count, items(all).count)
        for item in items(pay) {
            let link = item["link"]?.stringValue ?? ""
            XCTAssertTrue(link.contains("://smartstore.naver.com/") || link.contains("://brand.naver.com/"), link)
        }
        let excluded = try await searchJSON(["고양이", "--size", "100", "--exclude", "used,rental,cbshop"])
        for item in items(excluded) {
            let title = item["title"]?.stringValue ?? ""
            XCTAssertFalse(title.contains("렌탈") || title.contains("해외직구") || title.contains("구매대행"), title)
        }
    }

    // MARK: - Terminal table

    func testTableOnATerminal() async {
        let run = await Shell.run(["search", "방충망"], environment: ["COLUMNS": "60"], terminal: true)
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\u{1B}["), "colour on a terminal")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 22)
        for line in lines {
            XCTAssertLessThanOrEqual(DisplayWidth.of(stripANSI(line)), 60, stripANSI(line))
        }
        XCTAssertEqual(stripANSI(lines.last ?? ""), "1–20 of 21 · sort sim · offline catalog")
    }

    func testTableWithoutColour() async {
        for environment in [["COLUMNS": "60", "NO_COLOR": "1"], ["COLUMNS": "60", "NO_COLOR": ""], ["COLUMNS": "60", "TERM": "dumb"]] {
            let run = await Shell.run(["search", "방충망"], environment: environment, terminal: true)
            XCTAssertEqual(run.code, 0, run.stderr)
            XCTAssertFalse(run.stdout.contains("\u{1B}"), "\(environment)")
            XCTAssertFalse(run.stderr.contains("\u{1B}"), "\(environment)")
            for line in run.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 60, String(line))
            }
        }
    }

    func testTableFitsNarrowAndWideTerminals() async {
        for columns in [20, 30, 40, 80, 132, 200] {
            let run = await Shell.run(["search", "고양이", "--size", "50"], environment: ["COLUMNS": String(columns)], terminal: true)
            XCTAssertEqual(run.code, 0)
            let lines = run.stdout.split(separator: "\n").map { stripANSI(String($0)) }
            XCTAssertEqual(lines.count, 1 + 50 + 1)
            // The table itself (the footer is checked on its own below).
            let widest = lines.dropLast().max { DisplayWidth.of($0) < DisplayWidth.of($1) } ?? ""
            XCTAssertLessThanOrEqual(DisplayWidth.of(widest), columns, "COLUMNS=\(columns), widest line: \(widest)")
        }
    }

    func testFooterFitsNarrowTerminals() async {
        for columns in [20, 30] {
            let run = await Shell.run(["search", "고양이", "--size", "50"], environment: ["COLUMNS": String(columns)], terminal: true)
            XCTAssertEqual(run.code, 0)
            let footer = stripANSI(String(run.stdout.split(separator: "\n").last ?? ""))
            XCTAssertTrue(footer.hasPrefix("1–50"), footer)
            XCTAssertLessThanOrEqual(DisplayWidth.of(footer), columns, "COLUMNS=\(columns): footer \(footer)")
        }
    }
}
