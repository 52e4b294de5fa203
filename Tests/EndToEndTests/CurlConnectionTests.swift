#if os(Linux)
// The libcurl transport in process against the built emulator: kept-alive connections and
// requests in flight together, counted by the emulator itself (/_emulator/stats).
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class CurlConnectionTests: XCTestCase {
    private func send(_ url: String, headers: [(String, String)] = [], within seconds: Double = 5) async -> (Result<HTTPResponse, TransportError>, Double) {
        await Self.send(url, headers: headers, within: seconds)
    }

    private static func send(_ url: String, headers: [(String, String)] = [], within seconds: Double = 5) async -> (Result<HTTPResponse, TransportError>, Double) {
        let clock = ContinuousClock(), transport = CurlTransport.shared
        let start = clock.now
        let request = HTTPRequest(url: URL(string: url)!, headers: headers)
        let result: Result<HTTPResponse, TransportError>
        do {
            result = .success(try await transport.send(request, deadline: start.advanced(by: .milliseconds(Int64(seconds * 1000)))))
        } catch {
            result = .failure(error)
        }
        let elapsed = start.duration(to: clock.now)
        return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    func testSequentialRequestsReuseOneEmulatorConnection() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let headers = [("X-Naver-Client-Id", EmulatorProcess.id), ("X-Naver-Client-Secret", EmulatorProcess.secret)]
        for start in [1, 11, 21, 31, 41] {
            let (result, _) = await send(emulator.baseURL + "/v1/search/shop.json?query=%EC%83%9D%ED%99%9C&start=\(start)", headers: headers)
            XCTAssertEqual(try result.get().status, 200)
        }
        let (stats, _) = await send(emulator.baseURL + "/_emulator/stats")
        let json = try JSONParser.parse(try stats.get().body)
        XCTAssertEqual(json["requests"]?.intValue, 5)
        XCTAssertEqual(json["connections"]?.intValue, 1, "five searches and the stats on one kept-alive connection")
    }

    func testConcurrentRequestsAreInFlightTogether() async throws {
        let emulator = try EmulatorProcess(["--latency", "300"])
        defer { emulator.stop() }
        let headers = [("X-Naver-Client-Id", EmulatorProcess.id), ("X-Naver-Client-Secret", EmulatorProcess.secret)]
        let base = emulator.baseURL
        await withTaskGroup(of: Void.self) { group in
            for start in [1, 11, 21] {
                group.addTask {
                    _ = await CurlConnectionTests.send(base + "/v1/search/shop.json?query=%EC%83%9D%ED%99%9C&start=\(start)", headers: headers)
                }
            }
        }
        let json = try emulator.stats()
        XCTAssertEqual(json["requests"]?.intValue, 3)
        XCTAssertEqual(json["maxInFlight"]?.intValue, 3, "none of them waited for another's answer")
    }
}
#endif
