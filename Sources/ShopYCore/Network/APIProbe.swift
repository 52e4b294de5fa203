import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the API probe connects: the host and port of the API base (SHOPY_API_BASE, default
/// openapi.naver.com on 443).
public struct ProbeTarget: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init(base: URL) {
        let scheme = base.scheme?.lowercased() ?? "https"
        host = base.host ?? ""
        port = base.port ?? (scheme == "http" ? 80 : 443)
    }

    public static func from(environment: [String: String]) throws(SourceError) -> ProbeTarget {
        ProbeTarget(base: try RequestBuilder.base(from: environment))
    }

    /// `host:port`, with brackets around an IPv6 literal.
    public var display: String {
        (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }

    /// Whether the host is this machine (127.0.0.0/8, ::1, localhost): reaching it needs no route.
    public var isLoopback: Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]."))
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return InterfaceAddress(name)?.isLoopback ?? false
    }
}

/// What the API probe found: reachable with a latency, or the stage that failed.
public struct ProbeResult: Sendable, Equatable {
    public enum Failure: String, Sendable {
        /// The name did not resolve (NXDOMAIN, no resolver).
        case dns
        /// The resolver did not answer within the timeout.
        case dnsTimeout = "dns-timeout"
        /// The host answered the connection with a reset (nothing listens on the port).
        case refused
        /// No route to the host or its network.
        case unreachable
        /// No answer to the connection within the timeout.
        case timeout
        /// Anything else (the message says what).
        case error
    }

    public var target: ProbeTarget
    /// The address connected to (or last tried); nil when DNS failed.
    public var address: String?
    /// Time of the TCP handshake, when it succeeded.
    public var latency: Double?
    /// Time of the DNS lookup, when it answered.
    public var dnsTime: Double?
    public var failure: Failure?
    /// In words, when it failed: `DNS lookup failed for openapi.naver.com`.
    public var message: String?
    /// The system's words for the failure (gai_strerror, strerror), for --verbose.
    public var detail: String?

    public init(target: ProbeTarget, address: String? = nil, latency: Double? = nil, dnsTime: Double? = nil,
                failure: Failure? = nil, message: String? = nil, detail: String? = nil) {
        self.target = target
        self.address = address
        self.latency = latency
        self.dnsTime = dnsTime
        self.failure = failure
        self.message = message
        self.detail = detail
    }

    public var ok: Bool { failure == nil }

    /// Whole milliseconds of the handshake, at least 1 when it succeeded (loopback takes
    /// microseconds, and "0 ms" reads like a failure).
    public var latencyMilliseconds: Int? { latency.map { max(1, Int(($0 * 1000).rounded())) } }
}

/// Checks that the API host can be reached: resolves it (getaddrinfo) and opens a TCP
/// connection (closed at once, nothing is sent), all within a short timeout. This is separate
/// from the path: a satisfied path with a failing probe is "limited" (DNS broken, captive
/// portal, firewall).
public enum APIProbe {
    public static let defaultTimeout = 2.0

    /// Runs the probe on a thread of its own, so that no task of the cooperative pool blocks in
    /// getaddrinfo or poll.
    public static func run(_ target: ProbeTarget, timeout: Double = defaultTimeout) async -> ProbeResult {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: probe(target, timeout: timeout)) }
            thread.name = "shopy.api-probe"
            thread.start()
        }
    }

    /// The probe, blocking the calling thread for at most about `timeout` seconds.
    public static func probe(_ target: ProbeTarget, timeout: Double = defaultTimeout) -> ProbeResult {
        let start = Monotonic.now()
        let deadline = start + timeout
        let lookup = resolve(target, timeout: timeout)
        let addresses: [SocketAddress]
        switch lookup {
        case .timedOut:
            return ProbeResult(target: target, failure: .dnsTimeout,
                               message: "DNS lookup for \(target.host) did not answer within \(Monotonic.describe(timeout))")
        case .failed(let detail):
            return ProbeResult(target: target, failure: .dns, message: "DNS lookup failed for \(target.host)", detail: detail)
        case .found(let found):
            addresses = found
        }
        let dnsTime = Monotonic.now() - start
        var last = ProbeResult(target: target, dnsTime: dnsTime, failure: .error, message: "no address for \(target.host)")
        for address in addresses {
            let remaining = deadline - Monotonic.now()
            if remaining <= 0 {
                last = ProbeResult(target: target, address: address.text, dnsTime: dnsTime, failure: .timeout,
                                   message: "no answer from \(target.display) within \(Monotonic.describe(timeout))")
                break
            }
            let began = Monotonic.now()
            switch connect(to: address, within: remaining) {
            case .connected:
                return ProbeResult(target: target, address: address.text, latency: Monotonic.now() - began, dnsTime: dnsTime)
            case .timedOut:
                last = ProbeResult(target: target, address: address.text, dnsTime: dnsTime, failure: .timeout,
                                   message: "no answer from \(target.display) within \(Monotonic.describe(timeout))")
            case .failed(let code):
                let detail = String(cString: strerror(code))
                switch code {
                case ECONNREFUSED:
                    last = ProbeResult(target: target, address: address.text, dnsTime: dnsTime, failure: .refused,
                                       message: "\(target.display) refused the connection", detail: detail)
                case ENETUNREACH, EHOSTUNREACH:
                    last = ProbeResult(target: target, address: address.text, dnsTime: dnsTime, failure: .unreachable,
                                       message: "\(target.display) is unreachable", detail: detail)
                default:
                    last = ProbeResult(target: target, address: address.text, dnsTime: dnsTime, failure: .error,
                                       message: "cannot connect to \(target.display): \(detail)", detail: detail)
                }
            }
        }
        return last
    }

    /// One resolved address, copied out of the getaddrinfo list.
    struct SocketAddress: Sendable {
        var family: Int32
        var bytes: [UInt8]

        var text: String {
            bytes.withUnsafeBytes { raw -> String in
                let sa = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
                return SystemNetwork.interfaceAddress(UnsafeMutablePointer(mutating: sa))?.address ?? "?"
            }
        }
    }

    enum Lookup: Sendable {
        case found([SocketAddress])
        case failed(String)
        case timedOut
    }

    /// getaddrinfo on a thread of its own: it cannot be interrupted, so after `timeout` the
    /// caller gives up on it and the thread finishes (and frees its result) in the background.
    static func resolve(_ target: ProbeTarget, timeout: Double) -> Lookup {
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var result: Lookup?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = lookUp(target)
            box.lock.withLock { box.result = result }
            done.signal()
        }
        thread.name = "shopy.dns"
        thread.start()
        if done.wait(timeout: .now() + timeout) == .timedOut { return .timedOut }
        return box.lock.withLock { box.result } ?? .timedOut
    }

    static func lookUp(_ target: ProbeTarget) -> Lookup {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        // No AI_ADDRCONFIG: it drops 127.0.0.1 and ::1 in a namespace with only loopback, and
        // addresses of a family with no route fail fast (ENETUNREACH) and the next is tried.
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard code == 0, let first = list else {
            let detail = code == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(code))
            return .failed(detail)
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let sa = entry.pointee.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: sa, count: Int(entry.pointee.ai_addrlen)))
            addresses.append(SocketAddress(family: entry.pointee.ai_family, bytes: bytes))
        }
        return addresses.isEmpty ? .failed("no address") : .found(addresses)
    }

    enum ConnectOutcome {
        case connected
        case timedOut
        case failed(Int32)
    }

    /// A non-blocking connect, waited for with poll.
    static func connect(to address: SocketAddress, within seconds: Double) -> ConnectOutcome {
        #if canImport(Glibc)
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(errno) }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let started = address.bytes.withUnsafeBytes { raw in
            #if canImport(Glibc)
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            #else
            Darwin.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            #endif
        }
        if started == 0 { return .connected }
        guard errno == EINPROGRESS else { return .failed(errno) }
        let deadline = Monotonic.now() + seconds
        while true {
            let remaining = deadline - Monotonic.now()
            if remaining <= 0 { return .timedOut }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&entry, 1, Int32((remaining * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if ready == 0 { return .timedOut }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return .failed(errno) }
            return error == 0 ? .connected : .failed(error)
        }
    }
}
