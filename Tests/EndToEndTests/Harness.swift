import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

/// Runs the built binaries (`shopy`, `shopy-emulator`) as a user would.
enum Binary {
    /// The directory that holds the built products (beside the test bundle).
    static let productsDirectory: URL = {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
        #else
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
        #endif
    }()

    static func path(_ name: String) -> String { productsDirectory.appendingPathComponent(name).path }
}

/// What a finished process left (status, stdout, stderr, seconds).
typealias RunResult = ProcessOutput

/// Runs `shopy` with `arguments`: a clean environment (only what is given, plus PATH and a
/// private SHOPY_HOME unless given), no stdin. Both pipes are drained concurrently before
/// waiting, so large outputs cannot deadlock.
@discardableResult
func runShopy(_ arguments: [String], environment: [String: String] = [:], home: String? = nil, stdin: Data? = nil,
              timeout: Double = 60) throws -> RunResult {
    try runProcess(Binary.path("shopy"), arguments, environment: environment, home: home, stdin: stdin, timeout: timeout)
}

/// `executable` through ChildProcess.run, in the environment `runShopy` describes.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String] = [:], home: String? = nil,
                stdin: Data? = nil, timeout: Double = 60) throws -> RunResult {
    var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    env["SHOPY_HOME"] = home ?? TestHome.shared.path
    for (key, value) in environment { env[key] = value }
    return try ChildProcess.run(executable, arguments, environment: env, stdin: stdin, timeout: timeout)
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A private SHOPY_HOME per test class or test.
final class TestHome: @unchecked Sendable {
    static let shared = TestHome()
    let path: String

    init() {
        path = NSTemporaryDirectory() + "shopy-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A `shopy-emulator` process on an ephemeral loopback port.
final class EmulatorProcess: @unchecked Sendable {
    let process = Process()
    let baseURL: String
    static let id = "emulator-id"
    static let secret = "emulator-secret-\(UUID().uuidString.prefix(6))"

    /// The environment that points shopy at this emulator with valid keys.
    var environment: [String: String] {
        ["SHOPY_API_BASE": baseURL, "NAVER_CLIENT_ID": Self.id, "NAVER_CLIENT_SECRET": Self.secret]
    }

    init(_ options: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Binary.path("shopy-emulator"))
        process.arguments = ["--port", "0", "--client-id", Self.id, "--client-secret", Self.secret] + options
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line names the address.
        let text = ChildProcess.firstLine(of: out) ?? ""
        guard let url = text.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }), url.hasPrefix("http://") else {
            process.terminate()
            throw HarnessError("the emulator did not print its address: \(text)")
        }
        baseURL = url
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// `/_emulator/stats` as JSON.
    func stats() throws -> JSONValue {
        try JSONParser.parse(Array(try get("/_emulator/stats")))
    }

    func reset() throws { _ = try get("/_emulator/reset") }

    /// The number of /v1 requests the emulator received.
    func requestCount() throws -> Int { try stats()["requests"]?.intValue ?? -1 }

    func get(_ path: String) throws -> Data {
        let url = URL(string: baseURL + path)!
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Data, Error> = .failure(HarnessError("no answer"))
        URLSession.shared.dataTask(with: url) { data, _, error in
            if let data { result = .success(data) } else if let error { result = .failure(error) }
            semaphore.signal()
        }.resume()
        _ = semaphore.wait(timeout: .now() + 10)
        return try result.get()
    }
}

/// The repository's Fixtures folder.
let fixturesDirectory = Repository.fixtures()

/// Asserts an error report: exactly one `shopy: …` line, at most one `hint:` line after it.
func assertErrorReport(_ result: RunResult, status: Int32, contains fragments: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(result.status, status, "exit status; stderr: \(result.stderr)", file: file, line: line)
    let lines = result.stderrLines.filter { !$0.hasPrefix("shopy: searching the offline catalog") }
    XCTAssertTrue((1...2).contains(lines.count), "one error line and at most one hint: \(lines)", file: file, line: line)
    XCTAssertTrue(lines.first?.hasPrefix("shopy: ") ?? false, "error line: \(lines)", file: file, line: line)
    if lines.count == 2 { XCTAssertTrue(lines[1].hasPrefix("hint: "), "hint line: \(lines)", file: file, line: line) }
    for fragment in fragments {
        XCTAssertTrue(result.stderr.contains(fragment), "stderr should mention '\(fragment)': \(result.stderr)", file: file, line: line)
    }
    XCTAssertFalse(result.stderr.contains("Fatal error") || result.stderr.contains("Error Domain="), "no crash or NSError dump", file: file, line: line)
}
