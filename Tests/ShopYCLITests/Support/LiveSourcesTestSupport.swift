import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
@testable import ShopYCatalog
import ShopYTestSupport

extension XCTestCase {
    /// An emulator on an ephemeral loopback port, stopped after the test.
    func liveEmulator(catalog: Catalog = .embedded, _ configure: (inout EmulatorConfig) -> Void = { _ in }) throws -> EmulatorServer {
        var config = EmulatorConfig()
        configure(&config)
        let server = EmulatorServer(config: config, catalog: catalog)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// The environment that points every live source at `server` with the emulator's keys.
    func liveEnvironment(_ server: EmulatorServer, home: String, sources: Set<SourceKind> = [.elevenst, .coupang]) -> [String: String] {
        var environment = ["SHOPY_HOME": home]
        if sources.contains(.elevenst) {
            environment["SHOPY_11ST_BASE"] = server.baseURL
            environment["ELEVENST_API_KEY"] = server.config.elevenStreetKey
        }
        if sources.contains(.coupang) {
            environment["SHOPY_COUPANG_BASE"] = server.baseURL
            environment["COUPANG_ACCESS_KEY"] = server.config.coupangAccessKey
            environment["COUPANG_SECRET_KEY"] = server.config.coupangSecretKey
        }
        if sources.contains(.naver) {
            environment["SHOPY_API_BASE"] = server.baseURL
            environment["NAVER_CLIENT_ID"] = server.config.clientID
            environment["NAVER_CLIENT_SECRET"] = server.config.clientSecret
        }
        return environment
    }

    /// A fresh store directory, removed after the test.
    func scratchHome() -> String {
        let path = NSTemporaryDirectory() + "shopy-live-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// `shopy` in process with the real transport (libcurl), for runs against an emulator.
    func shopy(_ arguments: [String], environment: [String: String], terminal: Bool = false, columns: Int? = nil) async -> CLIRun {
        var environment = environment
        if let columns { environment["COLUMNS"] = String(columns) }
        let io = IO.capture(environment: environment, stdoutIsTerminal: terminal)
        let code = await ShopY.main(arguments, io: io, transport: SystemTransport.shared)
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }
}

extension EmulatorServer {
    /// `/_emulator/stats` as JSON.
    func stats() async throws -> JSONValue {
        let response = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: baseURL + "/_emulator/stats")!),
                                                             deadline: .now.advanced(by: .seconds(5)))
        return try JSONParser.parse(response.body)
    }

    /// Requests the emulator's `api` (`elevenst`, `coupang`) received.
    func requests(_ api: String) async throws -> Int {
        try await stats()[api]?["requests"]?.intValue ?? -1
    }
}
