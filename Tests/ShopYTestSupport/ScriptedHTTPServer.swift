import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `send` without SIGPIPE when the peer has gone (the name `send` is taken inside `Connection`).
private func rawSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    return send(fd, bytes, count, 0)
    #endif
}

/// A hostile (or just scripted) HTTP server on a loopback port, for what the emulator cannot do:
/// stall after the headers, trickle, flood headers, send 20 MiB or a gzip bomb. Each connection
/// gets a thread; `script` is called with each request read on it (head and Content-Length body)
/// and writes whatever it likes; returning false closes the connection.
public final class ScriptedHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var head: String
        public var body: [UInt8]
        public var method: String { String(head.prefix { $0 != " " }) }
        public func header(_ name: String) -> String? {
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    /// What a script can do with its connection.
    public struct Connection {
        public let fd: Int32
        /// False once the peer is gone.
        @discardableResult
        public func send(_ bytes: [UInt8]) -> Bool {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { rawSend(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
        @discardableResult
        public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        /// Waits up to `seconds` for the peer to close (or reset) the connection; true if it did.
        public func waitForPeerClose(within seconds: Double) -> Bool {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                let n = poll(&pfd, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
                if n > 0 {
                    let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if got <= 0 { return true }
                }
            }
            return false
        }
    }

    public let port: Int
    private let listenFD: Int32
    private let wake: (Int32, Int32)
    private let lock = NSLock()
    private var _accepted = 0
    private var _requests: [Request] = []
    private var open: Set<Int32> = []
    private var stopped = false
    /// Signalled when the accept loop has closed the listening socket.
    private let listenerClosed = DispatchSemaphore(value: 0)

    public var accepted: Int { lock.withLock { _accepted } }
    public var requests: [Request] { lock.withLock { _requests } }

    public init(_ script: @escaping @Sendable (Request, Connection) -> Bool) throws {
        let listener = try LoopbackListener()
        port = listener.port
        listenFD = listener.fd
        var pipeFDs: [Int32] = [-1, -1]
        _ = pipe(&pipeFDs)
        wake = (pipeFDs[0], pipeFDs[1])
        let thread = Thread { [self] in acceptLoop(script) }
        thread.start()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Ends the open connections and closes the listening socket: once it returns, the port
    /// refuses connections.
    public func stop() {
        let (fds, first): (Set<Int32>, Bool) = lock.withLock {
            defer { stopped = true }
            return (open, !stopped)
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wake.1, &byte, 1)
        _ = listenerClosed.wait(timeout: .now() + 5)
    }

    deinit { stop() }

    private func acceptLoop(_ script: @escaping @Sendable (Request, Connection) -> Bool) {
        var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.0, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 && errno == EINTR { continue }
            if fds[1].revents != 0 { break }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            let keep: Bool = lock.withLock {
                guard !stopped else { return false }
                _accepted += 1
                open.insert(client)
                return true
            }
            guard keep else {
                close(client)
                break
            }
            let thread = Thread { [self] in
                serve(client, script)
                lock.withLock { _ = open.remove(client) }
                close(client)
            }
            thread.start()
        }
        close(listenFD)
        listenerClosed.signal()
    }

    private func serve(_ fd: Int32, _ script: (Request, Connection) -> Bool) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var end: Int? = nil
            while end == nil {
                if let index = find(buffer) { end = index; break }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let head = String(decoding: buffer[..<end!], as: UTF8.self)
            var request = Request(head: head, body: [])
            let length = request.header("Content-Length").flatMap { Int($0) } ?? 0
            while buffer.count < end! + 4 + length {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            request.body = Array(buffer[(end! + 4)..<(end! + 4 + length)])
            buffer.removeFirst(end! + 4 + length)
            lock.withLock { _requests.append(request) }
            guard script(request, Connection(fd: fd)) else { return }
        }
    }

    private func find(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}
