import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// `--source`, `SHOPY_SOURCE` and the config key `source` on the command line: one source, a comma
/// list, or all; resolved against the keys that are set, before anything is sent.
final class SourceOptionTests: XCTestCase {
    func testCommandLineConfigAndEnvironment() async throws {
        let bad = await Shell.run(["search", "방충망", "--source", "11st,bogus"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("'bogus' is not a source"), bad.stderr)
        let near = await Shell.run(["search", "방충망", "--source", "coupnag"])
        XCTAssertTrue(near.stderr.contains("did you mean 'coupang'?"), near.stderr)

        // Named without keys: 77, naming the variable; nothing is sent (NoNetworkTransport would fail the test otherwise).
        let eleven = await Shell.run(["search", "방충망", "--source", "11st"])
        XCTAssertEqual(eleven.code, 77)
        XCTAssertTrue(eleven.stderr.contains("ELEVENST_API_KEY"), eleven.stderr)
        let environment = await Shell.run(["search", "방충망"], environment: ["SHOPY_SOURCE": "coupang"])
        XCTAssertEqual(environment.code, 77)
        XCTAssertTrue(environment.stderr.contains("COUPANG_ACCESS_KEY and COUPANG_SECRET_KEY"), environment.stderr)
        let all = await Shell.run(["search", "방충망", "--source", "all"])
        XCTAssertEqual(all.code, 77)

        let list = await Shell.run(["config", "set", "source", "11st , coupang"])
        XCTAssertEqual(list.code, 0, list.stderr)
        let refused = await Shell.run(["config", "set", "source", "11st,,coupang"])
        XCTAssertEqual(refused.code, 64)
        let budget = await Shell.run(["config", "set", "coupang-per-hour", "0"])
        XCTAssertEqual(budget.code, 64, "1 to 1000")
        XCTAssertTrue(budget.stderr.contains("1 to 1000"), budget.stderr)

        // A bad SHOPY_COUPANG_PER_HOUR stops only what asks Coupang.
        let catalog = await Shell.run(["search", "방충망", "--source", "catalog"], environment: ["SHOPY_COUPANG_PER_HOUR": "many"])
        XCTAssertEqual(catalog.code, 0, catalog.stderr)
        let coupang = await Shell.run(["search", "방충망", "--source", "coupang"],
                                      environment: ["SHOPY_COUPANG_PER_HOUR": "many", "COUPANG_ACCESS_KEY": "a", "COUPANG_SECRET_KEY": "s"])
        XCTAssertEqual(coupang.code, 64, coupang.stderr)
        XCTAssertTrue(coupang.stderr.contains("SHOPY_COUPANG_PER_HOUR"), coupang.stderr)
    }

    func testAKeyThatWouldBreakItsRequestIsRefused() async {
        for (variable, value) in [("COUPANG_ACCESS_KEY", "abc\r\nX-Injected: 1"), ("COUPANG_ACCESS_KEY", "a,signature=x"), ("ELEVENST_API_KEY", "key with space")] {
            var environment = ["COUPANG_ACCESS_KEY": "a", "COUPANG_SECRET_KEY": "s", "ELEVENST_API_KEY": "k"]
            environment[variable] = value
            let source = variable.hasPrefix("COUPANG") ? "coupang" : "11st"
            // NoNetworkTransport fails the run if anything is sent.
            let run = await Shell.run(["search", "방충망", "--source", source], environment: environment)
            XCTAssertEqual(run.code, 77, run.stderr)
            XCTAssertTrue(run.stderr.contains("\(variable) holds a character no key has"), run.stderr)
            XCTAssertFalse(run.stderr.contains("X-Injected"))
        }
    }

    func testCapabilitiesAreCheckedBeforeAnythingIsSent() async {
        let keys = ["ELEVENST_API_KEY": "k", "COUPANG_ACCESS_KEY": "a", "COUPANG_SECRET_KEY": "s",
                    "SHOPY_11ST_BASE": "http://127.0.0.1:9", "SHOPY_COUPANG_BASE": "http://127.0.0.1:9"]
        for (arguments, words) in [(["--sort", "date"], "11번가 cannot sort by date (it can sort sim, asc and dsc)"),
                                   (["--source", "coupang", "--page", "2"], "Coupang cannot list page 2 or later"),
                                   (["--source", "11st", "--naverpay"], "11번가 cannot keep Naver Pay items only"),
                                   (["--source", "11st,catalog", "--exclude", "used"], "11번가 cannot leave out used, rental or cbshop items")] {
            let run = await Shell.run(["search", "에어팟"] + arguments, environment: keys)
            XCTAssertEqual(run.code, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(words), run.stderr)
        }
        XCTAssertNoThrow(try SourceCapabilities.check(SearchRequest(query: "a", sort: .dsc, start: 1, display: 50), for: .coupang),
                         "a size above 10 asks Coupang for 10")
    }
}
