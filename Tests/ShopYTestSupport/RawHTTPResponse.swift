// A raw HTTP/1.1 exchange with a loopback server (the emulator, on its ephemeral port): the
// bytes as sent and as received, for what a client library would hide (keep-alive, closing,
// faults, status lines).

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// What a raw-socket exchange produced: every byte received, split into status, headers and
/// body where possible, and whether the server closed the connection within the time allowed.
public struct RawHTTPResponse: Sendable {
    public var bytes: [UInt8] = []
    public var status: Int? = nil
    /// Lowercased names.
    public var headers: [String: String] = [:]
    public var body: [UInt8] = []
    public var closedByPeer = false

    public var json: JSONValue? { try? JSONParser.parse(body) }

    /// One request on its own connection (`Connection: close` unless `headers` say otherwise),
    /// read until the server closes or `timeout` seconds pass.
    public static func request(port: Int, _ target: String, method: String = "GET", headers: [(String, String)] = [],
                               body: String = "", readFor timeout: Double = 5) -> RawHTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "connection" }) { head += "Connection: close\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        return exchange(port: port, request: Array((head + "\r\n" + body).utf8), timeout: timeout)
    }

    /// Connects to 127.0.0.1:port, sends `request` and reads until the server closes or
    /// `timeout` seconds pass.
    public static func exchange(port: Int, request: [UInt8], timeout: Double) -> RawHTTPResponse {
        var result = RawHTTPResponse()
        guard let fd = LoopbackListener.connect(port: port) else { return result }
        defer { close(fd) }
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }

        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { break }
            var tv = timeval()
            tv.tv_sec = .init(Int(remaining))
            tv.tv_usec = .init(max(1000, Int((remaining - Double(Int(remaining))) * 1_000_000)))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                result.bytes += buffer[0..<n]
            } else if n == 0 {
                result.closedByPeer = true
                break
            } else if errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK {
                result.closedByPeer = true  // reset
                break
            }
        }
        result.split()
        return result
    }

    private mutating func split() {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        body = Array(bytes[(end + 4)...])
        let statusParts = head.first?.split(separator: " ") ?? []
        if statusParts.count >= 2 { status = Int(statusParts[1]) }
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
}
