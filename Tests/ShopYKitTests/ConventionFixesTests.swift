// Tests for issue 12's fixes, in process: likes without row numbers, popular's one table,
// the progress bar and the status line, row lists, number and time conventions, status
// --no-probe, help truths, likes export --force, the DNS hint and the test-run summary.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class ConventionFixesTests: XCTestCase {
    func testLikesTableNumbersItsRowsLikeEveryListing() async throws {
        let home = Home()
        _ = await home.run(["search", "방충망", "--size", "3"])
        _ = await home.run(["like", "1", "3"])
        let run = await home.run(["likes", "--format", "table"], environment: ["COLUMNS": "100"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ").prefix(2), ["#", "ID"], "a # column, then the id: \(lines)")
        for (row, line) in lines.dropFirst().dropLast().enumerated() {
            XCTAssertTrue(line.hasPrefix("\(row + 1) "), "row \(row + 1) is numbered: \(line)")
        }
        XCTAssertTrue(lines.last?.contains("ROW") ?? false, lines.last ?? "")
        XCTAssertEqual(Render.table([ListedItem(rank: 1, product: Product(productId: "1", title: "t"))], columns: 40, color: false, showRank: false)[0].hasPrefix("PRICE"), true)
    }

    func testPopularSectionsShareOneTableAndHeader() async {
        let run = await Home().run(["popular", "--size", "4", "--format", "table"], environment: ["COLUMNS": "90"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("PRICE") }.count, 1, "one header: \(lines)")
        XCTAssertTrue(lines[0].contains("PRICE"), "the header comes first")
        let rows = lines.filter { $0.range(of: #"^\s*\d\.\d+ "#, options: .regularExpression) != nil }
        XCTAssertEqual(rows.count, 12)
        // Every price ends in the same column, in every section.
        let ends = Set(rows.map { row -> Int in
            let upTo = row.range(of: "원")!.upperBound
            return DisplayWidth.of(String(row[..<upTo]))
        })
        XCTAssertEqual(ends.count, 1, "prices line up across sections: \(rows)")
    }

    func testProgressLineKeepsItsCountAndShrinksTheBarFirst() {
        for columns in [20, 30, 40, 50, 80, 120] {
            let line = ProgressBar.line(keyword: "방충망 자석 현관", scanned: 300, total: 1000, columns: columns)
            XCTAssertTrue(line.hasSuffix("300/1,000"), "\(columns): \(line)")
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns - 1, "\(columns): \(line)")
        }
        XCTAssertTrue(ProgressBar.line(keyword: "방충망", scanned: 0, total: 1000, columns: 80).contains(String(repeating: "░", count: 24)))
        let narrow = ProgressBar.line(keyword: "방충망", scanned: 500, total: 1000, columns: 36)
        XCTAssertTrue(narrow.hasPrefix("scanning 방충망 █"), "the keyword stays while the bar can shrink: \(narrow)")
        let tight = ProgressBar.line(keyword: "방충망 자석 현관 베란다", scanned: 500, total: 1000, columns: 30)
        XCTAssertFalse(tight.contains("█") || tight.contains("░"), "no room for a bar: \(tight)")
        XCTAssertTrue(tight.hasPrefix("scanning 방충"), tight)
    }

    func testTraceLinesClearTheStatusLineAndRedrawIt() {
        let sink = OutputSink()
        sink.showStatus("bar 1/2")
        sink.line("shopy: > GET …")
        sink.showStatus("bar 2/2")
        sink.clearStatus()
        sink.line("done")
        let clear = "\r\u{1B}[K"
        XCTAssertEqual(sink.text, clear + "bar 1/2" + clear + "shopy: > GET …\n" + "bar 1/2" + clear + "bar 2/2" + clear + "done\n")
    }

    func testRowListsSayWhatExists() {
        XCTAssertEqual(RowList.describe([]), "it has no rows")
        XCTAssertEqual(RowList.describe(["21"]), "its only row is 21")
        XCTAssertEqual(RowList.describe((21...40).map(String.init)), "its rows are 21–40")
        XCTAssertEqual(RowList.describe(["4", "9", "16"]), "its rows are 4, 9, 16")
        XCTAssertEqual(RowList.describe(["4", "5", "16"]), "its rows are 4, 5, 16")
        XCTAssertEqual(RowList.describe(["1.1", "1.2", "1.3", "2.1", "2.2", "2.3"]), "its rows are 1.1–1.3, 2.1–2.3")
        XCTAssertEqual(RowList.describe((1...20).map { String($0 * 2) }, limit: 3), "its rows are 2, 4, 6, …")
    }

    func testRowErrorListsTheRows() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.state]) { settings in
            settings.lastListing = LastListing(command: "rank x", savedAt: "", rows: ["4", "16"].map { LastListing.Row(row: $0, product: Product(productId: "1234567\($0)", title: "t")) })
        }
        let run = await home.run(["like", "5"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("its rows are 4, 16"), run.stderr)
    }

    func testNumbersAreGroupedInMessagesAndHelp() async {
        let run = await Home().run(["search", "방충망", "--page", "51"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("at result 1,001, past the API's limit of 1,000"), run.stderr)
        let rank = await Home().run(["help", "rank"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(rank.stdout.contains("(default 1,000)"), rank.stdout)
    }

    func testHistoryTableShowsLocalTimeAndJSONKeepsUTC() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.state]) { $0.history = [HistoryEntry(query: "방충망", at: "2026-12-01T09:30:00Z")] }
        let local = Timestamp.local(Date(timeIntervalSince1970: 1_796_117_400)).prefix(16)  // 2026-12-01T09:30:00Z
        let table = await home.run(["history", "--format", "table"])
        XCTAssertTrue(table.stdout.contains("  \(local)  방충망"), "local time for people: \(table.stdout)")
        XCTAssertFalse(table.stdout.contains("T09:30:00Z"))
        let json = await home.run(["history", "--json"])
        XCTAssertTrue(json.stdout.contains("\"at\": \"2026-12-01T09:30:00Z\""), json.stdout)
        XCTAssertEqual(LocalTime.display("not a time"), "not a time")
        XCTAssertEqual(LocalTime.parseUTC("2026-12-01T09:30:00Z")?.timeIntervalSince1970, 1_796_117_400)
    }

    func testStatusWithoutAProbeSaysPathOK() async throws {
        let run = await Home().run(["status", "--no-probe"])
        XCTAssertFalse(run.stdout.hasPrefix("online"), "without a probe, online is not known: \(run.stdout)")
        XCTAssertTrue(run.stdout.hasPrefix("path ok") || run.stdout.hasPrefix("offline"), run.stdout)
        XCTAssertEqual(run.code, run.stdout.hasPrefix("path ok") ? 0 : 69)
        let help = await Home().run(["help", "status"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(help.stdout.contains("Exit status 0 when online or path ok"), help.stdout)
    }

    func testHelpTellsTheTruth() async {
        let rank = await Home().run(["help", "rank"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(rank.stdout.contains("Give up a request after this many seconds"), "rank's --timeout is per request, as docs/guide.md says")
        XCTAssertFalse(rank.stdout.contains("in all, retries included"))
        let popular = await Home().run(["help", "popular"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(popular.stdout.contains("Give up a request after"), popular.stdout)
        let search = await Home().run(["help", "search"], environment: ["COLUMNS": "300"])
        XCTAssertFalse(search.stdout.contains("reaches rank 1,099") || search.stdout.contains("start 1000, size 100"), "--page/--size cannot reach rank 1,099: the claim is gone")
        XCTAssertTrue(search.stdout.contains("Pages reach result 1,000 at most"), search.stdout)
    }

    func testLikesExportRefusesToReplaceAFileWithoutForce() async throws {
        let home = Home()
        _ = await home.run(["search", "방충망", "--size", "2"])
        _ = await home.run(["like", "1"])
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let file = home.path + "/backup.json"
        try "precious".write(toFile: file, atomically: true, encoding: .utf8)
        var run = await home.run(["likes", "export", file])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("exists; nothing was written"), run.stderr)
        XCTAssertTrue(run.stderr.contains("--force"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "precious")
        run = await home.run(["likes", "export", file, "--force"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("\"likes\""))
        // An empty file holds nothing to lose.
        let empty = home.path + "/empty.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        run = await home.run(["likes", "export", empty])
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    func testDNSFailureHasAHint() {
        let error = SourceError.unreachable(host: "api.example.invalid", reason: .dns)
        XCTAssertTrue(error.hint?.contains("DNS") ?? false)
        XCTAssertTrue(error.hint?.contains("SHOPY_API_BASE") ?? false)
        XCTAssertNil(SourceError.unreachable(host: "x", reason: .noAnswer).hint)
    }

    func testDoctorNamesTheFileOnce() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        try "{\"schema\":1,".write(toFile: home.path + "/likes.json", atomically: true, encoding: .utf8)
        let run = await home.run(["doctor"])
        XCTAssertEqual(run.code, 65)
        let line = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains("likes.json") })
        XCTAssertEqual(line.components(separatedBy: "likes.json").count, 2, "the path once: \(line)")
        XCTAssertTrue(line.contains("damaged: it is not valid JSON"), String(line))
    }

    func testTopLevelOptionDidYouMean() async {
        let run = await Home().run(["--verison"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, "shopy: unknown option '--verison'\nhint: did you mean '--version'?\n")
    }

    func testXCTestSummaryScript() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/xctest-summary.sh").path
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("xctest-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        try """
            Test Case 'A.testOne' passed (0.1 seconds)
            Test Case 'A.testTwo' skipped (0.0 seconds)
            \t Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.1 (0.1) seconds
            ✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, log, "0"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(text, "ci: XCTest: Executed 2 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.1 (0.1) seconds; 1 skipped, 0 failed test cases; swift test exit status 0\n")
    }
}
