// Tests for Sources/ShopYCore/HTTP/KeyRedaction.swift and its use by the search and DataLab
// clients: a server that echoes the request into an error answer never gets the keys printed.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class KeyRedactionTests: XCTestCase {
    /// A search client with the keys the echoing servers below quote back.
    func keyedClient(_ transport: any HTTPTransport) -> NaverClient {
        NaverClient(base: URL(string: "https://openapi.naver.com")!,
                    credentials: NaverCredentials(clientID: "myClientId0123456789", clientSecret: "mySecret01"), transport: transport)
    }

    func testEveryOccurrenceInTheBodyAndTheHeadersIsReplaced() {
        let response = HTTPResponse(status: 418, headers: ["location": "https://x.test/?k=SECRET01", "x-other": "plain"],
                                    body: Array("a SECRET01 b IDXIDXIDX SECRET01SECRET01 id".utf8))
        // Empty and short keys (under 8 bytes: no real key is) are left alone.
        let redacted = KeyRedaction.redact(["IDXIDXIDX", "SECRET01", "", "id"], in: response)
        XCTAssertEqual(String(decoding: redacted.body, as: UTF8.self), "a [redacted] b [redacted] [redacted][redacted] id")
        XCTAssertEqual(redacted.headers["location"], "https://x.test/?k=[redacted]")
        XCTAssertEqual(redacted.headers["x-other"], "plain")
        XCTAssertEqual(redacted.status, 418)
    }

    func testOverlappingKeysTheLongerWins() {
        XCTAssertEqual(String(decoding: KeyRedaction.replace([Array("ab".utf8), Array("abcd".utf8)], in: Array("xabcdy ab".utf8)), as: UTF8.self),
                       "x[redacted]y [redacted]")
        XCTAssertEqual(KeyRedaction.replace([Array("zz".utf8)], in: Array("no match".utf8)), Array("no match".utf8))
        XCTAssertEqual(KeyRedaction.replace([Array("zz".utf8)], in: Array("z".utf8)), Array("z".utf8), "a needle longer than what is left")
    }

    /// An echoing server (seen: `shopy search` against one answering 418 with the request printed
    /// "X-Naver-Client-Id: myid-AAAA | X-Naver-Client-Secret: mys…" in the error line).
    func testASearchErrorQuotingTheRequestShowsNoKey() async {
        let echo = "Host: openapi.naver.com | X-Naver-Client-Id: myClientId0123456789 | X-Naver-Client-Secret: mySecret01"
        let transport = StubTransport([
            .success(HTTPResponse(status: 418, body: Array(echo.utf8))),
        ])
        let client = keyedClient(transport)
        do {
            _ = try await client.search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("a 418 is an error")
        } catch {
            XCTAssertFalse(error.message.contains("myClientId0123456789"), error.message)
            XCTAssertFalse(error.message.contains("mySecret01"), error.message)
            XCTAssertFalse(error.message.contains("mySecr"), "not even the start of it: \(error.message)")
            XCTAssertTrue(error.message.contains("X-Naver-Client-Secret: [redacted]"), error.message)
        }
    }

    func testAnErrorMessageAndALocationQuotingTheKeysShowNone() async {
        let transport = StubTransport([
            .success(HTTPResponse(status: 401, body: Array(#"{"errorMessage":"bad key mySecret01 for myClientId0123456789","errorCode":"024"}"#.utf8))),
        ])
        let client = keyedClient(transport)
        do {
            _ = try await client.search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("a 401 is an error")
        } catch {
            XCTAssertEqual(error, .authentication(status: 401, code: "024", serverMessage: "bad key [redacted] for [redacted]"))
        }
        let redirect = StubTransport([
            .success(HTTPResponse(status: 302, headers: ["location": "https://elsewhere.test/?secret=mySecret01"])),
        ])
        let redirected = keyedClient(redirect)
        do {
            _ = try await redirected.search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("a 302 is an error")
        } catch {
            XCTAssertEqual(error, .redirected(status: 302, location: "https://elsewhere.test/?secret=[redacted]"))
        }
    }

    func testADataLabErrorQuotingTheKeysShowsNone() async throws {
        let keys = DataLabKeys(scheme: .apiHub, id: "hub-id-777", secret: "hub-key-888", bothSet: false)
        let transport = StubTransport([
            .success(HTTPResponse(status: 400, body: Array("X-NCP-APIGW-API-KEY-ID: hub-id-777 X-NCP-APIGW-API-KEY: hub-key-888".utf8))),
        ])
        let client = DataLabClient(base: URL(string: DataLabKeys.apiHubBase)!, keys: keys, transport: transport)
        let request = DataLabRequest(
            endpoint: .categories, range: TrendsRange(start: CalendarDate("2026-06-01")!, end: CalendarDate("2026-11-29")!, unit: .week),
            filters: TrendsFilters(), categories: [TrendsSeriesKey(name: "50000000", param: "50000000")])
        do {
            _ = try await client.send(request, periods: [], deadline: ContinuousClock.now.advanced(by: .seconds(5)), timeout: 5, label: "1/1")
            XCTFail("a 400 is an error")
        } catch {
            XCTAssertFalse(error.message.contains("hub-id-777"), error.message)
            XCTAssertFalse(error.message.contains("hub-key-888"), error.message)
        }
    }

    /// A 2xx answer is the data: left as it came.
    func testASuccessIsLeftAlone() async throws {
        let body = ContractFixture.bytes("search-current.json")
        let transport = StubTransport(status: 200, body: body)
        // A key that occurs in every answer ("items"): a 200 must still parse.
        let client = NaverClient(base: URL(string: "https://openapi.naver.com")!,
                                 credentials: NaverCredentials(clientID: "items", clientSecret: "total"), transport: transport)
        let page = try await client.search(SearchRequest(query: "후드티"), timeout: 5)
        XCTAssertEqual(page.items.count, 3)
    }
}
