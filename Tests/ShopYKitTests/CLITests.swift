// Tests for Sources/ShopYCLI/CLI (ArgumentParser, Suggest, Help, ShopY.main in process) and the
// request side of HTTP/NaverClient.swift (RequestBuilder, RetryPolicy).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// What one in-process run of `shopy` produced.
struct CLIRun {
    var code: Int32
    var stdout: String
    var stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A transport that must never be used: the tests here run offline.
struct NoNetworkTransport: HTTPTransport {
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        XCTFail("unexpected network request to \(request.url)")
        throw .refused
    }
}

enum Shell {
    /// Runs `shopy` in process. Unless the test sets SHOPY_HOME, the run gets a fresh, empty
    /// store in a temporary directory (removed afterwards), so that tests never touch the real
    /// ~/.local/share/shopy and never see each other's likes or history.
    static func run(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) async -> CLIRun {
        var environment = environment
        var scratch: URL?
        if environment["SHOPY_HOME"] == nil {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-unit-\(UUID().uuidString)")
            environment["SHOPY_HOME"] = dir.path
            scratch = dir
        }
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let io = IO.capture(environment: environment, stdoutIsTerminal: terminal)
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }
}

final class CLITests: XCTestCase {

    // MARK: - Helpers

    private let spec = SearchCommand.spec

    private func parse(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> ParsedArguments? {
        do {
            return try ArgumentParser.parse(arguments, for: spec, commandPath: "search")
        } catch {
            XCTFail("parse(\(arguments)) threw \(error)", file: file, line: line)
            return nil
        }
    }

    private func usageError(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> UsageError? {
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(arguments, for: spec, commandPath: "search")
            XCTFail("parse(\(arguments)) should fail, gave \(parsed)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// A usage-style failure: the exit code, nothing on stdout, one `shopy:` line and at most one
    /// `hint:` line on stderr. Returns (message, hint).
    @discardableResult
    private func assertFailure(_ run: CLIRun, code: Int32, file: StaticString = #filePath, line: UInt = #line) -> (String, String?) {
        XCTAssertEqual(run.code, code, "exit code; stderr: \(run.stderr)", file: file, line: line)
        XCTAssertEqual(run.stdout, "", "stdout must stay empty on errors", file: file, line: line)
        XCTAssertTrue(run.stderr.hasSuffix("\n"), "stderr ends with a newline: \(run.stderr.debugDescription)", file: file, line: line)
        let lines = run.stderrLines
        XCTAssertTrue((1...2).contains(lines.count), "one error line and at most one hint: \(lines)", file: file, line: line)
        guard let first = lines.first else { return ("", nil) }
        XCTAssertTrue(first.hasPrefix("shopy: "), "first line: \(first)", file: file, line: line)
        var hint: String?
        if lines.count == 2 {
            XCTAssertTrue(lines[1].hasPrefix("hint: "), "second line: \(lines[1])", file: file, line: line)
            hint = String(lines[1].dropFirst("hint: ".count))
        }
        for text in lines { XCTAssertFalse(text.contains("\u{1B}"), "no colour when stderr is not a terminal", file: file, line: line) }
        return (String(first.dropFirst("shopy: ".count)), hint)
    }

    // MARK: - ArgumentParser

    func testOptionWithSeparateValue() throws {
        let parsed = try XCTUnwrap(parse(["방충망", "--sort", "asc", "자석", "--size", "5"]))
        XCTAssertEqual(parsed.positionals, ["방충망", "자석"])
        XCTAssertEqual(parsed.values["sort"]?.last, "asc")
        XCTAssertEqual(parsed.values["size"]?.last, "5")
        XCTAssertNil(parsed.values["page"]?.last)
        XCTAssertFalse(parsed.wantsHelp)
        XCTAssertFalse(parsed.verbose)
    }

    func testOptionWithEqualsValue() throws {
        let parsed = try XCTUnwrap(parse(["--sort=dsc", "x", "--exclude=used,rental", "--format=", "--timeout=2.5"]))
        XCTAssertEqual(parsed.positionals, ["x"])
        XCTAssertEqual(parsed.values["sort"]?.last, "dsc")
        XCTAssertEqual(parsed.values["exclude"]?.last, "used,rental")
        XCTAssertEqual(parsed.values["format"]?.last, "", "--opt= gives an empty value")
        XCTAssertEqual(parsed.values["timeout"]?.last, "2.5")
        // A value that itself holds '=' keeps it.
        XCTAssertEqual(parse(["--sort=a=b"])?.values["sort"]?.last, "a=b")
        // A value may start with a dash when given separately.
        XCTAssertEqual(parse(["--sort", "-x"])?.values["sort"]?.last, "-x")
    }

    func testDoubleDashEndsOptions() throws {
        let parsed = try XCTUnwrap(parse(["a", "--", "--sort", "-h", "--", "-5"]))
        XCTAssertEqual(parsed.positionals, ["a", "--sort", "-h", "--", "-5"])
        XCTAssertNil(parsed.values["sort"]?.last)
        XCTAssertFalse(parsed.wantsHelp)
        XCTAssertEqual(parse(["-"])?.positionals, ["-"])
    }

    func testFlags() throws {
        XCTAssertTrue(try XCTUnwrap(parse(["-h"])).wantsHelp)
        XCTAssertTrue(try XCTUnwrap(parse(["x", "--help"])).wantsHelp)
        let parsed = try XCTUnwrap(parse(["-v", "x", "--json", "--naverpay"]))
        XCTAssertTrue(parsed.verbose)
        XCTAssertTrue(parsed.flags.contains("json"))
        XCTAssertTrue(parsed.flags.contains("naverpay"))
        XCTAssertNil(parsed.values["json"], "a flag has no value")
        XCTAssertNil(parsed.values["sort"])
        XCTAssertEqual(parsed.positionals, ["x"])
    }

    func testUnknownOptionWithDidYouMean() {
        let error = usageError(["x", "--srot", "asc"])
        XCTAssertEqual(error?.message, "unknown option '--srot' for 'shopy search'")
        XCTAssertEqual(error?.hint, "did you mean '--sort'?")
        XCTAssertEqual(usageError(["x", "--szie", "5"])?.hint, "did you mean '--size'?")
        XCTAssertEqual(usageError(["x", "--jsno"])?.hint, "did you mean '--json'?")
        XCTAssertEqual(usageError(["x", "--srot=asc"])?.hint, "did you mean '--sort'?")
        let far = usageError(["x", "--frobnicate"])
        XCTAssertEqual(far?.message, "unknown option '--frobnicate' for 'shopy search'")
        XCTAssertEqual(far?.hint, "see 'shopy help search'")
        XCTAssertNotNil(usageError(["x", "-x"]))
    }

    func testShortOptionErrors() {
        XCTAssertEqual(usageError(["-5"])?.message, "unexpected '-5'")
        XCTAssertEqual(usageError(["-5"])?.hint, "put -- before arguments that start with '-'")
        XCTAssertEqual(usageError(["-hv"])?.message, "unknown option '-hv'")
    }

    func testFlagGivenAValue() {
        XCTAssertEqual(usageError(["x", "--json=yes"])?.message, "option '--json' takes no value")
        XCTAssertEqual(usageError(["x", "--help=1"])?.message, "option '--help' takes no value")
        XCTAssertEqual(usageError(["x", "--naverpay="])?.message, "option '--naverpay' takes no value")
    }

    func testMissingValue() {
        let error = usageError(["x", "--sort"])
        XCTAssertEqual(error?.message, "option '--sort' needs a value (sim, date, asc, dsc)")
        XCTAssertEqual(error?.hint, "see 'shopy help search'")
        XCTAssertEqual(usageError(["x", "--size"])?.message, "option '--size' needs a value")
    }

    func testRepeatedOption() {
        XCTAssertEqual(usageError(["x", "--sort", "asc", "--sort", "dsc"])?.message, "option '--sort' is given more than once")
        XCTAssertEqual(usageError(["x", "--size=5", "--size", "5"])?.message, "option '--size' is given more than once")
        // Flags may repeat harmlessly.
        XCTAssertNotNil(parse(["x", "--json", "--json"]))
    }

    func testRepeatableOption() throws {
        let spec = CommandSpec(name: "t", abstract: "test", options: [OptionSpec("tag", value: "t", help: "a tag", repeatable: true)])
        let parsed = try ArgumentParser.parse(["--tag", "a", "--tag=b"], for: spec, commandPath: "t")
        XCTAssertEqual(parsed.values["tag"], ["a", "b"])
        XCTAssertEqual(parsed.values["tag"]?.last, "b")
    }

    func testChoiceAndInteger() throws {
        XCTAssertEqual(try ArgumentParser.choice("ASC", option: "sort", as: SortOrder.self, allowed: SortOrder.allCases), .asc)
        do throws(UsageError) {
            _ = try ArgumentParser.choice("dat", option: "sort", as: SortOrder.self, allowed: SortOrder.allCases)
            XCTFail("dat is no sort order")
        } catch {
            XCTAssertEqual(error.message, "invalid --sort 'dat'; valid values: sim, date, asc, dsc")
            XCTAssertEqual(error.hint, "did you mean 'date'?")
        }
        XCTAssertThrowsError(try ArgumentParser.integer(" 7 ", option: "size", in: 1...100), "whitespace is refused (issue 12)")
        XCTAssertThrowsError(try ArgumentParser.integer("0", option: "size", in: 1...100))
        XCTAssertThrowsError(try ArgumentParser.integer("101", option: "size", in: 1...100))
        XCTAssertThrowsError(try ArgumentParser.integer("5.5", option: "size", in: 1...100))
        XCTAssertThrowsError(try ArgumentParser.integer("", option: "size", in: 1...100))
        XCTAssertThrowsError(try ArgumentParser.integer("99999999999999999999999", option: "size", in: 1...100))
    }

    // MARK: - Suggest

    func testEditDistance() {
        XCTAssertEqual(Suggest.editDistance("", ""), 0)
        XCTAssertEqual(Suggest.editDistance("", "abc"), 3)
        XCTAssertEqual(Suggest.editDistance("abc", ""), 3)
        XCTAssertEqual(Suggest.editDistance("abc", "abc"), 0)
        XCTAssertEqual(Suggest.editDistance("kitten", "sitting"), 3)
        XCTAssertEqual(Suggest.editDistance("ab", "ba"), 1, "a transposition costs one")
        XCTAssertEqual(Suggest.editDistance("serach", "search"), 1)
        XCTAssertEqual(Suggest.editDistance("--srot", "--sort"), 1)
        XCTAssertEqual(Suggest.editDistance("ca", "abc"), 3, "optimal string alignment, not unrestricted Damerau")
        XCTAssertEqual(Suggest.editDistance("방충망", "방충밍"), 1, "over Characters, not bytes")
        XCTAssertEqual(Suggest.editDistance("e\u{301}", "é"), 0, "canonically equal Characters")
        // Symmetric.
        for (a, b) in [("search", "sarch"), ("flaw", "lawn"), ("--size", "--sort"), ("abcdef", "badcfe")] {
            XCTAssertEqual(Suggest.editDistance(a, b), Suggest.editDistance(b, a), "\(a) / \(b)")
        }
    }

    func testClosest() {
        XCTAssertEqual(Suggest.closest(to: "serach", among: ["search", "help"]), "search")
        XCTAssertEqual(Suggest.closest(to: "SEARCH", among: ["search", "help"]), "search")
        XCTAssertEqual(Suggest.closest(to: "--srot", among: ["--sort", "--size", "--page"]), "--sort")
        XCTAssertEqual(Suggest.closest(to: "--siz", among: ["--sort", "--size", "--page"]), "--size")
        XCTAssertEqual(Suggest.closest(to: "hlep", among: ["search", "help"]), "help")
        XCTAssertNil(Suggest.closest(to: "xyz", among: ["search", "help"]))
        XCTAssertNil(Suggest.closest(to: "nosuch", among: ["search"]))
        XCTAssertNil(Suggest.closest(to: "price", among: ["sim", "date", "asc", "dsc"]))
        XCTAssertNil(Suggest.closest(to: "anything", among: []))
        // A short word allows only one edit.
        XCTAssertEqual(Suggest.closest(to: "sm", among: ["sim"]), "sim")
        XCTAssertNil(Suggest.closest(to: "xy", among: ["sim"]))
    }

    // MARK: - Help

    func testHelpFitsTheWidth() {
        for width in [40, 60, 80, 120] {
            let text = Help.text(for: SearchCommand.spec, path: "search", width: width)
            XCTAssertTrue(text.contains("USAGE: shopy search"), "width \(width)")
            XCTAssertTrue(text.contains("OPTIONS:"), "width \(width)")
            XCTAssertTrue(text.contains("EXAMPLES:"), "width \(width)")
            XCTAssertTrue(text.contains("OVERVIEW:"), "width \(width)")
            XCTAssertTrue(text.contains("--sort"), "width \(width)")
            XCTAssertTrue(text.hasSuffix("\n"))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let tooWide = lines.filter { DisplayWidth.of($0) > width }
            XCTAssertEqual(tooWide, [], "\(tooWide.count) of \(lines.count) lines of 'help search' are wider than \(width) columns")
            for line in lines { XCTAssertFalse(line.hasSuffix(" "), "trailing space at width \(width): \(line.debugDescription)") }

            let root = Help.rootText(commands: [SearchCommand.spec], version: ShopY.version, width: width)
            XCTAssertTrue(root.contains("USAGE: shopy"))
            let rootLines = root.split(separator: "\n").map(String.init)
            let rootTooWide = rootLines.filter { DisplayWidth.of($0) > width }
            XCTAssertEqual(rootTooWide, [], "\(rootTooWide.count) lines of 'shopy --help' are wider than \(width) columns")
        }
    }

    func testHelpForEveryCommandFits() {
        for command in ShopY.commands {
            for width in [80, 120] {
                let text = Help.text(for: command.spec, path: command.spec.name, width: width)
                XCTAssertTrue(text.contains("USAGE: shopy \(command.spec.name)"), command.spec.name)
                XCTAssertTrue(text.contains("OPTIONS:"), command.spec.name)
                let tooWide = text.split(separator: "\n").map(String.init).filter { DisplayWidth.of($0) > width }
                XCTAssertEqual(tooWide, [], "'help \(command.spec.name)' at width \(width)")
            }
        }
    }

    func testHelpMentionsEveryOptionAndExample() {
        let text = Help.text(for: SearchCommand.spec, path: "search", width: 120)
        for option in SearchCommand.spec.options {
            XCTAssertTrue(text.contains("--\(option.name)"), option.name)
        }
        for example in SearchCommand.spec.examples {
            XCTAssertTrue(text.contains(example), example)
        }
        XCTAssertTrue(text.contains("-h, --help"))
        XCTAssertTrue(text.contains("<query>..."))
    }

    func testWrap() {
        let lines = Help.wrap("one two three four five six seven eight nine ten", width: 20, indent: 2, hanging: 4)
        XCTAssertEqual(lines, ["  one two three four", "    five six seven", "    eight nine ten"])
        XCTAssertEqual(Help.wrap("", width: 20, indent: 0, hanging: 0), [""])
        for line in Help.wrap("방충망 미세먼지 롤 창문 모기장 DIY 100cmx10cm 일체형 자석 방충망", width: 20, indent: 0, hanging: 2) {
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), 20, line)
        }
    }

    // MARK: - ShopY.main in process

    func testVersion() async {
        let run = await Shell.run(["--version"])
        XCTAssertEqual(run.code, 0)
        XCTAssertEqual(run.stdout, "shopy \(ShopY.version)\n")
        XCTAssertEqual(run.stderr, "")
    }

    func testRootHelp() async {
        for arguments in [[String](), ["--help"], ["-h"], ["help"]] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 0, "\(arguments)")
            XCTAssertTrue(run.stdout.contains("USAGE: shopy <command>"), "\(arguments)")
            XCTAssertTrue(run.stdout.contains("search"), "\(arguments)")
            XCTAssertEqual(run.stderr, "", "\(arguments)")
        }
    }

    func testHelpSearch() async {
        for arguments in [["help", "search"], ["search", "--help"], ["search", "-h"], ["search", "방충망", "-h"]] {
            let run = await Shell.run(arguments, environment: ["COLUMNS": "70"])
            XCTAssertEqual(run.code, 0, "\(arguments)")
            XCTAssertTrue(run.stdout.contains("USAGE: shopy search"), "\(arguments)")
            XCTAssertTrue(run.stdout.contains("EXAMPLES:"), "\(arguments)")
            XCTAssertEqual(run.stderr, "", "help never prints the catalog notice: \(arguments)")
            for line in run.stdout.split(separator: "\n") {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 70, "\(arguments): \(line)")
            }
        }
    }

    func testHelpForUnknownCommand() async {
        let run = await Shell.run(["help", "nosuch"])
        let (message, hint) = assertFailure(run, code: 64)
        XCTAssertTrue(message.contains("'nosuch'"), message)
        XCTAssertNotNil(hint, "a hint says where to look")

        let typo = await Shell.run(["help", "serach"])
        let (_, typoHint) = assertFailure(typo, code: 64)
        XCTAssertEqual(typoHint, "did you mean 'search'?")
    }

    func testUnknownCommand() async {
        let run = await Shell.run(["serach", "방충망"])
        let (message, hint) = assertFailure(run, code: 64)
        XCTAssertEqual(message, "unknown command 'serach'")
        XCTAssertEqual(hint, "did you mean 'search'?")

        let far = await Shell.run(["frobnicate"])
        let (_, farHint) = assertFailure(far, code: 64)
        XCTAssertFalse(farHint?.contains("did you mean") ?? false)

        let option = await Shell.run(["--sort", "asc"])
        assertFailure(option, code: 64)
    }

    func testHostileArgumentsCannotBreakTheErrorLine() async {
        // Arguments are echoed in errors: controls are neutralised, and the error stays one line.
        for arguments in [["sea\nrch"], ["\u{1B}[2Jsearch"], ["search", "x", "--sort", "a\nb\u{1B}[31m"], ["search", "x", "--\u{9B}31m"]] {
            let run = await Shell.run(arguments)
            assertFailure(run, code: 64)
            XCTAssertFalse(run.stderr.contains("\u{1B}"), "\(arguments)")
            XCTAssertFalse(run.stderr.unicodeScalars.contains { $0.value == 0x9B }, "\(arguments)")
        }
    }

    func testSearchWithoutQuery() async {
        for arguments in [["search"], ["search", "  "], ["search", "--sort", "asc"], ["search", "--", " "]] {
            let run = await Shell.run(arguments)
            let (message, _) = assertFailure(run, code: 64)
            XCTAssertEqual(message, "search needs a query", "\(arguments)")
        }
    }

    func testInvalidSort() async {
        let run = await Shell.run(["search", "x", "--sort", "price"])
        let (message, _) = assertFailure(run, code: 64)
        for value in ["sim", "date", "asc", "dsc"] {
            XCTAssertTrue(message.contains(value), "lists \(value): \(message)")
        }
        XCTAssertTrue(message.contains("'price'"), message)
    }

    func testSizeBounds() async {
        for size in ["0", "101", "-1", "ten", "1e2"] {
            let run = await Shell.run(["search", "x", "--size", size])
            let (message, _) = assertFailure(run, code: 64)
            XCTAssertTrue(message.contains("--size"), message)
        }
        for size in ["1", "100"] {
            let run = await Shell.run(["search", "방충망", "--size", size, "--format", "tsv"])
            XCTAssertEqual(run.code, 0, "size \(size): \(run.stderr)")
        }
    }

    func testPageBounds() async {
        let run = await Shell.run(["search", "x", "--page", "51", "--size", "20"])
        let (message, hint) = assertFailure(run, code: 64)
        XCTAssertTrue(message.contains("1,001") || message.contains("1001"), message)
        XCTAssertTrue(message.contains("limit of 1,000"), "numbers are grouped alike: \(message)")
        XCTAssertEqual(hint, "the last reachable page at size 20 is 50")

        let reachable = await Shell.run(["search", "x", "--page", "50", "--size", "20", "--format", "json"])
        XCTAssertEqual(reachable.code, 0, reachable.stderr)

        let deepest = await Shell.run(["search", "방충망", "--page", "10", "--size", "100", "--format", "json"])
        XCTAssertEqual(deepest.code, 0, deepest.stderr)
        let json = try? JSONParser.parse(deepest.stdout)
        XCTAssertEqual(json?["start"], .number("901"))

        let past = await Shell.run(["search", "방충망", "--page", "11", "--size", "100"])
        let (_, pastHint) = assertFailure(past, code: 64)
        XCTAssertEqual(pastHint, "the last reachable page at size 100 is 10")

        for page in ["0", "-1", "x"] {
            do { let r = await Shell.run(["search", "x", "--page", page]); assertFailure(r, code: 64) }
        }
        // Default size 20: page 50 is the last.
        do { let r = await Shell.run(["search", "x", "--page", "51"]); assertFailure(r, code: 64) }
        // A huge page number is a usage error, not a crash.
        do { let r = await Shell.run(["search", "x", "--page", "9223372036854775807"]); assertFailure(r, code: 64) }
    }

    func testJSONAndFormatDisagree() async {
        let run = await Shell.run(["search", "x", "--json", "--format", "csv"])
        let (message, _) = assertFailure(run, code: 64)
        XCTAssertTrue(message.contains("--json") && message.contains("csv"), message)
        let agree = await Shell.run(["search", "방충망", "--json", "--format", "json"])
        XCTAssertEqual(agree.code, 0, agree.stderr)
        do { let r = await Shell.run(["search", "x", "--format", "xml"]); assertFailure(r, code: 64) }
    }

    func testTimeout() async {
        for value in ["0", "-1", "abc", "nan", "inf", "3601"] {
            let run = await Shell.run(["search", "x", "--timeout", value])
            let (message, _) = assertFailure(run, code: 64)
            XCTAssertTrue(message.contains("--timeout"), "\(value): \(message)")
        }
        let ok = await Shell.run(["search", "방충망", "--timeout", "0.5"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
    }

    func testSourceNaverWithoutKeys() async {
        for environment: [String: String] in [[:], ["NAVER_CLIENT_ID": "abc"], ["NAVER_CLIENT_SECRET": "def"], ["NAVER_CLIENT_ID": " ", "NAVER_CLIENT_SECRET": "def"]] {
            let run = await Shell.run(["search", "방충망", "--source", "naver"], environment: environment)
            let (message, _) = assertFailure(run, code: 77)
            XCTAssertTrue(message.contains("NAVER_CLIENT_ID"), message)
            XCTAssertTrue(message.contains("NAVER_CLIENT_SECRET"), message)
        }
    }

    func testBadAPIBase() async {
        let run = await Shell.run(["search", "방충망", "--source", "naver"],
                                  environment: ["NAVER_CLIENT_ID": "a", "NAVER_CLIENT_SECRET": "b", "SHOPY_API_BASE": "ftp://example.com"])
        let (message, _) = assertFailure(run, code: 1)
        XCTAssertTrue(message.contains("SHOPY_API_BASE"), message)
    }

    func testInvalidExcludeAndSource() async {
        let exclude = await Shell.run(["search", "x", "--exclude", "used,rentl"])
        let (message, hint) = assertFailure(exclude, code: 64)
        XCTAssertTrue(message.contains("rentl"), message)
        XCTAssertEqual(hint, "did you mean 'rental'?")
        do { let r = await Shell.run(["search", "x", "--source", "google"]); assertFailure(r, code: 64) }
    }

    // MARK: - RequestBuilder

    private let naver = URL(string: "https://openapi.naver.com")!

    private func query(of url: URL) -> String {
        let text = url.absoluteString
        guard let q = text.range(of: "?query=") else { return "" }
        let rest = text[q.upperBound...]
        return String(rest.prefix { $0 != "&" })
    }

    func testPercentEncoding() {
        let cases: [(String, String)] = [
            ("1+1", "1%2B1"),
            ("a&b", "a%26b"),
            ("a=b", "a%3Db"),
            ("#1", "%231"),
            ("100%", "100%25"),
            ("a b", "a%20b"),
            ("방충망", "%EB%B0%A9%EC%B6%A9%EB%A7%9D"),
            ("고양이 스크래쳐", "%EA%B3%A0%EC%96%91%EC%9D%B4%20%EC%8A%A4%ED%81%AC%EB%9E%98%EC%B3%90"),
            ("AZaz09-._~", "AZaz09-._~"),
            ("a/b?c", "a%2Fb%3Fc"),
            ("😀", "%F0%9F%98%80"),
            ("'\"<>", "%27%22%3C%3E"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(RequestBuilder.percentEncode(text), expected, text)
            let url = RequestBuilder.url(base: naver, request: SearchRequest(query: text))
            XCTAssertEqual(query(of: url), expected, text)
            // What a server decodes is exactly what was typed.
            XCTAssertEqual(expected.removingPercentEncoding, text)
        }
    }

    func testRequestURL() {
        let url = RequestBuilder.url(base: naver, request: SearchRequest(query: "1+1", sort: .dsc, start: 41, display: 20))
        XCTAssertEqual(url.absoluteString, "https://openapi.naver.com/v1/search/shop.json?query=1%2B1&display=20&start=41&sort=dsc")
        XCTAssertEqual(url.host, "openapi.naver.com")
        XCTAssertEqual(url.path, "/v1/search/shop.json")
    }

    func testRequestURLBases() {
        let request = SearchRequest(query: "x")
        let plain = RequestBuilder.url(base: naver, request: request).absoluteString
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "https://openapi.naver.com/")!, request: request).absoluteString, plain)
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "https://openapi.naver.com//")!, request: request).absoluteString, plain)
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "http://127.0.0.1:8080/proxy/naver/")!, request: request).absoluteString,
                       "http://127.0.0.1:8080/proxy/naver/v1/search/shop.json?query=x&display=20&start=1&sort=sim")
        XCTAssertEqual(RequestBuilder.url(base: URL(string: "http://127.0.0.1:8080/proxy")!, request: request).absoluteString,
                       "http://127.0.0.1:8080/proxy/v1/search/shop.json?query=x&display=20&start=1&sort=sim")
    }

    func testRequestURLFilterAndExclude() {
        let pay = RequestBuilder.url(base: naver, request: SearchRequest(query: "x", naverPayOnly: true, exclude: [.cbshop, .used]))
        XCTAssertEqual(pay.absoluteString,
                       "https://openapi.naver.com/v1/search/shop.json?query=x&display=20&start=1&sort=sim&filter=naverpay&exclude=used:cbshop")
        // A stable order however the set was built.
        var seen = Set<String>()
        for kinds in [[ExcludeKind.cbshop, .rental, .used], [.used, .rental, .cbshop], [.rental, .cbshop, .used]] {
            for _ in 0..<5 {
                seen.insert(RequestBuilder.url(base: naver, request: SearchRequest(query: "x", exclude: Set(kinds))).absoluteString)
            }
        }
        XCTAssertEqual(seen, ["https://openapi.naver.com/v1/search/shop.json?query=x&display=20&start=1&sort=sim&exclude=used:rental:cbshop"])
        XCTAssertFalse(RequestBuilder.url(base: naver, request: SearchRequest(query: "x")).absoluteString.contains("exclude"))
        XCTAssertFalse(RequestBuilder.url(base: naver, request: SearchRequest(query: "x")).absoluteString.contains("filter"))
    }

    func testSearchCommandBuildsTheRequest() throws {
        let parsed = try XCTUnwrap(parse(["고양이", "스크래쳐", "--page", "3", "--size", "15", "--sort", "date",
                                          "--exclude", "cbshop,used", "--naverpay"]))
        let command = try SearchCommand(parsed)
        XCTAssertEqual(command.request, SearchRequest(query: "고양이 스크래쳐", sort: .date, start: 31, display: 15,
                                                      naverPayOnly: true, exclude: [.used, .cbshop]))
    }

    func testBaseFromEnvironment() throws {
        XCTAssertEqual(try RequestBuilder.base(from: [:]).absoluteString, "https://openapi.naver.com")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": ""]).absoluteString, "https://openapi.naver.com")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": "http://127.0.0.1:8080"]).absoluteString, "http://127.0.0.1:8080")
        XCTAssertEqual(try RequestBuilder.base(from: ["SHOPY_API_BASE": " HTTPS://mirror.example/api/ "]).host, "mirror.example")
        for bad in ["ftp://example.com", "openapi.naver.com", "file:///etc/passwd", "javascript:alert(1)", "http://", "https://x.example/?a=b",
                    "127.0.0.1:8080", "mailto:a@b.c"] {
            do throws(SourceError) {
                let url = try RequestBuilder.base(from: ["SHOPY_API_BASE": bad])
                XCTFail("\(bad) accepted as \(url)")
            } catch {
                XCTAssertEqual(error, .invalidBaseURL(bad), bad)
                XCTAssertEqual(ExitCode(for: error), .failure)
            }
        }
    }

    // MARK: - RetryPolicy

    func testRetryDelayBounds() {
        let policy = RetryPolicy()
        for retry in 1...12 {
            let full = min(policy.maxDelay, policy.baseDelay * Double(1 << (retry - 1)))
            for random in [0.0, 0.25, 0.5, 0.999, 1.0] {
                let delay = policy.delay(retry: retry, retryAfter: nil, random: random)
                XCTAssertGreaterThanOrEqual(delay, full / 2, "retry \(retry) random \(random)")
                XCTAssertLessThanOrEqual(delay, full, "retry \(retry) random \(random)")
                XCTAssertLessThanOrEqual(delay, policy.maxDelay)
            }
        }
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: nil, random: 0), 0.125, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: nil, random: 1), 0.25, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 3, retryAfter: nil, random: 1), 1.0, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 30, retryAfter: nil, random: 1), 8, accuracy: 1e-9)
        // Retry-After is honoured as a minimum.
        XCTAssertEqual(policy.delay(retry: 1, retryAfter: 3, random: 0.5), 3, accuracy: 1e-9)
        XCTAssertEqual(policy.delay(retry: 5, retryAfter: 0.01, random: 1), 4, accuracy: 1e-9)
        // Later retries never wait less than earlier ones at the same draw.
        for random in [0.0, 0.5, 1.0] {
            let delays = (1...10).map { policy.delay(retry: $0, retryAfter: nil, random: random) }
            XCTAssertEqual(delays, delays.sorted(), "random \(random)")
        }
    }

    func testRetryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_445_412_480 - 30)  // 30 s before Wed, 21 Oct 2015 07:28:00 GMT
        XCTAssertEqual(RetryPolicy.retryAfter("5", now: now), 5)
        XCTAssertEqual(RetryPolicy.retryAfter("0", now: now), 0)
        XCTAssertEqual(RetryPolicy.retryAfter(" 120 ", now: now), 120)
        XCTAssertNil(RetryPolicy.retryAfter(nil, now: now))
        XCTAssertNil(RetryPolicy.retryAfter("", now: now))
        XCTAssertNil(RetryPolicy.retryAfter("soon", now: now))
        XCTAssertNil(RetryPolicy.retryAfter("-3", now: now))
        let date = RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now)
        XCTAssertNotNil(date)
        XCTAssertEqual(date ?? -1, 30, accuracy: 0.001)
        // A date in the past means: now.
        XCTAssertEqual(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now.addingTimeInterval(3600)), 0)
    }
}
