/// Thin wrappers over the POSIX socket calls, so that the server reads as logic and the
/// platform differences (Glibc's imported enum types, SIGPIPE suppression, `sin_len`) stay here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
/// Linux: ask `send` not to raise SIGPIPE when the peer has gone.
private let sendFlags = Int32(MSG_NOSIGNAL)
#else
private let streamSocketType = SOCK_STREAM
/// Darwin has no MSG_NOSIGNAL; SO_NOSIGPIPE is set on each socket instead.
private let sendFlags: Int32 = 0
#endif

/// An IPv4 or IPv6 socket address parsed from a literal (or `localhost`, taken as 127.0.0.1 so
/// that the printed URL and the bound address agree).
enum SocketAddress: Sendable {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    init?(host: String, port: Int) {
        guard (0...65535).contains(port) else { return nil }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port)).bigEndian
            #if canImport(Darwin)
            v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            self = .v4(v4)
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port)).bigEndian
            #if canImport(Darwin)
            v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            self = .v6(v6)
            return
        }
        return nil
    }

    var family: Int32 {
        switch self {
        case .v4: return AF_INET
        case .v6: return AF_INET6
        }
    }

    /// `host` as it goes into a URL: IPv6 literals in brackets, `localhost` as the bound 127.0.0.1.
    static func urlHost(_ host: String) -> String {
        if host == "localhost" { return "127.0.0.1" }
        return host.contains(":") ? "[\(host)]" : host
    }
}

/// A failure of a socket call, with the call's name and errno.
public struct EmulatorSocketError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var code: Int32

    public var description: String {
        "\(operation): \(String(cString: strerror(code)))"
    }
}

enum Socket {
    /// A listening TCP socket bound to `address`, with SO_REUSEADDR so that a restarted
    /// emulator can take its port back at once instead of waiting out TIME_WAIT.
    static func listen(on address: SocketAddress, backlog: Int32 = 128) throws(EmulatorSocketError) -> Int32 {
        let fd = socket(address.family, streamSocketType, 0)
        guard fd >= 0 else { throw EmulatorSocketError(operation: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        switch address {
        case .v4(var sa):
            bound = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(var sa):
            bound = withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        if bound != 0 {
            let code = errno
            close(fd)
            throw EmulatorSocketError(operation: "bind", code: code)
        }
        if systemListen(fd, backlog) != 0 {
            let code = errno
            close(fd)
            throw EmulatorSocketError(operation: "listen", code: code)
        }
        return fd
    }

    /// The port a socket is bound to (the one the system chose for port 0).
    static func localPort(of fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard ok == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }

    /// Waits until `fd` can be read or `wakeFD` (the stop pipe) becomes readable. Returns
    /// true when `fd` is ready. Polling both lets `stop()` end a blocked accept loop portably
    /// (closing a socket another thread is blocked on does not wake it on Linux).
    static func waitReadable(_ fd: Int32, orWake wakeFD: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        while true {
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || fds[1].revents != 0 { return false }
            return fds[0].revents != 0
        }
    }

    /// Accepts one connection; nil when nothing was pending (or the call failed).
    static func accept(_ listenFD: Int32) -> Int32? {
        while true {
            let fd = systemAccept(listenFD, nil, nil)
            if fd >= 0 {
                #if canImport(Darwin)
                var yes: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return fd
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Bounds how long a `recv` (or `send`) may block, so a silent client cannot hold a thread forever.
    static func setTimeout(_ fd: Int32, option: Int32, milliseconds: Int) {
        var tv = timeval()
        tv.tv_sec = .init(milliseconds / 1000)
        tv.tv_usec = .init((milliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `bytes`; false when the peer went away or the send timed out.
    static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var sent = 0
        let total = bytes.count
        return bytes.withUnsafeBytes { buffer -> Bool in
            while sent < total {
                let n = send(fd, buffer.baseAddress! + sent, total - sent, sendFlags)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                sent += n
            }
            return true
        }
    }

    /// Receives up to `max` bytes; empty on end of stream, nil on error or timeout.
    static func receive(_ fd: Int32, max: Int = 16 * 1024) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            return Array(buffer[0..<n])
        }
    }
}

// `listen` and `accept` are shadowed by `Socket`'s own methods inside the enum; these names
// reach the C functions.
@inline(__always)
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

@inline(__always)
private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    accept(fd, address, length)
}
