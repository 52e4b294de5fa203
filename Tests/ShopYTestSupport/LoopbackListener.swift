// A TCP socket listening on 127.0.0.1 at an ephemeral port: the one loopback listener the tests
// and shopy-bench build their servers on (scripted HTTP, canned answers, silent peers), and the
// client side that connects to one.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a test fixture could not be set up (a socket, a process).
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A listening socket on 127.0.0.1 with the port the kernel chose. The owner accepts on `fd`
/// (or with `accept()`) and closes it with `close()`; nothing is closed behind its back.
public struct LoopbackListener: Sendable {
    public let fd: Int32
    public let port: Int

    public init(backlog: Int32 = 64) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestSupportError("no socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard listening else {
            let reason = String(cString: strerror(errno))
            systemClose(fd)
            throw TestSupportError("cannot listen on loopback: \(reason)")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The next connection, or -1 once the listener is closed (or shut down).
    public func accept() -> Int32 {
        while true {
            let client = systemAccept(fd)
            if client >= 0 || errno != EINTR { return client }
        }
    }

    /// Stops a thread blocked in `accept()` and releases the port.
    public func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        systemClose(fd)
    }

    /// A socket connected to 127.0.0.1:`port`, or nil.
    public static func connect(port: Int) -> Int32? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            systemClose(fd)
            return nil
        }
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        return address
    }
}

// The C calls under the names the methods above take.
private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemAccept(_ fd: Int32) -> Int32 { accept(fd, nil, nil) }
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
