#if os(Linux)
import Foundation
import XCTest
@testable import ShopYCore
import ShopYTestSupport

/// HTTP/2 where a TLS server offers it: a loopback server that speaks nothing but h2 over TLS
/// (Fixtures/transport/h2-server.py, Python's ssl with ALPN; a certificate made by openssl and
/// trusted by this transport instance alone, verification on) answers only a client that chose
/// h2, and says on which of its connections and streams each answer went.
final class CurlHTTP2Tests: XCTestCase {
    private var server: Process?
    private var directory = ""

    override func tearDown() {
        if let server {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        server = nil
    }

    private func executable(_ candidates: [String]) -> String? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The server's port, once it listens.
    private func startServer() throws -> Int {
        guard let openssl = executable(["/usr/bin/openssl"]) else { throw XCTSkip("needs /usr/bin/openssl to make a certificate") }
        guard let python = executable(["/usr/bin/python3", "/usr/local/bin/python3"]) else {
            throw XCTSkip("needs python3 (standard library ssl with ALPN) for the loopback HTTP/2 server")
        }
        directory = TestHome.shared.path + "/h2-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = try ChildProcess.run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem",
                                            "-out", directory + "/cert.pem", "-subj", "/CN=127.0.0.1", "-days", "1",
                                            "-addext", "subjectAltName=IP:127.0.0.1"], timeout: 30)
        guard made.status == 0 else { throw XCTSkip("openssl cannot make a certificate here: \(made.stderr)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [transportFixtures.appendingPathComponent("h2-server.py").path, directory + "/cert.pem", directory + "/key.pem"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty, (try? ChildProcess.run(python, ["-c", "import ssl; assert ssl.HAS_ALPN"]).status) != 0 {
            throw XCTSkip("this python3's ssl module has no ALPN: no HTTP/2 server can be made")
        }
        return try XCTUnwrap(Int(text), "the h2 server did not print its port: \(text)")
    }

    private static func get(_ transport: CurlTransport, _ url: String) async throws -> (connection: Int, stream: Int) {
        let response = try await transport.send(HTTPRequest(url: URL(string: url)!), deadline: .now + .seconds(10))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json")
        let answer = try JSONParser.parse(response.body)
        return (try XCTUnwrap(answer["connection"]?.intValue), try XCTUnwrap(answer["stream"]?.intValue))
    }

    func testHTTP2IsUsedWhereATLSServerOffersItAndOneConnectionCarriesEveryRequest() async throws {
        let port = try startServer()
        let transport = CurlTransport(trustingCertificatesIn: directory + "/cert.pem")
        let base = "https://127.0.0.1:\(port)"
        // One after another: one connection, one new stream each (client streams are odd: 1, 3, 5).
        var answers: [(connection: Int, stream: Int)] = []
        for page in 1...3 { answers.append(try await Self.get(transport, base + "/v1/search/shop.json?start=\(page)")) }
        XCTAssertEqual(answers.map(\.connection), [1, 1, 1])
        XCTAssertEqual(answers.map(\.stream), [1, 3, 5])
        // Side by side: multiplexed on that same connection.
        let together = try await withThrowingTaskGroup(of: (connection: Int, stream: Int).self) { group in
            for page in 1...4 { group.addTask { try await Self.get(transport, base + "/side/\(page)") } }
            var all: [(connection: Int, stream: Int)] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        XCTAssertEqual(together.map(\.connection), [1, 1, 1, 1])
        XCTAssertEqual(Set(together.map(\.stream)), [7, 9, 11, 13])
    }

    func testTheSystemTrustStoreStillRefusesThatServer() async throws {
        let port = try startServer()
        do {
            _ = try await CurlTransport.shared.send(HTTPRequest(url: URL(string: "https://127.0.0.1:\(port)/")!), deadline: .now + .seconds(10))
            XCTFail("a self-signed certificate must be refused by the shared transport")
        } catch {
            guard case .tls(.untrusted) = error else { return XCTFail("\(error)") }
        }
    }
}
#endif
@testable import ShopYBase
