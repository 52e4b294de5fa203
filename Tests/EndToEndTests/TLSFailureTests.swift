#if os(Linux)
// A secure connection that fails says why, with what to do (Sources/ShopYCore/HTTP/TLSFailure.swift):
// the built shopy against loopback TLS servers (openssl s_server) with a self-signed, an
// expired and a wrong-host certificate, a certificate from a CA trusted through SSL_CERT_FILE,
// an unreadable SSL_CERT_FILE, and a plain HTTP server (a loopback listener) behind an https:// address.

import Foundation
import XCTest
import ShopYTestSupport

final class TLSFailureTests: XCTestCase {
    static let openssl = "/usr/bin/openssl"
    var home = TestHome()
    var directory = ""
    var servers: [Process] = []

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.openssl) else { throw XCTSkip("needs \(Self.openssl) to make certificates and serve TLS") }
        directory = home.path + "/tls"
        try FileManager.default.createDirectory(atPath: directory + "/db", withIntermediateDirectories: true)
    }

    override func tearDown() {
        for server in servers {
            kill(server.processIdentifier, SIGKILL)  // s_server may outlive a SIGTERM
            server.waitUntilExit()
        }
        home.remove()
    }

    @discardableResult
    func openssl(_ arguments: [String]) throws -> RunResult {
        let result = try runProcess(Self.openssl, arguments, timeout: 30)
        guard result.status == 0 else { throw XCTSkip("openssl \(arguments.first ?? "") failed here: \(result.stderr)") }
        return result
    }

    /// A P-256 key and a certificate request for CN=127.0.0.1.
    func request(_ name: String) throws {
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "\(directory)/\(name).key",
                     "-out", "\(directory)/\(name).csr", "-subj", "/CN=127.0.0.1"])
    }

    /// The test CA, a leaf for 127.0.0.1 it signed, one for another host, and one that expired in 2020.
    func makeCertificates() throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", directory + "/ca.key",
                     "-out", directory + "/ca.pem", "-subj", "/CN=shopy test CA", "-days", "2"])
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", directory + "/self.key",
                     "-out", directory + "/self.pem", "-subj", "/CN=127.0.0.1", "-days", "2", "-addext", "subjectAltName=IP:127.0.0.1"])
        try request("leaf")
        for (name, san) in [("good", "IP:127.0.0.1"), ("wrong", "DNS:elsewhere.example")] {
            try "subjectAltName=\(san)\n".write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8)
            try openssl(["x509", "-req", "-in", directory + "/leaf.csr", "-CA", directory + "/ca.pem", "-CAkey", directory + "/ca.key",
                         "-set_serial", name == "good" ? "2" : "3", "-days", "2", "-extfile", "\(directory)/\(name).ext", "-out", "\(directory)/\(name).pem"])
        }
        // `openssl ca` can date a certificate in the past.
        try "".write(toFile: directory + "/db/index.txt", atomically: true, encoding: .utf8)
        try "04\n".write(toFile: directory + "/db/serial", atomically: true, encoding: .utf8)
        try """
            [ca]
            default_ca = test
            [test]
            database = \(directory)/db/index.txt
            serial = \(directory)/db/serial
            new_certs_dir = \(directory)/db
            default_md = sha256
            policy = any
            x509_extensions = leaf
            [any]
            commonName = supplied
            [leaf]
            subjectAltName = IP:127.0.0.1
            """.write(toFile: directory + "/ca.cnf", atomically: true, encoding: .utf8)
        try openssl(["ca", "-batch", "-config", directory + "/ca.cnf", "-cert", directory + "/ca.pem", "-keyfile", directory + "/ca.key",
                     "-in", directory + "/leaf.csr", "-out", directory + "/expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z"])
    }

    /// An `openssl s_server -www` with `certificate`; its https:// base once it listens.
    func serve(_ certificate: String, key: String) throws -> String {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.openssl)
        server.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", "\(directory)/\(certificate).pem", "-key", "\(directory)/\(key).key", "-www"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        servers.append(server)
        // It names its port once it listens.
        guard let line = ChildProcess.firstLine(of: output, where: { $0.hasPrefix("ACCEPT ") }), let port = line.split(separator: ":").last else {
            throw XCTSkip("openssl s_server did not start here")
        }
        return "https://127.0.0.1:\(port)"
    }

    func search(_ base: String, _ extra: [String: String] = [:]) throws -> RunResult {
        var environment = ["SHOPY_API_BASE": base, "NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret"]
        environment.merge(extra) { _, new in new }
        return try runShopy(["search", "방충망", "--source", "naver", "--timeout", "10"], environment: environment, home: home.path)
    }

    func testEachCauseIsNamedWithItsHint() throws {
        try makeCertificates()
        let trustCA = ["SSL_CERT_FILE": directory + "/ca.pem"]

        let selfSigned = try search(try serve("self", key: "self"))
        assertErrorReport(selfSigned, status: 69, contains: ["the secure connection to 127.0.0.1 failed: its certificate is not trusted (self", "hint: ", "SSL_CERT_FILE"])

        let expired = try search(try serve("expired", key: "leaf"), trustCA)
        assertErrorReport(expired, status: 69, contains: ["failed: its certificate has expired", "hint: check this machine's clock"])

        let wrongHost = try search(try serve("wrong", key: "leaf"), trustCA)
        assertErrorReport(wrongHost, status: 69, contains: ["failed: its certificate is for another host name", "hint: check the host in SHOPY_API_BASE"])

        // The CA trusted through SSL_CERT_FILE: TLS passes, and what answers is not the API.
        let base = try serve("good", key: "leaf")
        let trusted = try search(base, trustCA)
        XCTAssertFalse(trusted.stderr.contains("secure connection"), "SSL_CERT_FILE's CA is trusted: \(trusted.stderr)")
        XCTAssertNotEqual(trusted.status, 0, trusted.stderr)
        XCTAssertTrue(try search(base).stderr.contains("its certificate is not trusted"), "without it the system's store does not know that CA")

        let unreadable = try search(base, ["SSL_CERT_FILE": directory + "/missing.pem"])
        assertErrorReport(unreadable, status: 69, contains: ["failed: the trusted certificates cannot be read", "hint: point SSL_CERT_FILE"])
        XCTAssertEqual(try runShopy(["trends", "categories", "--from", "2026-11-01", "--to", "2026-11-29"],
                                    environment: ["SHOPY_DATALAB_BASE": base + "/shopping/v1", "NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key",
                                                  "SSL_CERT_FILE": directory + "/missing.pem"], home: home.path).stderr.contains("trusted certificates cannot be read"),
                       true, "DataLab says the same")
    }

    /// OpenSSL would open a FIFO named by SSL_CERT_FILE and wait for a writer forever.
    func testAFIFOAsTheTrustedCertificatesIsRefusedNotWaitedFor() throws {
        try makeCertificates()
        let fifo = directory + "/ca-fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let result = try runShopy(["search", "방충망", "--source", "naver", "--timeout", "5"],
                                  environment: ["SHOPY_API_BASE": try serve("good", key: "leaf"), "NAVER_CLIENT_ID": "id", "NAVER_CLIENT_SECRET": "secret",
                                                "SSL_CERT_FILE": fifo], home: home.path, timeout: 20)
        assertErrorReport(result, status: 69, contains: ["the trusted certificates cannot be read (SSL_CERT_FILE is a FIFO", "hint: point SSL_CERT_FILE"])
    }

    func testPlainHTTPBehindHTTPSIsNamed() throws {
        // An HTTP server that answers at once what is not HTTP (as nginx does a ClientHello).
        let listener = try LoopbackListener(backlog: 8)
        defer { listener.close() }
        Thread {
            while true {
                let client = listener.accept()
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = recv(client, &buffer, buffer.count, 0)
                let answer = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }.start()
        let port = listener.port
        let result = try search("https://127.0.0.1:\(port)")
        assertErrorReport(result, status: 69, contains: ["the server does not speak TLS there", "hint: if the server speaks plain HTTP, write http:// in SHOPY_API_BASE"])
    }
}
#endif
