// A hostile DataLab answer whose anchor ratio is tiny but in range cannot overflow the stitch:
// `trends` in every format (the stitcher itself: ShopYCoreTests/Trends/TrendsUnitTests).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Answers each request with the anchor (the first series) at `anchorRatio` in the request
/// that carries `second` (whichever request arrives first), and every other value at 100.
struct TinyAnchorTransport: HTTPTransport {
    let anchorRatio: String
    var second = "50003310"

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        let body = (try? JSONParser.parse(request.body ?? [])) ?? .null
        let start = body["startDate"]?.stringValue ?? ""
        let names = (body["category"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let results = names.enumerated().map { i, name in
            let ratio = i == 0 && names.contains(second) ? anchorRatio : "100"
            return #"{"title":"\#(name)","data":[{"period":"\#(start)","ratio":\#(ratio)}]}"#
        }
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"],
                            body: Array(#"{"results":[\#(results.joined(separator: ","))]}"#.utf8))
    }
}

final class TrendsHostileScaleTests: XCTestCase {
    typealias F = TrendsFixture
    let keys = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key-value", "SHOPY_DATALAB_BASE": "http://127.0.0.1:9/shopping/v1"]
    let args = ["categories", "50003307", "50003308", "50003309", "50003310", "--from", "2026-09-01", "--to", "2026-11-29"]

    func testATinyAnchorRatioIsBadDataInEveryFormat() async {
        for ratio in ["1e-303", "1e-320", "5e-324", "1e-11"] {
            for format in ["table", "json", "jsonl", "csv", "tsv"] {
                let run = await F.run(args + ["--format", format], environment: keys, transport: TinyAnchorTransport(anchorRatio: ratio))
                XCTAssertEqual(run.code, 65, "\(ratio) \(format): \(run.stdout) \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("cannot be put on one scale"), run.stderr)
                XCTAssertFalse(run.stdout.contains("inf") || run.stdout.contains("nan"), run.stdout)
            }
        }
    }

    func testAnOrdinaryAnchorStillStitches() async {
        let run = await F.run(args + ["--format", "json"], environment: keys, transport: TinyAnchorTransport(anchorRatio: "50"))
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertNoThrow(try JSONParser.parse(run.stdout))
    }

}
