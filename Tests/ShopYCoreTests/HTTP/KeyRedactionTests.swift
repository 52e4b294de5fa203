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

    /// A body whose JSON escapes spell a key (`\u0031` for `1`: how Gson, PHP and others write
    /// some characters) shows it only once decoded: the decoded message is redacted again; a
    /// key echoed in another case is redacted too; and a megabyte of message is cut.
    func testAnErrorMessageSpellingAKeyInEscapesOrAnotherCaseShowsNone() async {
        let escaped = #"{"errorMessage":"key mySecret\u00301 id MYCLIENTID0123456789","errorCode":"SE01"}"#
        let huge = #"{"errorMessage":""# + String(repeating: "y", count: 1_000_000) + #"","errorCode":""# + String(repeating: "C", count: 5000) + #""}"#
        let transport = StubTransport([
            .success(HTTPResponse(status: 400, body: Array(escaped.utf8))),
            .success(HTTPResponse(status: 400, body: Array(huge.utf8))),
        ])
        let client = keyedClient(transport)
        do {
            _ = try await client.search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("a 400 is an error")
        } catch {
            XCTAssertEqual(error, .rejected(status: 400, code: "SE01", serverMessage: "key [redacted] id [redacted]"))
        }
        do {
            _ = try await client.search(SearchRequest(query: "후드티"), timeout: 5)
            XCTFail("a 400 is an error")
        } catch {
            XCTAssertLessThan(error.message.count, 500, "cut, not a megabyte on one line")
            XCTAssertTrue(error.message.contains(String(repeating: "y", count: 300) + "…"), String(error.message.prefix(80)))
        }
        XCTAssertEqual(KeyRedaction.redact(["0123abcdef4567"], in: "echo 0123ABCDEF4567 and %30123abCDEF4567"), "echo [redacted] and [redacted]")
        // A key across the 300-character cut is taken out whole, never shown in part.
        let across = KeyRedaction.serverText(String(repeating: "x", count: 295) + "0123abcdef4567 tail", keys: ["0123abcdef4567"])
        XCTAssertEqual(across, String(repeating: "x", count: 295) + "[reda…")
        XCTAssertFalse(across.contains("0123"), across)
        XCTAssertEqual(KeyRedaction.serverText("short", keys: []), "short", "nothing cut, no …")
        // A body of another shape is shown as a snippet of its bytes: a key in it may be written
        // with JSON's or HTML's escapes.
        XCTAssertEqual(KeyRedaction.redact(["NaverIdKey123", "Sec/Ret+Val=456"],
                                           in: #"{"message":"NaverIdKey\u00312\u0033","k":["Sec\/Ret+Val=456"],"h":"Sec&#47;Ret&#x2B;Val=456"}"#),
                       #"{"message":"[redacted]","k":["[redacted]"],"h":"[redacted]"}"#)
        XCTAssertEqual(KeyRedaction.redact(["NaverIdKey123"], in: #"NaverIdKey\u0031 &#; &#x; \u12 %G1"#), #"NaverIdKey\u0031 &#; &#x; \u12 %G1"#,
                       "a near miss and broken escapes are left as they are")
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

    /// 11번가's key as it travels in the query, `+`, `/`, `=` and a non-ASCII letter included.
    static let urlKey = "ab+c/d=é"
    /// Every way the key can be written in a URL: as is, percent-encoded with upper or lower hex,
    /// or partly encoded (a proxy that re-encodes only what it must).
    static let urlKeyForms = ["ab+c/d=é", "ab%2Bc%2Fd%3D%C3%A9", "ab%2bc%2fd%3d%c3%a9", "ab%2Bc/d%3d%C3%a9", "ab+c/d=%C3%A9"]

    func testEveryURLFormOfAKeyIsReplaced() {
        XCTAssertEqual(RequestBuilder.percentEncode(Self.urlKey), "ab%2Bc%2Fd%3D%C3%A9", "what shopy sends")
        for form in Self.urlKeyForms {
            let text = "GET /openapi/OpenApiService.tmall?key=\(form)&apiCode=ProductSearch"
            XCTAssertEqual(KeyRedaction.redact([Self.urlKey], in: text), "GET /openapi/OpenApiService.tmall?key=[redacted]&apiCode=ProductSearch", form)
            let response = KeyRedaction.redact([Self.urlKey], in: HTTPResponse(status: 400, headers: ["location": "https://x.test/?key=" + form],
                                                                               body: Array(text.utf8)))
            XCTAssertEqual(response.headers["location"], "https://x.test/?key=[redacted]", form)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "GET /openapi/OpenApiService.tmall?key=[redacted]&apiCode=ProductSearch", form)
        }
        // What only looks like an encoding stays: a bad escape, another byte, a cut-off one.
        for other in ["ab%2Xc/d=é", "ab%2Cc/d=é", "ab%2Bc/d=%C3", "ab%2Bc/d=%C3%A", "ab%2"] {
            XCTAssertEqual(KeyRedaction.redact([Self.urlKey], in: other), other)
        }
    }

    /// 11번가 answers that quote the request URL (a redirect, an echoing error page, an error in a
    /// 200), and --verbose: no form of the key shows.
    func testAnElevenStreetKeyInTheURLNeverShows() async {
        let lower = "key=ab%2bc%2fd%3d%c3%a9"
        let xmlError = "<ProductSearchResponse><Error><Code>003</Code><Message>bad \(lower)</Message></Error></ProductSearchResponse>"
        let answers = [
            HTTPResponse(status: 302, headers: ["location": "https://elsewhere.test/?\(lower)"]),
            HTTPResponse(status: 400, body: Array("GET /openapi/OpenApiService.tmall?key=ab%2Bc%2Fd%3D%C3%A9&apiCode=ProductSearch".utf8)),
            HTTPResponse(status: 200, headers: ["content-type": "text/xml"], body: Array(xmlError.utf8)),
        ]
        for answer in answers {
            let lines = TraceText()
            let client = ElevenStreetClient(base: URL(string: "https://openapi.11st.co.kr")!, key: Self.urlKey, transport: StubTransport([.success(answer)]),
                                            retry: RetryPolicy(maxRetries: 0), trace: Tracer(write: { lines.append($0) }))
            do {
                _ = try await client.search(keyword: "에어팟", sortCode: "CP", pageNum: 1, pageSize: 3, timeout: 5)
                XCTFail("\(answer.status) is an error")
            } catch {
                let shown = lines.text.split(separator: "\n").map(String.init) + [error.message]
                for form in Self.urlKeyForms {
                    XCTAssertFalse(shown.contains { $0.contains(form) }, "\(answer.status) showed \(form): \(shown)")
                }
                XCTAssertTrue(shown.contains { $0.contains("> GET https://openapi.11st.co.kr/openapi/OpenApiService.tmall?key=[redacted]&apiCode=") },
                              "\(shown)")
                XCTAssertTrue(error.message.contains("[redacted]"), error.message)
            }
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
