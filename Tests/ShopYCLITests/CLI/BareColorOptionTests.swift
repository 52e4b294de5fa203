// `--color` without a value means `always`, as GNU tools read it (`ls --color`); `--color WHEN`
// and `--color=WHEN` still take a value. The parser's optional-value options
// (Sources/ShopYCLI/CLI/ArgumentParser.swift), help and completions.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class BareColorOptionTests: XCTestCase {
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: SearchCommand.spec, commandPath: "search")
    }

    func testABareColorIsAlways() throws {
        XCTAssertEqual(try GlobalOptions.color.read(parse(["방충망", "--color"])), .always, "last")
        XCTAssertEqual(try GlobalOptions.color.read(parse(["--color", "방충망"])), .always, "before a word that is not a colour mode")
        XCTAssertEqual(try parse(["--color", "방충망"]).positionals, ["방충망"])
        XCTAssertEqual(try GlobalOptions.color.read(parse(["--color", "--size", "3", "x"])), .always, "before another option")
        XCTAssertEqual(try GlobalOptions.color.read(parse(["--color", "never", "x"])), .never)
        XCTAssertEqual(try GlobalOptions.color.read(parse(["--color", "NEVER", "x"])), .never)
        XCTAssertEqual(try GlobalOptions.color.read(parse(["--color=auto", "x"])), .auto)
        XCTAssertEqual(try GlobalOptions.color.read(parse(["x"])), nil)
        XCTAssertThrowsError(try GlobalOptions.color.read(parse(["--color=sometimes", "x"])), "an explicit value is checked")
        XCTAssertThrowsError(try parse(["--color", "--color", "x"]), "given twice")
        XCTAssertThrowsError(try GlobalOptions.color.read(parse(["--color=", "x"])), "an empty value is not bare")
        XCTAssertThrowsError(try parse(["--color", "nevr", "x"]), "a near miss of a mode is a mistyped value, not a search word")
    }

    func testTheCommandLineColoursWithABareColor() async {
        let plain = await Shell.run(["search", "방충망", "--size", "2", "--format", "table"])
        XCTAssertEqual(plain.code, 0, plain.stderr)
        XCTAssertFalse(plain.stdout.contains("\u{1B}["), "not a terminal: no colour by default")
        let bare = await Shell.run(["search", "방충망", "--size", "2", "--format", "table", "--color"])
        XCTAssertEqual(bare.code, 0, bare.stderr)
        XCTAssertTrue(bare.stdout.contains("\u{1B}["), "bare --color is always: \(bare.stdout)")
        let before = await Shell.run(["search", "--color", "방충망", "--size", "2", "--format", "table"])
        XCTAssertEqual(before.code, 0, before.stderr)
        XCTAssertEqual(before.stdout, bare.stdout)
        let never = await Shell.run(["search", "방충망", "--color", "never", "--size", "2", "--format", "table"])
        XCTAssertFalse(never.stdout.contains("\u{1B}["))
    }

    func testHelpAndCompletionsKnowTheValueIsOptional() async {
        let help = await Shell.run(["help", "search"])
        XCTAssertTrue(help.stdout.contains("--color[=<when>]"), help.stdout)
        let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: nil)
        XCTAssertEqual(completer.complete(["search", "--color", "a"]), .candidates(["auto", "always"].map { Completer.Candidate(value: $0, description: "color") }),
                       "a value may follow")
        XCTAssertEqual(Completer.positionals(["--color", "방충망", "--size", "3"], spec: SearchCommand.spec), ["방충망"], "a bare --color takes no word that is not a mode")
        XCTAssertEqual(Completer.positionals(["--color", "never", "x"], spec: SearchCommand.spec), ["x"])
        XCTAssertEqual(completer.complete(["search", "--color=n"]), .candidates([Completer.Candidate(value: "--color=never", description: "color")]))
    }
}
