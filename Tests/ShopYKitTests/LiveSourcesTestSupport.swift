import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
@testable import ShopYCatalog

/// The providers' recorded shapes in Fixtures/elevenst and Fixtures/coupang (Fixtures/README.md
/// says where each shape comes from), and an in-process emulator with the live sources' keys.
enum LiveFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(path)))
    }
}

/// A fake source for the merge: a fixed page, or an error; with a `meeting`, it answers only
/// once every source of the meeting is being asked.
struct FixedSource: ProductSource {
    var kind: SourceKind
    var outcome: Result<[Product], SourceError>
    var total: Int? = nil
    var meeting: Meeting? = nil

    func search(_ request: SearchRequest) async throws -> SearchPage {
        await meeting?.arrive()
        let items = try outcome.get()
        return SearchPage(query: request.query, sort: request.sort, source: kind, total: total ?? items.count, start: request.start,
                          display: items.count, items: items)
    }
}

/// Holds each arrival until `count` have arrived, then lets them all go: searches asked one
/// after another never all arrive. Rather than hang, it lets them go after `patience` seconds
/// of real time, and `met` stays false.
final class Meeting: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private let patience: Double
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0
    private var together = false

    init(of count: Int, patience: Double = 20) {
        self.count = count
        self.patience = patience
    }

    /// Whether all `count` were waiting at once.
    var met: Bool { lock.withLock { together } }

    func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (released, first): ([CheckedContinuation<Void, Never>], Bool) = lock.withLock {
                arrived += 1
                waiting.append(continuation)
                guard arrived == count else { return ([], arrived == 1) }
                together = true
                defer { waiting = [] }
                return (waiting, false)
            }
            for waiter in released { waiter.resume() }
            if first { giveUpLater() }
        }
    }

    private func giveUpLater() {
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { [self] in
            let left: [CheckedContinuation<Void, Never>] = lock.withLock {
                defer { waiting = [] }
                return waiting
            }
            for waiter in left { waiter.resume() }
        }
    }
}

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
