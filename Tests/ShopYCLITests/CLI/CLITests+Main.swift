// The command line (continued): ShopY.main in process, the request `search` builds. (The request
// builder and the retry policy: ShopYCoreTests/HTTP/RequestBuilderTests.)

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

extension CLITests {
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

    // MARK: - The search request

    func testSearchCommandBuildsTheRequest() throws {
        let parsed = try XCTUnwrap(parse(["고양이", "스크래쳐", "--page", "3", "--size", "15", "--sort", "date",
                                          "--exclude", "cbshop,used", "--naverpay"]))
        let command = try SearchCommand(parsed)
        XCTAssertEqual(command.request, SearchRequest(query: "고양이 스크래쳐", sort: .date, start: 31, display: 15,
                                                      naverPayOnly: true, exclude: [.used, .cbshop]))
    }

    func testHugePagesAreUsageErrorsWithoutOverflow() async {
        for page in ["1001", "9223372036854775807", "0", "-3"] {
            let io = IO.capture(environment: ["SHOPY_HOME": NSTemporaryDirectory() + "shopy-review-\(UUID().uuidString)"])
            let code = await ShopY.main(["search", "x", "--page", page], io: io)
            XCTAssertEqual(code, 64, page)
            XCTAssertTrue(io.stderr.text.hasPrefix("shopy: "), io.stderr.text)
        }
    }

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

    func testNumbersAreGroupedInMessagesAndHelp() async {
        let run = await Home().run(["search", "방충망", "--page", "51"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("at result 1,001, past the API's limit of 1,000"), run.stderr)
        let rank = await Home().run(["help", "rank"], environment: ["COLUMNS": "300"])
        XCTAssertTrue(rank.stdout.contains("(default 1,000)"), rank.stdout)
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

    func testTopLevelOptionDidYouMean() async {
        let run = await Home().run(["--verison"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, "shopy: unknown option '--verison'\nhint: did you mean '--version'?\n")
    }
}
