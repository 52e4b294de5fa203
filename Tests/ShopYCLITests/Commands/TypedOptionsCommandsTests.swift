// Tests for the last commands converted to typed options (popular, rank, like/unlike/open/copy,
// likes and its subcommands, catalog): the formats each accepts, `--id` declared once, the
// dispatcher refusing unknown subcommands of likes and catalog, SHOPY_SOURCE reaching
// `likes refresh`, and did-you-mean bounded in `Suggest.closest` itself.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class TypedOptionsCommandsTests: XCTestCase {
    // MARK: Formats

    func testLikesAlertsAndRefreshListAndAcceptOnlyTheirFormats() async {
        for (path, valid) in [(["likes", "alerts"], "table, json"), (["likes", "refresh"], "table, json, jsonl")] {
            for format in ["tsv", "csv"] + (valid.contains("jsonl") ? [] : ["jsonl"]) {
                let run = await Shell.run(path + ["--format", format])
                XCTAssertEqual(run.code, 64, "\(path) \(format)")
                XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init),
                               "shopy: invalid --format '\(format)'; valid values: \(valid)", "\(path)")
            }
            let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: nil)
            guard case .candidates(let values) = completer.complete(path + ["--format", ""]) else { return XCTFail("\(path)") }
            XCTAssertEqual(values.map(\.value).joined(separator: ", "), valid, "\(path)")
        }
        let alerts = await Shell.run(["likes", "alerts", "--format", "json"])
        XCTAssertEqual(alerts.code, 0, alerts.stderr)
        XCTAssertTrue(alerts.stdout.contains("\"count\" : 0") || alerts.stdout.contains("\"count\": 0"), alerts.stdout)
        // A configured listing format these commands do not have is not their default.
        for path in [["likes", "alerts"], ["likes", "refresh"]] {
            let run = await Shell.run(path, environment: ["SHOPY_FORMAT": "csv"])
            XCTAssertEqual(run.code, 0, "\(path): \(run.stderr)")
        }
        // …while one they have still is.
        let json = await Shell.run(["likes", "alerts"], environment: ["SHOPY_FORMAT": "json"])
        XCTAssertTrue(json.stdout.hasPrefix("{"), json.stdout)
    }

    func testListingCommandsTakeEveryListingFormat() {
        for type in [PopularCommand.self, RankCommand.self, LikesCommand.self] as [any Command.Type] {
            let format = type.spec.options.first { $0.name == "format" }
            XCTAssertEqual(format?.choices, OutputFormat.allCases.map(\.rawValue), "\(type)")
            XCTAssertNotNil(type.spec.options.first { $0.name == "json" }, "\(type)")
        }
        // catalog's summary has the formats that fit it (no jsonl: it is one document).
        XCTAssertEqual(CatalogCommand.spec.options.first { $0.name == "format" }?.choices, ["table", "tsv", "csv", "json"])
        XCTAssertEqual(CatalogCommand.spec.options.first { $0.name == "json" }?.help, "Same as --format json.")
    }

    // MARK: Shared declarations

    func testIDAndRateAndRequestTimeoutAreDeclaredOnce() throws {
        for type in [LikeCommand.self, UnlikeCommand.self, OpenCommand.self, CopyCommand.self, LikesRefreshCommand.self, LikesAlertCommand.self] as [any Command.Type] {
            let id = try XCTUnwrap(type.spec.options.first { $0.name == "id" }, "\(type)")
            XCTAssertTrue(id.isFlag)
        }
        let rank = try ArgumentParser.parse(["x", "--mall", "m", "--rate", "2.5", "--timeout", "3"],
                                            for: RankCommand.spec, commandPath: "rank")
        let command = try RankCommand(rank)
        XCTAssertEqual(command.rate, 2.5)
        XCTAssertEqual(command.timeout, 3)
        for spec in [RankCommand.spec, LikesRefreshCommand.spec] {
            XCTAssertThrowsError(try { () throws in
                let parsed = try ArgumentParser.parse(["--rate", "0"], for: spec, commandPath: spec.name)
                _ = try SharedOptions.rate.read(parsed)
            }()) { error in
                XCTAssertEqual((error as? UsageError)?.message, "invalid --rate 0: expected requests a second as a decimal number from 0.1 to 100")
            }
        }
        XCTAssertEqual(PopularCommand.spec.options.first { $0.name == "timeout" }?.help, SharedOptions.requestTimeout.spec.help)
        XCTAssertEqual(RankCommand.spec.options.first { $0.name == "timeout" }?.help, SharedOptions.requestTimeout.spec.help)
    }

    func testValueRulesLiveInTheDeclarations() async {
        for (arguments, message) in [
            (["rank", "x", "--mall", " "], "shopy: --mall is empty"),
            (["popular", "--section", " "], "shopy: a --section keyword is empty"),
            (["likes", "alert", "1", "--below", "12,000원x"], "shopy: invalid --below '12,000원x': expected a price in won from 1 to 2,147,483,647, as 12000, 12,000 or 12,000원"),
            (["likes", "alert", "1", "--drop", "100%"], "shopy: invalid --drop 100: must be from 1 to 99"),
            (["likes", "refresh", "--depth", "0"], "shopy: invalid --depth 0: must be from 1 to 1099"),
            (["likes", "--sort", "chnage"], "shopy: invalid --sort 'chnage'; valid values: recent, price, title, change"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }

    // MARK: Unknown subcommands: the dispatcher's, at each level

    func testTheDispatcherRefusesUnknownSubcommandsOfLikesAndCatalog() async {
        for (arguments, expected) in [
            (["likes", "refrsh"], "shopy: unknown subcommand 'likes refrsh'\nhint: did you mean 'shopy likes refresh'?\n"),
            (["likes", "zzzzzz"], "shopy: unknown subcommand 'likes zzzzzz'\nhint: subcommands: export, import, clear, refresh, alert, alerts\n"),
            (["catalog", "imprt"], "shopy: unknown subcommand 'catalog imprt'\nhint: did you mean 'shopy catalog import'?\n"),
            (["catalog", "zzzzzz", "--json"], "shopy: unknown subcommand 'catalog zzzzzz'\nhint: subcommands: import, export, remove, clear\n"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr, expected, "\(arguments)")
            XCTAssertEqual(run.stdout, "")
        }
        // The commands themselves no longer look at the word: the dispatcher is the one check.
        for (type, path) in [(LikesCommand.self, "likes"), (CatalogCommand.self, "catalog")] as [(any Command.Type, String)] {
            var parsed = ParsedArguments()
            parsed.positionals = ["anything"]
            XCTAssertNoThrow(try type.init(parsed), path)
            XCTAssertNotNil(CommandTree.unknownSubcommand(type, path: path, parsed: parsed), path)
        }
    }

    func testAHugeUnknownSubcommandIsRefusedWithoutASuggestion() async {
        let word = String(repeating: "refresh", count: 15_000)
        let run = await Shell.run(["likes", word])
        XCTAssertEqual(run.code, 64)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, run.stderr.prefix(300).description)
        XCTAssertTrue(lines[0].hasPrefix("shopy: unknown subcommand 'likes refresh"), String(lines[0]))
        XCTAssertLessThan(lines[0].utf8.count, 120)
        XCTAssertEqual(lines[1], "hint: subcommands: export, import, clear, refresh, alert, alerts")
    }

    // MARK: Config reaching likes refresh

    func testSourceSettingReachesLikesRefresh() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-refresh-source-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let keys = ["SHOPY_HOME": home.path, "NAVER_CLIENT_ID": "test-id", "NAVER_CLIENT_SECRET": "test-secret"]
        func source(_ run: CLIRun) throws -> String? {
            XCTAssertEqual(run.code, 0, run.stderr)
            guard case .object(let o) = try JSONParser.parse(Array(run.stdout.utf8)) else { return nil }
            return o["source"]?.stringValue
        }
        func refresh(_ extra: [String] = [], _ environment: [String: String]) async throws -> String? {
            try source(await Shell.run(["likes", "refresh", "--json"] + extra, environment: environment))
        }
        var found = try await refresh([], keys)
        XCTAssertEqual(found, "naver", "keys set: naver by default")
        var environment = keys
        environment["SHOPY_SOURCE"] = "catalog"
        found = try await refresh([], environment)
        XCTAssertEqual(found, "catalog")
        found = try await refresh(["--source", "naver"], environment)
        XCTAssertEqual(found, "naver", "the command line beats the environment")
        let set = await Shell.run(["config", "set", "source", "catalog"], environment: keys)
        XCTAssertEqual(set.code, 0, set.stderr)
        found = try await refresh([], keys)
        XCTAssertEqual(found, "catalog", "the config's source")
        // A refused value stops the command that would use it.
        environment["SHOPY_SOURCE"] = "nowhere"
        let refused = await Shell.run(["likes", "refresh"], environment: environment)
        XCTAssertEqual(refused.code, 64)
        XCTAssertTrue(refused.stderr.hasPrefix("shopy: invalid SHOPY_SOURCE value 'nowhere' for source"), refused.stderr)
        XCTAssertTrue(try XCTUnwrap(ConfigKey.all.first { $0.name == "source" }).applies(to: "likes refresh"))
        XCTAssertFalse(try XCTUnwrap(ConfigKey.all.first { $0.name == "source" }).applies(to: "likes alerts"))
    }
}
