// Tests for Sources/ShopYCLI/CLI (ArgumentParser, Help, ShopY.main in process). Suggest:
// ShopYBaseTests/Text/SuggestTests; the request builder: ShopYCoreTests/HTTP/RequestBuilderTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

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

    let spec = SearchCommand.spec

    func parse(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> ParsedArguments? {
        do {
            return try ArgumentParser.parse(arguments, for: spec, commandPath: "search")
        } catch {
            XCTFail("parse(\(arguments)) threw \(error)", file: file, line: line)
            return nil
        }
    }

    func usageError(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> UsageError? {
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
    func assertFailure(_ run: CLIRun, code: Int32, file: StaticString = #filePath, line: UInt = #line) -> (String, String?) {
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
}
