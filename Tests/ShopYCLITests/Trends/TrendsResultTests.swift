// `trends` as execute → typed result → presenter: the results in process (no printing), the
// presenters in each format, the shared TrendsService with its diagnostics.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase

final class TrendsResultTests: XCTestCase {
    typealias F = TrendsFixture
    let range = ["--from", "2026-09-01", "--to", "2026-09-30", "--unit", "month"]

    func parsed<C: Command>(_ type: C.Type, _ arguments: [String]) throws -> C {
        try C(ArgumentParser.parse(arguments, for: C.spec, commandPath: "trends " + C.spec.name))
    }

    func context(_ environment: [String: String], transport: any HTTPTransport, network: any NetworkProvider = FakeNetwork(online: true),
                 verbose: Bool = false) -> (Context, CollectedDiagnostics) {
        let io = IO.capture(environment: environment, now: { F.now })
        var context = Context(io: io, verbose: verbose, transport: transport,
                              store: SettingsStore(directory: NSTemporaryDirectory() + "shopy-trends-\(UUID().uuidString)"), network: network)
        let collected = CollectedDiagnostics()
        context.diagnosticsSink = collected
        return (context, collected)
    }

    func testCategoriesExecuteReturnsTheComparisonWithoutPrinting() async throws {
        let server = try startDataLab()
        let transport = RecordingTransport()
        let (context, collected) = context(F.apiHub(server), transport: transport)
        let command = try parsed(TrendsCategoriesCommand.self, ["패션의류", "화장품/미용"] + range)
        guard case .comparison(let result) = try await command.execute(context) else { return XCTFail("not a comparison") }
        XCTAssertEqual(result.comparison.kind, .categories)
        XCTAssertEqual(result.rows.compactMap(\.series.code).sorted(), ["50000000", "50000002"])
        XCTAssertEqual(result.requests, 1)
        XCTAssertEqual(transport.requests.count, 1)
        XCTAssertEqual(result.rows.flatMap(\.values).max(), 100)
        XCTAssertEqual(context.io.stdout.text, "", "execute prints nothing")
        XCTAssertEqual(context.io.stderr.text, "")
        XCTAssertTrue(collected.all.isEmpty)
        // The presenter renders that very result: the CLI's output is the two in a row.
        XCTAssertEqual(TrendsPresenter(format: .tsv).present(result, context: context), .ok)
        let run = await F.run(["categories", "패션의류", "화장품/미용", "--format", "tsv"] + range, environment: F.apiHub(server), transport: RecordingTransport())
        XCTAssertEqual(context.io.stdout.text, run.stdout)
    }

    func testKeywordsExecuteReturnsTheResult() async throws {
        let server = try startDataLab()
        let (context, _) = context(F.apiHub(server), transport: RecordingTransport())
        let command = try parsed(TrendsKeywordsCommand.self, ["원피스", "청바지", "--category", "패션의류"] + range)
        let result = try await command.execute(context)
        XCTAssertEqual(result.comparison.kind, .keywords)
        XCTAssertEqual(Set(result.rows.map(\.series.name)), ["원피스", "청바지"])
        XCTAssertEqual(context.io.stdout.text, "")
        let json = TrendsPresenter(format: .json)
        _ = json.present(result, context: context)
        XCTAssertEqual(try JSONParser.parse(context.io.stdout.text)["kind"]?.stringValue, "keywords")
    }

    func testOneSeriesIsOneCategoryInTheTrace() async throws {
        let server = try startDataLab()
        let (context, _) = context(F.apiHub(server), transport: RecordingTransport(), verbose: true)
        _ = try await parsed(TrendsCategoriesCommand.self, ["패션의류"] + range).execute(context)
        XCTAssertTrue(context.io.stderr.text.contains("trends: 1 category in 1 request"), context.io.stderr.text)
        XCTAssertFalse(context.io.stderr.text.contains("1 categories"))
        let (keywords, _) = self.context(F.apiHub(server), transport: RecordingTransport(), verbose: true)
        _ = try await parsed(TrendsKeywordsCommand.self, ["원피스", "--category", "패션의류"] + range).execute(keywords)
        XCTAssertTrue(keywords.io.stderr.text.contains("trends: 1 keyword in 1 request"), keywords.io.stderr.text)
    }

    // MARK: - --list

    func testListWithoutAMatchIsAnEmptyResultNotAnError() async throws {
        let (context, collected) = context([:], transport: NoNetworkTransport())
        let command = try parsed(TrendsCategoriesCommand.self, ["--list", "zzzz"])
        guard case .matches(let matches) = try await command.execute(context) else { return XCTFail("not matches") }
        XCTAssertEqual(matches.word, "zzzz")
        XCTAssertTrue(matches.categories.isEmpty)
        for (format, stdout, notice) in [(OutputFormat.json, "[]\n", true), (.jsonl, "", true), (.tsv, "", true), (.csv, "code,path\r\n", true),
                                         (.table, "no category matches 'zzzz'\n", false)] {
            let (context, collected) = self.context([:], transport: NoNetworkTransport())
            XCTAssertEqual(CategoryMatchesPresenter(format: format).present(matches, context: context), .ok, "\(format)")
            XCTAssertEqual(context.io.stdout.text, stdout, "\(format)")
            XCTAssertEqual(collected.messages(.notice), notice ? ["no category matches 'zzzz'"] : [], "\(format)")
        }
        XCTAssertTrue(collected.all.isEmpty)
        let io = IO.capture(environment: [:], now: { F.now })
        let code = await ShopY.main(["trends", "categories", "--list", "zzzz", "--json", "--quiet"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 0)
        XCTAssertEqual(io.stdout.text, "[]\n")
        XCTAssertEqual(io.stderr.text, "", "the notice is left out with --quiet")
        let loud = await F.run(["categories", "--list", "zzzz", "--json"], environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(loud.stderr, "shopy: no category matches 'zzzz'\n")
    }

    func testListWithMatchesIsTyped() async throws {
        let (context, _) = context([:], transport: NoNetworkTransport())
        guard case .matches(let matches) = try await parsed(TrendsCategoriesCommand.self, ["--list", "러닝화"]).execute(context) else { return XCTFail() }
        XCTAssertEqual(matches.categories.map(\.code), ["50003854", "50003835"])
    }

    // MARK: - Validation in init

    func testRepeatedAgesAreRefusedInInit() {
        for (ages, repeated) in [("10,10", "10"), ("20,30,20s", "20"), ("60, 60", "60")] {
            XCTAssertThrowsError(try parsed(TrendsCategoriesCommand.self, ["패션의류", "--ages", ages])) { error in
                let usage = error as? UsageError
                XCTAssertNotNil(usage)
                XCTAssertTrue(usage?.message.contains("\(repeated) is given twice") == true, "\(String(describing: usage?.message))")
            }
        }
        XCTAssertNoThrow(try parsed(TrendsCategoriesCommand.self, ["패션의류", "--ages", "10,20,30"]))
    }

    func testRepeatedAgesExit64() async {
        let run = await F.run(["categories", "패션의류", "--ages", "10,10"], environment: [:], transport: NoNetworkTransport())
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("shopy: invalid --ages '10,10': 10 is given twice"), run.stderr)
    }

    // MARK: - The service

    func testUnplacedSeriesAreOneWarningThroughTheSink() async throws {
        let environment = ["NAVER_API_HUB_KEY_ID": "i", "NAVER_API_HUB_KEY": "k", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9"]
        let (context, collected) = context(environment, transport: HugeKeywordDataLab())
        let result = try await parsed(TrendsKeywordsCommand.self, ["a", "b", "c", "d", "e", "huge", "--category", "1"] + range).execute(context)
        XCTAssertEqual(result.unplaced.map(\.name), ["huge"])
        XCTAssertEqual(collected.messages(.warning), ["cannot put 'huge' on the common scale: no series shared with their answer had clicks; left out"])
        XCTAssertEqual(context.io.stderr.text, "", "diagnostics go to the sink, not stderr")
        let run = await F.run(["keywords", "a", "b", "c", "d", "e", "huge", "--category", "1", "--format", "tsv"] + range,
                              environment: environment, transport: HugeKeywordDataLab())
        XCTAssertTrue(run.stderr.contains("shopy: warning: cannot put 'huge' on the common scale"), run.stderr)
    }

    // MARK: - Sparklines

    func testSparklineFloorForNoClicksMidHeightForAFlatRowWithClicks() {
        XCTAssertEqual(TrendsTable.sparkline([0, 0, 0], width: 8), "▁▁▁")
        XCTAssertEqual(TrendsTable.sparkline([7, 7, 7], width: 8), "▄▄▄")
        XCTAssertEqual(TrendsTable.sparkline(Array(repeating: 0, count: 30), width: 10), String(repeating: "▁", count: 10))
        XCTAssertEqual(TrendsTable.sparkline([0, 100], width: 8), "▁█")
    }

    func testSparklineAndNumbers() {
        XCTAssertEqual(TrendsTable.sparkline([0, 25, 50, 100], width: 10), "▁▃▅█")
        XCTAssertEqual(TrendsTable.sparkline(Array(repeating: 1, count: 100), width: 8).count, 8, "down-sampled to the width")
        XCTAssertEqual(TrendsTable.sparkline([0, 0], width: 8), "▁▁", "no clicks: on the floor")
        XCTAssertEqual(TrendsTable.sparkline([40, 40], width: 8), "▄▄", "flat with clicks: mid height, unlike no clicks")
        XCTAssertEqual(TrendsTable.sparkline([90, 95, 100], width: 8), "▁▅█", "from the row's lowest to its highest")
        XCTAssertEqual(TrendsTable.sparkline([0, 0, 100, 100], width: 2), "▁█", "periods averaged to fit")
        XCTAssertEqual(TrendsOutput.decimal(100), "100")
        XCTAssertEqual(TrendsOutput.decimal(84.012524), "84.01252")
        XCTAssertEqual(TrendsOutput.decimal(0.000001), "0")
    }
}
