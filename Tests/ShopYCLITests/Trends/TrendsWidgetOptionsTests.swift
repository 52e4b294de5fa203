// Tests for the typed options of Sources/ShopYCLI/Trends, Widget and Browse/BrowseCommand.swift:
// each option read through its declaration, the formats each command declares (help,
// completions, what it accepts), the rules moved into the declarations, and the dispatcher
// refusing a mistyped subcommand at every level (the inits no longer check it).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
import ShopYTestSupport

final class TrendsWidgetOptionsTests: XCTestCase {
    func parse<C: Command>(_ type: C.Type, _ arguments: [String], path: String) throws -> C {
        try C(ArgumentParser.parse(arguments, for: C.spec, commandPath: path))
    }

    func usageError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> UsageError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch {
            guard let usage = error as? UsageError else { XCTFail("\(error)", file: file, line: line); return nil }
            return usage
        }
    }

    func values(_ words: [String]) -> [String] {
        let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: nil)
        guard case .candidates(let found) = completer.complete(words) else { return [] }
        return found.map(\.value)
    }

    // MARK: Subcommands: the dispatcher refuses the word, at every level

    func testAMistypedSubcommandIsRefusedByTheDispatcherAtEveryLevel() async {
        for (arguments, stderr) in [
            (["widgte"], "shopy: unknown command 'widgte'\nhint: did you mean 'widget'?\n"),
            (["trendz"], "shopy: unknown command 'trendz'\nhint: did you mean 'trends'?\n"),
            (["widget", "confgure"], "shopy: unknown subcommand 'widget confgure'\nhint: did you mean 'shopy widget configure'?\n"),
            (["widget", "--format", "waybar", "timelin"], "shopy: unknown subcommand 'widget timelin'\nhint: did you mean 'shopy widget timeline'?\n"),
            (["widget", "zzzzzzzz"], "shopy: unknown subcommand 'widget zzzzzzzz'\nhint: subcommands: options, configure, timeline, refresh, open, install\n"),
            (["trends", "keywrods", "x"], "shopy: unknown subcommand 'trends keywrods'\nhint: did you mean 'shopy trends keywords'?\n"),
            (["trends", "zzzzzzzz"], "shopy: unknown subcommand 'trends zzzzzzzz'\nhint: subcommands: categories, keywords\n"),
            // Below them, the leaves say what they take.
            (["widget", "configure", "extra"], "shopy: widget configure takes no arguments\nhint: choose with --show, e.g. shopy widget configure --show status,likes\n"),
            (["widget", "timeline", "x"], "shopy: widget timeline takes no arguments\n"),
            (["widget", "options", "x"], "shopy: widget options takes no arguments\n"),
            (["widget", "refresh", "x"], "shopy: widget refresh takes no arguments\n"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr, stderr, "\(arguments)")
            XCTAssertEqual(run.stdout, "", "\(arguments)")
        }
        let bare = await Shell.run(["trends"])
        XCTAssertEqual(bare.stderr, "shopy: trends needs a subcommand: categories or keywords\nhint: e.g. shopy trends categories; see 'shopy help trends'\n")
    }

    /// The message above comes from the dispatcher: the inits no longer look at the words.
    func testTheInitsNoLongerCheckTheSubcommandWord() throws {
        let error = usageError { _ = try self.parse(TrendsCommand.self, ["categoriez"], path: "trends") }
        XCTAssertEqual(error?.message, "trends needs a subcommand: categories or keywords")
        let widget = try parse(WidgetCommand.self, ["confgure"], path: "widget")
        XCTAssertEqual(widget.format, .plain)
        for file in ["Trends/TrendsCommand.swift", "Widget/WidgetCommand.swift"] {
            let root = Repository.root()
            let text = try String(contentsOf: root.appendingPathComponent("Sources/ShopYCLI/" + file), encoding: .utf8)
            XCTAssertFalse(text.contains("unknown subcommand"), file)
        }
    }

    // MARK: Formats each command declares

    func testTheWidgetListsAndAcceptsExactlyItsFormats() async {
        let names = WidgetFormat.allCases.map(\.rawValue)
        let help = await Shell.run(["help", "widget"], environment: ["COLUMNS": "200"])
        XCTAssertTrue(help.stdout.contains("--format <format>       plain (default), json, waybar, i3blocks, polybar, tmux or swiftbar.\n"), help.stdout)
        XCTAssertFalse(help.stdout.contains("--json"), "the widget has --format json, no --json")
        XCTAssertEqual(values(["widget", "--format", ""]), names)
        for format in names {
            let run = await Shell.run(["widget", "--placeholder", "--format", format])
            XCTAssertEqual(run.code, 0, "\(format): \(run.stderr)")
            XCTAssertFalse(run.stdout.isEmpty, format)
        }
        for (arguments, first) in [
            (["widget", "--format", "csv"], "shopy: invalid --format 'csv'; valid values: \(names.joined(separator: ", "))"),
            (["widget", "--json"], "shopy: unknown option '--json' for 'shopy widget'"),
            (["widget", "--family", "large"], "shopy: invalid --family 'large'; valid values: small, medium"),
            (["widget", "--placeholder", "--snapshot"], "shopy: --placeholder and --snapshot disagree; give one of them"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init), first, "\(arguments)")
        }
    }

    func testTrendsListsAndAcceptsEveryListingFormat() async {
        let names = OutputFormat.allCases.map(\.rawValue)
        for sub in ["categories", "keywords"] {
            XCTAssertEqual(values(["trends", sub, "--format", ""]), names, sub)
            let help = await Shell.run(["help", "trends", sub], environment: ["COLUMNS": "200"])
            XCTAssertTrue(help.stdout.contains("Output: table (default on a terminal), tsv (default otherwise), csv, json or jsonl."), help.stdout)
            XCTAssertTrue(help.stdout.contains("--json "), help.stdout)
        }
        for format in names {
            let run = await Shell.run(["trends", "categories", "--list", "러닝화", "--format", format])
            XCTAssertEqual(run.code, 0, "\(format): \(run.stderr)")
            XCTAssertFalse(run.stdout.isEmpty, format)
        }
        let json = await Shell.run(["trends", "categories", "--list", "러닝화", "--json"])
        XCTAssertEqual(json.code, 0, json.stderr)
        XCTAssertTrue(json.stdout.hasPrefix("["), json.stdout)
    }

    // MARK: Rules of the value, in the declarations

    func testTrendsRulesLiveInTheDeclarations() throws {
        let spec = TrendsCategoriesCommand.spec
        func read<V>(_ option: Option<V>, _ arguments: [String]) throws -> V {
            try option.read(try ArgumentParser.parse(arguments, for: spec, commandPath: "trends categories"))
        }
        XCTAssertEqual(try read(TrendsOptions.agesOption, ["--ages", "30,10s"]), [.a10, .a30])
        XCTAssertEqual(try read(TrendsOptions.agesOption, []), [])
        var error = usageError { _ = try read(TrendsOptions.agesOption, ["--ages", "10,10"]) }
        XCTAssertEqual(error, UsageError("invalid --ages '10,10': 10 is given twice", hint: "give each age group once, e.g. --ages 20,30"))
        error = usageError { _ = try read(TrendsOptions.agesOption, ["--ages", "10,70"]) }
        XCTAssertEqual(error?.message, "invalid --ages '10,70': each age group is one of 10, 20, 30, 40, 50, 60")
        XCTAssertEqual(try read(TrendsOptions.lastOption, ["--last", "6M"]), .months(6))
        error = usageError { _ = try read(TrendsOptions.lastOption, ["--last", "6y"]) }
        XCTAssertEqual(error?.message, "invalid --last '6y': expected a number and d, w or m (days, weeks, months)")
        XCTAssertEqual(try read(TrendsOptions.fromOption, ["--from", "2026-09-01"]), CalendarDate("2026-09-01"))
        error = usageError { _ = try read(TrendsOptions.toOption, ["--to", "2026-02-30"]) }
        XCTAssertEqual(error?.message, "invalid --to '2026-02-30': expected a real calendar date as yyyy-mm-dd")
        XCTAssertEqual(try read(TrendsOptions.unitOption, []), .week)
        XCTAssertEqual(try read(TrendsOptions.deviceOption, ["--device", "MO"]), .mo)
        XCTAssertEqual(TrendsOptions.byOption.spec.choices, ["device", "gender", "age"])
        // --category is looked up when read.
        let keywords = TrendsKeywordsCommand.spec
        let category = try TrendsKeywordsCommand.categoryOption.read(try ArgumentParser.parse(["--category", "50000000"], for: keywords, commandPath: "k"))
        XCTAssertEqual(category?.code, "50000000")
    }

    func testTheRulesSayTheSameOnTheCommandLine() async {
        for (arguments, first) in [
            (["trends", "categories", "패션의류", "--ages", "10,10"], "shopy: invalid --ages '10,10': 10 is given twice"),
            (["trends", "categories", "패션의류", "--ages", "10", "--ages", "20"], "shopy: option '--ages' is given more than once"),
            (["trends", "keywords", "원피스"], "shopy: trends keywords needs --category: keywords are compared inside one category"),
            (["trends", "keywords", "원피스", "--category", "없는카테고리zz"], "shopy: unknown category '없는카테고리zz'"),
            (["trends", "keywords", "원피스", "--category", "패션의류", "--unit", "year"], "shopy: invalid --unit 'year'; valid values: date, week, month"),
            (["trends", "categories", "--by", "device", "--device", "pc", "패션의류"], "shopy: --by device splits by device already; --device would leave one group"),
            (["widget", "open", "1", "--name", ".hidden"], "shopy: invalid --name '.hidden'"),
            (["widget", "configure", "--policy", "sometimes"], "shopy: invalid --policy 'sometimes'"),
            (["widget", "configure", "--show", " , "], "shopy: --show needs option ids"),
            (["browse", "--size", "0"], "shopy: invalid --size 0: must be from 1 to 100"),
            (["browse", "--sort", "cheap"], "shopy: invalid --sort 'cheap'; valid values: sim, date, asc, dsc"),
            (["browse", "--source", "nope"], "shopy: invalid --source 'nope'; valid values: naver, 11st, coupang, catalog, all, or a comma list of sources"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init), first, "\(arguments)")
        }
    }

    func testWidgetNameAndPolicyAreCheckedWhenRead() throws {
        let configure = try parse(WidgetConfigureCommand.self, ["--name", "bar2", "--show", "status, likes", "--show", "popular:고양이", "--policy", "after:15m"],
                                  path: "widget configure")
        XCTAssertEqual(configure.name, "bar2")
        XCTAssertEqual(configure.show, ["status", "likes", "popular:고양이"])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(configure.policy?.at(now), .after(now.addingTimeInterval(900)), "a duration counts from when the command runs")
        let plain = try parse(WidgetConfigureCommand.self, [], path: "widget configure")
        XCTAssertNil(plain.show)
        XCTAssertNil(plain.policy)
        XCTAssertEqual(plain.name, WidgetConfiguration.defaultName)
        let error = usageError { _ = try self.parse(WidgetConfigureCommand.self, ["--policy", "after:0m"], path: "widget configure") }
        XCTAssertEqual(error, UsageError("invalid --policy 'after:0m'", hint: "atEnd, never, after:15m, after:2h or after:2026-12-01T18:00:00Z"))
        let refresh = try parse(WidgetRefreshCommand.self, ["--background", "--name", "b"], path: "widget refresh")
        XCTAssertEqual(refresh.name, "b")
        XCTAssertTrue(refresh.flag)
        let timeline = try parse(WidgetTimelineCommand.self, ["--json"], path: "widget timeline")
        XCTAssertTrue(timeline.flag)
        XCTAssertEqual(WidgetOptionsCommand.spec.options.map(\.name).prefix(2), ["name", "json"])
    }

    func testBrowseUsesSearchsDeclarations() throws {
        let browse = try parse(BrowseCommand.self, ["고양이", "--sort", "asc", "--size", "5", "--source", "catalog"], path: "browse")
        XCTAssertEqual(browse.query, "고양이")
        XCTAssertEqual(browse.sort, .asc)
        XCTAssertEqual(browse.size, 5)
        XCTAssertEqual(browse.source, .catalog)
        let defaults = try parse(BrowseCommand.self, [], path: "browse")
        XCTAssertNil(defaults.query)
        XCTAssertEqual(defaults.sort, .sim)
        XCTAssertEqual(defaults.size, 20)
        XCTAssertEqual(BrowseCommand.sizeOption.spec.help, SearchCommand.size.spec.help)
        XCTAssertEqual(BrowseCommand.sortOption.spec.choices, SearchCommand.sort.spec.choices)
        XCTAssertEqual(defaults.timeout, 10, "each load gives up after 10 s unless told")
        XCTAssertEqual(try parse(BrowseCommand.self, ["--timeout", "2.5"], path: "browse").timeout, 2.5)
        XCTAssertNotNil(usageError { _ = try parse(BrowseCommand.self, ["--timeout", "0"], path: "browse") })
        XCTAssertTrue(ConfigKey.all.first { $0.name == "timeout" }!.applies(to: "browse"), "the timeout config and SHOPY_TIMEOUT reach browse")
    }

    private func date(_ text: String) -> CalendarDate { CalendarDate(text)! }

    func testDefaultRangeIsTwelveCompleteWeeksUpToYesterday() throws {
        let options = try TrendsOptions(ArgumentParser.parse([], for: TrendsKeywordsCommand.spec, commandPath: "trends keywords"))
        let range = try options.range(today: date("2026-12-01"))
        XCTAssertEqual(range.end, date("2026-11-29"), "the last Sunday before today")
        XCTAssertEqual(range.start, date("2026-09-07"))
        XCTAssertEqual(range.periods.count, 12)
        let byDay = try TrendsOptions(ArgumentParser.parse(["--unit", "date", "--last", "7d"], for: TrendsKeywordsCommand.spec, commandPath: "t"))
        XCTAssertEqual(try byDay.range(today: date("2026-12-01")), TrendsRange(start: date("2026-11-24"), end: date("2026-11-30"), unit: .date))
        let byMonth = try TrendsOptions(ArgumentParser.parse(["--unit", "month"], for: TrendsKeywordsCommand.spec, commandPath: "t"))
        XCTAssertEqual(try byMonth.range(today: date("2026-12-15")), TrendsRange(start: date("2026-09-01"), end: date("2026-11-30"), unit: .month))
    }
}
