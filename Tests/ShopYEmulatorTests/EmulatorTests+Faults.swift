// The emulator (continued): faults; decoding, stats and concurrency; its command line.

import Foundation
import XCTest
@testable import ShopYEmulator
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

extension EmulatorTests {
    // MARK: - Faults

    func testFault500WithRetryAfter() throws {
        let server = try startServer { $0.fault = .serverError; $0.retryAfterSeconds = 7 }
        let response = search(server, "query=a")
        XCTAssertEqual(response.status, 500)
        XCTAssertEqual(errorBody(response), WireErrorBody(errorMessage: "System error (시스템 에러)", errorCode: "SE99"))
        XCTAssertEqual(response.headers["retry-after"], "7")
        // Faults only hit requests that passed every check.
        XCTAssertEqual(errorCode(search(server, "query=")), "SE01")
    }

    func testFaultThrottleAndQuota() throws {
        let throttle = try startServer { $0.fault = .throttle }
        let throttled = search(throttle, "query=a")
        XCTAssertEqual(throttled.status, 429)
        XCTAssertEqual(errorCode(throttled), "012")
        XCTAssertEqual(stats(throttle)["throttled"]?.intValue, 1)

        let quota = try startServer { $0.fault = .quota; $0.quota = 100 }
        let limited = search(quota, "query=a")
        XCTAssertEqual(limited.status, 429)
        XCTAssertEqual(errorBody(limited)?.errorCode, "010")
        XCTAssertEqual(errorBody(limited)?.errorMessage, "{count/quota=101/100} : Query limit exceeded. (쿼리 한도를 초과했습니다.)")
    }

    func testFaultMalformedIsCompleteHTTPButNotJSON() throws {
        let server = try startServer { $0.fault = .malformed }
        let response = search(server, "query=a")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.closedByPeer)
        XCTAssertEqual(response.headers["content-length"], String(response.body.count))
        XCTAssertEqual(response.body.first, UInt8(ascii: "{"))
        XCTAssertThrowsError(try JSONParser.parse(response.body))
    }

    func testFaultTruncatedSendsLessThanContentLength() throws {
        let server = try startServer { $0.fault = .truncated }
        let response = search(server, "query=\(encode("방충망"))&display=20")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.closedByPeer)
        let announced = try XCTUnwrap(response.headers["content-length"].flatMap { Int($0) })
        XCTAssertGreaterThan(response.body.count, 0)
        XCTAssertLessThan(response.body.count, announced)
        XCTAssertEqual(response.body.count, announced / 2)
    }

    func testFaultDropClosesWithoutAByte() throws {
        let server = try startServer { $0.fault = .drop }
        let response = search(server, "query=a")
        XCTAssertTrue(response.closedByPeer)
        XCTAssertEqual(response.bytes, [])
        XCTAssertEqual(stats(server)["dropped"]?.intValue, 1)
    }

    func testFaultSlowTricklesTheBody() throws {
        // One byte a minute after the first 16: whatever the load, the read (a second) ends
        // with the body cut short and the connection still open.
        let server = try startServer { $0.fault = .slow; $0.slowByteIntervalMilliseconds = 60_000 }
        let response = search(server, "query=a", readFor: 1.0)
        XCTAssertFalse(response.closedByPeer, "the body cannot be complete after a second")
        XCTAssertEqual(response.body.count, 16, "the first 16 bytes, then one a minute")
        XCTAssertEqual(response.status, 200)
        let announced = try XCTUnwrap(response.headers["content-length"].flatMap { Int($0) })
        XCTAssertGreaterThan(response.body.count, 0)
        XCTAssertLessThan(response.body.count, announced)
    }

    func testFaultCountLimitsInjectionUntilReset() throws {
        let server = try startServer { $0.fault = .serverError; $0.faultCount = 2 }
        XCTAssertEqual(search(server, "query=a").status, 500)
        XCTAssertEqual(search(server, "query=a").status, 500)
        XCTAssertEqual(search(server, "query=a").status, 200)
        XCTAssertEqual(search(server, "query=a").status, 200)
        XCTAssertEqual(stats(server)["faultsInjected"]?.intValue, 2)
        _ = request(server, "/_emulator/reset")
        XCTAssertEqual(search(server, "query=a").status, 500)
    }

    // MARK: - Decoding, stats, concurrency

    func testPlusIsSpaceAndEncodedPlusIsPlus() throws {
        let server = try startServer()
        _ = search(server, "query=a+b")
        XCTAssertEqual(stats(server)["lastQuery"]?.stringValue, "a b")
        _ = search(server, "query=a%2Bb&display=5")
        let after = stats(server)
        XCTAssertEqual(after["lastQuery"]?.stringValue, "a+b")
        XCTAssertEqual(after["lastParams"]?["display"]?.stringValue, "5")
        _ = search(server, "query=\(encode("방충망"))")
        XCTAssertEqual(stats(server)["lastQuery"]?.stringValue, "방충망")
        _ = search(server, "query=%FF")
        XCTAssertEqual(stats(server)["lastQuery"], .null, "an undecodable query has no decoded value")
    }

    func testFormDecoding() {
        XCTAssertEqual(FormDecoding.decode(Array("a+b%2B%EB%B0%A9".utf8)[...]), "a b+방")
        XCTAssertNil(FormDecoding.decode(Array("%G1".utf8)[...]))
        XCTAssertNil(FormDecoding.decode(Array("%C3".utf8)[...]))
        XCTAssertEqual(FormDecoding.parameters(Array("a=1&&b&c=%ZZ".utf8)),
                       [.init(name: "a", value: "1", wellFormed: true), .init(name: "b", value: "", wellFormed: true),
                        .init(name: "c", value: "%ZZ", wellFormed: false)])
    }

    func testStatsCountAndReset() throws {
        let server = try startServer()
        _ = search(server, "query=a")
        _ = search(server, "query=a")
        _ = request(server, "/v1/search/shop.json?query=a", headers: [])
        _ = search(server, "query=a&display=0")
        _ = request(server, "/v1/other")
        let counted = stats(server)
        XCTAssertEqual(counted["requests"]?.intValue, 5)
        XCTAssertEqual(counted["status"]?["200"]?.intValue, 2)
        XCTAssertEqual(counted["status"]?["401"]?.intValue, 1)
        XCTAssertEqual(counted["status"]?["400"]?.intValue, 1)
        XCTAssertEqual(counted["status"]?["404"]?.intValue, 1)
        XCTAssertEqual(counted["maxInFlight"]?.intValue, 1)
        XCTAssertEqual(counted["lastParams"]?.objectValue?.count, 0)

        let reset = request(server, "/_emulator/reset")
        XCTAssertEqual(reset.status, 200)
        XCTAssertEqual(reset.json, .object(JSONObject(["ok": .bool(true)])))
        let zero = stats(server)
        XCTAssertEqual(zero["requests"]?.intValue, 0)
        XCTAssertEqual(zero["status"]?.objectValue?.count, 0)
        XCTAssertEqual(zero["lastQuery"], .null)
        XCTAssertEqual(zero["throttled"]?.intValue, 0)
    }

    func testLatencyDelaysWithoutBlockingOtherConnections() throws {
        let server = try startServer { $0.latencyMilliseconds = 600 }
        let group = DispatchGroup()
        let statuses = StatusBox()
        for _ in 0..<4 {
            group.enter()
            let thread = Thread {
                statuses.append(EmulatorTests.search(server, "query=a").status)
                group.leave()
            }
            thread.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(statuses.values, [200, 200, 200, 200])
        // Each answer is held for the latency, and none holds up another: all four were held
        // at once (served one after another, at most one would be).
        XCTAssertEqual(try XCTUnwrap(stats(server)["maxInFlight"]?.intValue), 4)
    }

    func testItemsFileServesDeepResults() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-items-\(getpid()).json")
        let items = (1...1500).map { n in
            WireItem(title: "테스트 항목 \(n)", link: "https://example.com/\(n)", lprice: String(1000 + n),
                     mallName: "몰", productId: String(90_000_000_000 + n), productType: "2").json
        }
        try Data(JSONWriter.serialize(.array(items))).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let config = try EmulatorCommandLine.parse(["--items", url.path])
        let catalog = try EmulatorCommandLine.catalog(for: config)
        XCTAssertEqual(catalog.items.count, 1500)
        let server = try startServer(catalog: catalog)
        let deepest = try XCTUnwrap(search(server, "query=\(encode("테스트"))&start=1000&display=100").json)
        XCTAssertEqual(deepest["total"]?.intValue, 1500)
        XCTAssertEqual(deepest["start"]?.intValue, 1000)
        XCTAssertEqual(deepest["display"]?.intValue, 100)
        XCTAssertEqual(deepest["items"]?.arrayValue?.count, 100)
    }

    // MARK: - Command line

    func testCommandLineParsesEveryOption() throws {
        XCTAssertEqual(try EmulatorCommandLine.parse([]), EmulatorConfig())
        let config = try EmulatorCommandLine.parse([
            "--host", "::1", "--port=8080", "--client-id", "id", "--client-secret", "secret", "--rate-limit", "10",
            "--quota", "25000", "--latency", "50", "--fault", "truncated", "--fault-count", "3", "--retry-after", "2",
            "--retired", "--items", "/tmp/items.json", "--log",
        ])
        XCTAssertEqual(config.host, "::1")
        XCTAssertEqual(config.port, 8080)
        XCTAssertEqual(config.clientID, "id")
        XCTAssertEqual(config.clientSecret, "secret")
        XCTAssertEqual(config.rateLimit, 10)
        XCTAssertEqual(config.quota, 25000)
        XCTAssertEqual(config.latencyMilliseconds, 50)
        XCTAssertEqual(config.fault, .truncated)
        XCTAssertEqual(config.faultCount, 3)
        XCTAssertEqual(config.retryAfterSeconds, 2)
        XCTAssertTrue(config.retired)
        XCTAssertEqual(config.itemsFile, "/tmp/items.json")
        XCTAssertTrue(config.log)
        XCTAssertEqual(try EmulatorCommandLine.parse(["--fault", "500"]).fault, .serverError)
        for option in ["--host", "--port", "--client-id", "--client-secret", "--rate-limit", "--quota", "--latency",
                       "--fault", "--fault-count", "--retry-after", "--retired", "--items", "--log", "--help"] {
            XCTAssertTrue(EmulatorCommandLine.usage.contains(option), option)
        }
    }

    func testCommandLineErrors() {
        func failure(_ args: [String]) -> EmulatorCommandLineError? {
            do {
                _ = try EmulatorCommandLine.parse(args)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(failure(["--bogus"]), .unknownOption("--bogus"))
        XCTAssertEqual(failure(["--port"]), .missingValue(option: "--port"))
        XCTAssertEqual(failure(["--port", "http"])?.exitCode, 64)
        XCTAssertEqual(failure(["--port", "70000"])?.exitCode, 64)
        XCTAssertEqual(failure(["--latency", "-5"])?.exitCode, 64)
        XCTAssertEqual(failure(["--fault", "explode"])?.exitCode, 64)
        XCTAssertEqual(failure(["--host", "not a host"])?.exitCode, 64)
        XCTAssertEqual(failure(["--retired=yes"]), .unexpectedValue(option: "--retired"))
        XCTAssertEqual(failure(["serve"]), .unexpectedArgument("serve"))
        XCTAssertEqual(failure(["--fault-count", "2"]), .faultCountWithoutFault)
        XCTAssertEqual(failure(["-h"]), .helpRequested)
        XCTAssertEqual(failure(["--port", "1", "--help"]), .helpRequested)
        XCTAssertTrue(failure(["--bogus"])!.description.contains("--bogus"))

        var config = EmulatorConfig()
        config.itemsFile = "/nonexistent/items.json"
        XCTAssertThrowsError(try EmulatorCommandLine.catalog(for: config)) { error in
            XCTAssertEqual((error as? EmulatorCommandLineError)?.exitCode, 66)
        }
    }
}
