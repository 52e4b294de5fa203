// Helpers the emulator's tests share: an in-process emulator on an ephemeral loopback port
// (with the live sources, or with DataLab), a scratch store, and DataLab's keys and counters.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYEmulator
@testable import ShopYBase
@testable import ShopYCatalog

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

    /// A fresh store directory, removed after the test.
    func scratchHome() -> String {
        let path = NSTemporaryDirectory() + "shopy-live-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// An emulator serving DataLab, stopped after the test.
    func startDataLab(_ configure: (inout EmulatorConfig) -> Void = { _ in }) throws -> EmulatorServer {
        var config = EmulatorConfig()
        configure(&config)
        let server = EmulatorServer(config: config)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }
}

/// DataLab's side of the emulator: the keys it accepts and its counters.
enum TrendsFixture {
    static let id = "emulator-id"
    static let secret = "emulator-secret"

    /// The emulator's DataLab counters.
    static func stats(_ server: EmulatorServer) async throws -> JSONValue {
        let response = try await SystemTransport.shared.send(HTTPRequest(url: URL(string: server.baseURL + "/_emulator/datalab/stats")!),
                                                                 deadline: .now + .seconds(10))
        return try JSONParser.parse(response.body)
    }
}
