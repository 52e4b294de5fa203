// Helpers for the trends tests: an in-process emulator with DataLab, a recording transport,
// a stub transport, a fixed "today", and the emulator's ground truth.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase

/// Passes requests on (to URLSession by default) and keeps a copy of each.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    let inner: any HTTPTransport
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []

    init(_ inner: any HTTPTransport = SystemTransport.shared) { self.inner = inner }

    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try await inner.send(request, deadline: deadline)
    }
}

/// Answers every request with one fixed response.
struct FixedAnswerTransport: HTTPTransport {
    var status: Int
    var body: String
    var headers: [String: String] = [:]

    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.merging(["content-type": "application/json"]) { a, _ in a }, body: Array(body.utf8))
    }
}

extension HTTPRequest {
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var bodyText: String { String(decoding: body ?? [], as: UTF8.self) }
}

enum TrendsFixture {
    /// 2026-12-01 12:00 in Korea.
    static let now = Date(timeIntervalSince1970: Double(CalendarDate("2026-12-01")!.dayNumber * 86_400 + 3 * 3600))
    static let id = "emulator-id"
    static let secret = "emulator-secret"

    static func apiHub(_ server: EmulatorServer) -> [String: String] {
        ["SHOPY_DATALAB_BASE": server.baseURL + "/shopping/v1", "NAVER_API_HUB_KEY_ID": id, "NAVER_API_HUB_KEY": secret]
    }

    static func developers(_ server: EmulatorServer) -> [String: String] {
        ["SHOPY_DATALAB_BASE": server.baseURL + "/v1/datalab/shopping", "NAVER_CLIENT_ID": id, "NAVER_CLIENT_SECRET": secret]
    }

    static func run(_ arguments: [String], environment: [String: String], transport: any HTTPTransport,
                    terminal: Bool = false, columns: Int? = nil, clock: any TimerClock = SystemClock()) async -> CLIRun {
        var io = IO.capture(environment: environment, stdoutIsTerminal: terminal, columns: columns, now: { now })
        io.clock = clock
        let code = await ShopY.main(["trends"] + arguments, io: io, transport: transport)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    /// What one request with every series gives, from the emulator's hidden endpoint, as
    /// the 5-decimal text shopy writes: [name or code: [ratio]].
    static func groundTruth(_ server: EmulatorServer, _ request: DataLabRequest) async throws -> [String: [String]] {
        let url = URL(string: server.baseURL + "/_emulator/datalab" + request.endpoint.path)!
        let response = try await SystemTransport.shared.send(
            HTTPRequest(method: .post, url: url, headers: [("Content-Type", "application/json")], body: request.bodyBytes),
            deadline: .now + .seconds(10))
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        let answer = try DataLabAnswer(body: response.body, request: request, periods: request.range.periods)
        var out: [String: [String]] = [:]
        for series in answer.series { out[series.key.name] = series.values.map(TrendsOutput.decimal) }
        return out
    }

    /// The emulator's DataLab counters.
    static func stats(_ server: EmulatorServer) async throws -> JSONValue {
        let response = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + "/_emulator/datalab/stats")!),
                                                                 deadline: .now + .seconds(10))
        return try JSONParser.parse(response.body)
    }

    /// The series of a `--format json` run: [code or keyword: [ratio text]].
    static func ratios(_ run: CLIRun) throws -> [String: [String]] {
        let json = try JSONParser.parse(run.stdout)
        var out: [String: [String]] = [:]
        for series in json["series"]?.arrayValue ?? [] {
            let key = series["code"]?.stringValue ?? series["keyword"]!.stringValue!
            out[key] = (series["points"]?.arrayValue ?? []).map { $0["ratio"]!.textValue! }
        }
        return out
    }
}

extension XCTestCase {
    func startDataLab(_ configure: (inout EmulatorConfig) -> Void = { _ in }) throws -> EmulatorServer {
        var config = EmulatorConfig()
        configure(&config)
        let server = EmulatorServer(config: config)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }
}
