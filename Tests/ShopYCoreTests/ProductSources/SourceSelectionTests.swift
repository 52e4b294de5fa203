import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// SourceSelection: one source, a comma list, or all, resolved against the keys that are set.
/// (`--source`, `SHOPY_SOURCE` and the config key: ShopYCLITests/Commands/SourceOptionTests.)
final class SourceSelectionTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(try SourceSelection.parse("naver").get(), .naver)
        XCTAssertEqual(try SourceSelection.parse("11st, Coupang").get(), .list([.elevenst, .coupang]))
        XCTAssertEqual(try SourceSelection.parse("ALL").get(), .all)
        XCTAssertEqual(try SourceSelection.parse("coupang,11st").get().text, "coupang,11st", "the order given is kept")
        for (text, problem) in [("", SourceSelection.SelectionProblem.empty), ("11st,", .empty), ("all,naver", .allWithOthers),
                                ("gmarket", .unknown("gmarket")), ("11st,11st", .repeated("11st"))] {
            XCTAssertEqual(SourceSelection.parse(text), .failure(problem), text)
        }
    }

    func testResolution() throws {
        let none = SourceKeys(environment: [:])
        XCTAssertEqual(try SourceSelection.resolve(nil, keys: none).kinds, [.catalog])
        XCTAssertTrue(try SourceSelection.resolve(nil, keys: none).fellBack)
        XCTAssertThrowsError(try SourceSelection.resolve(.all, keys: none)) { XCTAssertEqual($0 as? SourceError, .noLiveSource) }
        XCTAssertEqual(try SourceSelection.resolve(.catalog, keys: none).kinds, [.catalog])

        let both = SourceKeys(environment: ["ELEVENST_API_KEY": "k", "COUPANG_ACCESS_KEY": "a", "COUPANG_SECRET_KEY": "s"])
        XCTAssertEqual(try SourceSelection.resolve(nil, keys: both).kinds, [.elevenst, .coupang], "every live source with keys")
        XCTAssertEqual(try SourceSelection.resolve(.all, keys: both).kinds, [.elevenst, .coupang])
        XCTAssertEqual(try SourceSelection.resolve(.list([.coupang, .catalog]), keys: both).kinds, [.coupang, .catalog])

        let half = SourceKeys(environment: ["COUPANG_ACCESS_KEY": "a", "COUPANG_SECRET_KEY": " "])
        XCTAssertThrowsError(try SourceSelection.resolve(.coupang, keys: half)) { error in
            XCTAssertEqual(error as? SourceError, .keysNotSet(source: .coupang, variables: ["COUPANG_SECRET_KEY"]))
            XCTAssertEqual((error as? ShopyError)?.message, "the coupang source needs COUPANG_ACCESS_KEY and COUPANG_SECRET_KEY, and COUPANG_SECRET_KEY is not set")
            XCTAssertEqual(ExitCode(for: error), .authentication)
        }
        XCTAssertThrowsError(try SourceSelection.resolve(.naver, keys: both)) { XCTAssertEqual($0 as? SourceError, .missingKeys) }
    }
}
