// The emulator's DataLab (Sources/ShopYEmulator/DataLabAPI.swift, DataLabQuery.swift,
// DataLabSeries.swift): layouts and headers, the contract's checks, normalization, determinism.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYEmulator
@testable import ShopYBase

final class DataLabEmulatorTests: XCTestCase {
    typealias F = TrendsFixture

    func post(_ server: EmulatorServer, _ path: String, _ body: String, headers: [(String, String)]? = nil) async throws -> (Int, JSONValue?) {
        let headers = headers ?? [("X-NCP-APIGW-API-KEY-ID", F.id), ("X-NCP-APIGW-API-KEY", F.secret), ("Content-Type", "application/json")]
        let response = try await SystemTransport.shared.send(
            HTTPRequest(method: .post, url: URL(string: server.baseURL + path)!, headers: headers, body: Array(body.utf8)), deadline: .now + .seconds(10))
        return (response.status, try? JSONParser.parse(response.body))
    }

    let head = #""startDate":"2026-09-01","endDate":"2026-11-29","timeUnit":"week""#

    func testAnswersAreNormalizedAndDeterministic() async throws {
        let server = try startDataLab()
        let body = "{\(head),\"category\":[{\"name\":\"a\",\"param\":[\"50000000\"]},{\"name\":\"b\",\"param\":[\"50000006\"]}]}"
        let (status, answer) = try await post(server, "/shopping/v1/categories", body)
        XCTAssertEqual(status, 200)
        let results = try XCTUnwrap(answer?["results"]?.arrayValue)
        XCTAssertEqual(results.map { $0["title"] }, [.string("a"), .string("b")])
        XCTAssertEqual(results[0]["category"], .array([.string("50000000")]))
        let ratios = results.flatMap { $0["data"]!.arrayValue! }.map { Double($0["ratio"]!.textValue!)! }
        XCTAssertEqual(ratios.max(), 100, "the largest value of the answer is 100")
        XCTAssertTrue(ratios.allSatisfy { $0 > 0 && $0 <= 100 })
        XCTAssertEqual(results[0]["data"]!.arrayValue!.first?["period"], .string("2026-09-01"))
        let (_, again) = try await post(server, "/shopping/v1/categories", body)
        XCTAssertEqual(again, answer, "deterministic")
        // The same series next to a bigger one is scaled down, in proportion.
        let (_, alone) = try await post(server, "/shopping/v1/categories", "{\(head),\"category\":[{\"name\":\"a\",\"param\":[\"50000000\"]}]}")
        XCTAssertEqual(alone?["results"]?.arrayValue?[0]["data"]?.arrayValue?.map { Double($0["ratio"]!.textValue!)! }.max(), 100)

        let (developers, _) = try await post(server, "/v1/datalab/shopping/category/gender", "{\(head),\"category\":\"50000000\"}",
                                             headers: [("X-Naver-Client-Id", F.id), ("X-Naver-Client-Secret", F.secret), ("Content-Type", "application/json")])
        XCTAssertEqual(developers, 200)
        let (_, ages) = try await post(server, "/shopping/v1/category/keyword/age", "{\(head),\"category\":\"50000000\",\"keyword\":\"원피스\",\"ages\":[\"20\",\"30\"]}")
        let groups = Set(ages?["results"]?.arrayValue?[0]["data"]?.arrayValue?.compactMap { $0["group"]?.stringValue } ?? [])
        XCTAssertEqual(groups, ["20", "30"], "an age breakdown under --ages has those groups only")
    }

    func testContractChecks() async throws {
        let server = try startDataLab()
        let four = (0..<4).map { "{\"name\":\"c\($0)\",\"param\":[\"5000000\($0)\"]}" }.joined(separator: ",")
        let six = (0..<6).map { "{\"name\":\"k\($0)\",\"param\":[\"k\($0)\"]}" }.joined(separator: ",")
        let cases: [(String, String, Int)] = [
            ("/shopping/v1/categories", "{\(head),\"category\":[\(four)]}", 400),
            ("/shopping/v1/category/keywords", "{\(head),\"category\":\"50000000\",\"keyword\":[\(six)]}", 400),
            ("/shopping/v1/categories", #"{"startDate":"2017-07-31","endDate":"2017-09-30","timeUnit":"month","category":[{"name":"a","param":["50000000"]}]}"#, 400),
            ("/shopping/v1/categories", #"{"startDate":"2026-02-30","endDate":"2026-09-30","timeUnit":"month","category":[{"name":"a","param":["50000000"]}]}"#, 400),
            ("/shopping/v1/categories", #"{"startDate":"2026-10-01","endDate":"2026-09-30","timeUnit":"month","category":[{"name":"a","param":["50000000"]}]}"#, 400),
            ("/shopping/v1/categories", "{\(head.replacingOccurrences(of: "week", with: "year")),\"category\":[{\"name\":\"a\",\"param\":[\"50000000\"]}]}", 400),
            ("/shopping/v1/category/device", "{\(head),\"category\":\"50000000\",\"device\":null}", 400),
            ("/shopping/v1/category/device", "{\(head),\"category\":\"50000000\",\"gender\":\"x\"}", 400),
            ("/shopping/v1/category/device", "{\(head),\"category\":\"50000000\",\"ages\":[\"25\"]}", 400),
            ("/shopping/v1/category/device", "{\(head),\"category\":\"50000000\",\"device\":\"\",\"gender\":\"\",\"ages\":[]}", 200),
            ("/shopping/v1/category/keyword/device", "{\(head),\"category\":\"50000000\"}", 400),
            ("/shopping/v1/category/colors", "{\(head),\"category\":\"50000000\"}", 404),
            ("/shopping/v1/categories", "not json", 400),
        ]
        for (path, body, expected) in cases {
            let (status, answer) = try await post(server, path, body)
            XCTAssertEqual(status, expected, "\(path) \(body): \(String(describing: answer))")
            if expected == 400 { XCTAssertNotNil(answer?["errorMessage"]?.stringValue) }
        }
        let (wrongScheme, error) = try await post(server, "/shopping/v1/category/device", "{\(head),\"category\":\"50000000\"}",
                                                  headers: [("X-Naver-Client-Id", F.id), ("X-Naver-Client-Secret", F.secret), ("Content-Type", "application/json")])
        XCTAssertEqual(wrongScheme, 401)
        XCTAssertEqual(error?["errorCode"], .string("024"))
        let get = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + "/shopping/v1/categories")!), deadline: .now + .seconds(5))
        XCTAssertEqual(get.status, 405)
        let stats = try await F.stats(server)
        XCTAssertEqual(stats["requests"], .int(cases.count + 2))
        XCTAssertEqual(stats["lastPath"], .string("/shopping/v1/categories"))
    }

    func testKeywordsWithoutClicksAndQuietDaysAreLeftOut() async throws {
        let server = try startDataLab()
        let body = "{\"startDate\":\"2026-10-01\",\"endDate\":\"2026-11-29\",\"timeUnit\":\"date\",\"category\":\"50000000\",\"keyword\":[{\"name\":\"n\",\"param\":[\"noclick-1\"]},"
            + (1...4).map { "{\"name\":\"k\($0)\",\"param\":[\"kw\($0)\"]}" }.joined(separator: ",") + "]}"
        let (status, answer) = try await post(server, "/shopping/v1/category/keywords", body)
        XCTAssertEqual(status, 200)
        let results = try XCTUnwrap(answer?["results"]?.arrayValue)
        XCTAssertEqual(results[0]["data"]?.arrayValue?.count, 0, "no clicks, no periods")
        XCTAssertTrue(results.dropFirst().contains { ($0["data"]?.arrayValue?.count ?? 0) < 60 }, "some days without clicks are missing")
    }

    func testThrottleQuotaAndContentTypeAreDataLabsOwn() async throws {
        let server = try startDataLab { $0.rateLimit = 1; $0.quota = 2 }
        let body = "{\(head),\"category\":\"50000000\"}"
        let (first, _) = try await post(server, "/shopping/v1/category/device", body)
        let (second, throttled) = try await post(server, "/shopping/v1/category/device", body)
        XCTAssertEqual(first, 200)
        XCTAssertEqual(second, 429)
        XCTAssertEqual(throttled?["errorCode"], .string("012"))
        let (third, quota) = try await post(server, "/shopping/v1/category/device", body)
        XCTAssertEqual(third, 429)
        XCTAssertEqual(quota?["errorCode"], .string("010"))
        let (noType, _) = try await post(server, "/_emulator/datalab/category/device", body, headers: [])
        XCTAssertEqual(noType, 200, "the ground truth needs no keys")
        let search = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + "/_emulator/stats")!), deadline: .now + .seconds(5))
        XCTAssertEqual(try JSONParser.parse(search.body)["requests"], .int(0), "DataLab requests are not the search API's")
        let fresh = try startDataLab()
        let (plain, error) = try await post(fresh, "/shopping/v1/category/device", body,
                                            headers: [("X-NCP-APIGW-API-KEY-ID", F.id), ("X-NCP-APIGW-API-KEY", F.secret)])
        XCTAssertEqual(plain, 400, "Content-Type: application/json is required")
        XCTAssertTrue(error?["errorMessage"]?.stringValue?.contains("Content-Type") ?? false)
    }
}

