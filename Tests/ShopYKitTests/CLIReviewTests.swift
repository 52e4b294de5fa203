// Regression tests from the hostile review of the parser, help, config, completions and the
// search/history/status/doctor commands (branch review-cli): each failed before its fix.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class CLIReviewTests: XCTestCase {
    private var scratch: [String] = []

    override func tearDown() {
        for path in scratch { try? FileManager.default.removeItem(atPath: path) }
        super.tearDown()
    }

    private func temporaryPath(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "shopy-review-\(UUID().uuidString.prefix(8))-\(name)"
        scratch.append(path)
        return path
    }

    // MARK: doctor

    /// SHOPY_HOME naming a regular file: doctor reported every file "not created yet" (exit 0),
    /// and --repair chmod-ed the user's file to 0700 before failing.
    func testDoctorRefusesAHomeThatIsAFileAndNeverChmodsIt() async throws {
        let file = temporaryPath("home-file")
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(chmod(file, 0o644), 0)
        for arguments in [["doctor"], ["doctor", "--repair"], ["doctor", "--json"]] {
            let run = await Shell.run(arguments, environment: ["SHOPY_HOME": file])
            XCTAssertEqual(run.code, 74, "\(arguments): \(run.stdout)\(run.stderr)")
            XCTAssertEqual(run.stdout, "", "\(arguments)")
            XCTAssertEqual(run.stderrLines, ["shopy: cannot use the directory \(file): not a directory"], "\(arguments)")
            XCTAssertEqual(FileIO.mode(of: file), 0o644, "\(arguments) changed the file's mode")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "mine\n")
    }

    // MARK: values quoted in errors

    /// A huge value (100,000 digits in SHOPY_SIZE, a 100,000-letter option) was echoed whole:
    /// a 100 KB "one line". Quoted values are cut to a screen's part, cleaned.
    func testHugeValuesAreQuotedCutInErrors() async {
        let huge = String(repeating: "9", count: 100_000)
        let cases: [([String], [String: String])] = [
            (["search", "x"], ["SHOPY_SIZE": huge]),
            (["search", "x", "--size", huge], [:]),
            (["search", "x", "--sort", huge], [:]),
            (["search", "x", "--timeout", huge], [:]),
            (["search", "x", "--" + String(repeating: "z", count: 100_000)], [:]),
            ([String(repeating: "z", count: 100_000)], [:]),
            (["config", "set", "size", huge], [:]),
            (["config", "get", huge], [:]),
            (["help", huge], [:]),
            (["config", huge], [:]),
        ]
        for (arguments, environment) in cases {
            let run = await Shell.run(arguments, environment: environment)
            let shown = arguments.map { String($0.prefix(12)) }
            XCTAssertEqual(run.code, 64, "\(shown): \(run.stderr.prefix(200))")
            XCTAssertEqual(run.stdout, "", "\(shown)")
            XCTAssertTrue((1...2).contains(run.stderrLines.count), "\(shown)")
            for line in run.stderrLines { XCTAssertLessThan(line.count, 400, "\(shown): \(line.prefix(200))") }
            XCTAssertTrue(run.stderr.contains("…"), "\(shown): the cut is marked")
        }
        // A hostile short value is still cleaned.
        let run = await Shell.run(["search", "x", "--sort", "\u{1B}]0;pwn\u{07}"])
        XCTAssertFalse(run.stderr.contains("\u{1B}") || run.stderr.contains("\u{07}"), run.stderr)
    }

    // MARK: numbers

    /// `--size +5` and `SHOPY_SIZE=+5` were taken (Int("+5")), though sizes take digits only.
    func testSizesTakeNoSign() async {
        for size in ["+5", "-0", "+0", "-5"] {
            let run = await Shell.run(["search", "방충망", "--size", size, "--source", "catalog"])
            XCTAssertEqual(run.code, 64, size)
            XCTAssertEqual(run.stderrLines, ["shopy: invalid --size '\(size)': expected a whole number from 1 to 100"], size)
            let env = await Shell.run(["search", "방충망", "--source", "catalog"], environment: ["SHOPY_SIZE": size])
            XCTAssertEqual(env.code, 64, "SHOPY_SIZE=\(size)")
            XCTAssertEqual(env.stdout, "", size)
        }
        XCTAssertThrowsError(try ArgumentParser.integer("+2", option: "page", from: 1))
        XCTAssertEqual(try ArgumentParser.integer("-3", option: "offset", in: -5...5), -3, "a range with negative numbers takes a sign")
        XCTAssertEqual(try ArgumentParser.integer("5", option: "size", in: 1...100), 5)
    }

    // MARK: help

    /// `shopy help environment x` said "unknown command 'environment'; did you mean 'environment'?".
    func testHelpTopicWithMoreWords() async {
        for topic in ["environment", "files"] {
            let run = await Shell.run(["help", topic, "x"])
            XCTAssertEqual(run.code, 64, topic)
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderrLines, ["shopy: help \(topic) takes no other arguments", "hint: it is a help topic, not a command"])
        }
    }

    /// `shopy help search --help` and `shopy help -h` were refused as unknown commands.
    func testHelpTakesTheHelpFlag() async {
        let search = await Shell.run(["help", "search"])
        for arguments in [["help", "search", "--help"], ["help", "search", "-h"], ["help", "-h", "search"]] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 0, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stdout, search.stdout, "\(arguments)")
        }
        let root = await Shell.run(["help"])
        let run = await Shell.run(["help", "--help"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout, root.stdout)
    }

    // MARK: completions

    /// `shopy completions tcsh` said "invalid --shell 'tcsh'": there is no --shell option.
    func testUnknownShellIsNotAnOption() async {
        let run = await Shell.run(["completions", "tcsh"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.first, "shopy: unknown shell 'tcsh'; shopy has scripts for bash, zsh, fish")
        XCTAssertFalse(run.stderr.contains("--shell"), run.stderr)
        let upper = await Shell.run(["completions", "ZSH"])
        XCTAssertEqual(upper.code, 0, upper.stderr)
        XCTAssertTrue(upper.stdout.hasPrefix("#compdef shopy"))
    }

    // MARK: history

    /// `history --remove a --remove a` reported 'a' twice.
    func testHistoryRemoveSaysEachQueryOnce() async throws {
        let home = temporaryPath("home")
        _ = await Shell.run(["search", "방충망", "--source", "catalog", "-q"], environment: ["SHOPY_HOME": home])
        let run = await Shell.run(["history", "--remove", "방충망", "--remove", "방충망 ", "--remove", "nope", "--remove", "nope"],
                                  environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout + run.stderr, "history: removed '방충망'\nhistory: 'nope' is not in the history\n")
    }
}
