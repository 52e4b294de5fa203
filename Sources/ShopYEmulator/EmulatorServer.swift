import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog

/// Why the server could not start.
public enum EmulatorServerError: Error, CustomStringConvertible, Sendable {
    case alreadyStarted
    case badAddress(host: String, port: Int)
    case socket(host: String, port: Int, EmulatorSocketError)

    public var description: String {
        switch self {
        case .alreadyStarted: return "the emulator was already started"
        case .badAddress(let host, let port): return "cannot listen on \(host):\(port): not an IP address or port"
        case .socket(let host, let port, let error): return "cannot listen on \(host):\(port): \(error)"
        }
    }
}

/// The emulator: an HTTP/1.1 server on plain POSIX sockets serving `SearchAPI`.
///
/// One thread accepts; each connection gets a thread of its own, so a slow or delayed answer
/// (`--latency`, the `slow` fault) never holds up another. Connections are HTTP/1.1 keep-alive:
/// requests are answered one after another on the same connection (pipelined ones in order)
/// until the client asks for `close`; faulted answers and refused requests close it.
public final class EmulatorServer: Sendable {
    public let config: EmulatorConfig
    private let api: SearchAPI
    private let state = Locked(ServerState())

    /// How long a client may take to send its request head.
    private static let readTimeoutMilliseconds = 10_000
    /// How long one send may block on a client that does not read.
    private static let sendTimeoutMilliseconds = 10_000

    private struct ServerState {
        var phase = Phase.idle
        var listenFD: Int32 = -1
        /// The stop pipe: writing to [1] wakes the accept loop.
        var wakePipe: (Int32, Int32) = (-1, -1)
        var port = 0
        /// Open connections, shut down by `stop()` so their threads end promptly.
        var connections: Set<Int32> = []
        /// Signalled when the accept loop has ended and closed the listening socket.
        var acceptLoopDone: DispatchSemaphore? = nil
    }

    private enum Phase { case idle, running, stopped }

    /// - Parameter clock: what the `--rate-limit` windows are timed by (tests move it by hand).
    public init(config: EmulatorConfig, catalog: Catalog = .embedded, clock: any TimerClock = SystemClock()) {
        self.config = config
        self.api = SearchAPI(config: config, catalog: catalog, clock: clock)
    }

    deinit {
        stop()
    }

    /// "http://127.0.0.1:PORT" once started (port 0 before).
    public var baseURL: String {
        "http://\(SocketAddress.urlHost(config.host)):\(port)"
    }

    /// The bound port; 0 before `start()`.
    public var port: Int {
        state.withLock { $0.port }
    }

    /// Binds, starts serving in the background and returns the port (the chosen one for port 0).
    /// A server starts once; make a new one to serve again.
    @discardableResult
    public func start() throws(EmulatorServerError) -> Int {
        guard let address = SocketAddress(host: config.host, port: config.port) else {
            throw .badAddress(host: config.host, port: config.port)
        }
        let alreadyStarted = state.withLock { s -> Bool in
            if s.phase != .idle { return true }
            s.phase = .running
            return false
        }
        if alreadyStarted { throw .alreadyStarted }
        #if canImport(Darwin)
        // Tests run the server in-process: make sure a vanished client cannot kill it.
        signal(SIGPIPE, SIG_IGN)
        #endif

        let listenFD: Int32
        do {
            listenFD = try Socket.listen(on: address)
        } catch {
            state.withLock { $0.phase = .stopped }
            throw .socket(host: config.host, port: config.port, error)
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            close(listenFD)
            state.withLock { $0.phase = .stopped }
            throw .socket(host: config.host, port: config.port, EmulatorSocketError(operation: "pipe", code: code))
        }
        let port = Socket.localPort(of: listenFD) ?? config.port
        let done = DispatchSemaphore(value: 0)
        let wakeReadFD = pipeFDs[0]
        state.withLock { s in
            s.listenFD = listenFD
            s.wakePipe = (pipeFDs[0], pipeFDs[1])
            s.port = port
            s.acceptLoopDone = done
        }
        let thread = Thread { [self] in
            acceptLoop(listenFD: listenFD, wakeFD: wakeReadFD)
            close(listenFD)
            done.signal()
        }
        thread.name = "shopy-emulator accept"
        thread.start()
        return port
    }

    /// Stops accepting, cuts open connections and waits (briefly) until the port is released.
    /// Safe to call more than once, and before `start()`.
    public func stop() {
        let (wasRunning, wakeFD, readFD, done) = state.withLock { s in
            let wasRunning = s.phase == .running
            s.phase = .stopped
            let result = (wasRunning, s.wakePipe.1, s.wakePipe.0, s.acceptLoopDone)
            // Shut down (not close) under the lock: the owning thread still closes its fd, so a
            // number cannot be reused and hit by mistake.
            for fd in s.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return result
        }
        guard wasRunning else { return }
        var byte: UInt8 = 1
        _ = write(wakeFD, &byte, 1)
        _ = done?.wait(timeout: .now() + 2)
        close(wakeFD)
        close(readFD)
    }

    private var isStopped: Bool {
        state.withLock { $0.phase == .stopped }
    }

    // MARK: - Accepting

    private func acceptLoop(listenFD: Int32, wakeFD: Int32) {
        while Socket.waitReadable(listenFD, orWake: wakeFD) {
            guard let fd = Socket.accept(listenFD) else { continue }
            let accepted = state.withLock { s -> Bool in
                guard s.phase == .running else { return false }
                s.connections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                break
            }
            let thread = Thread { [self] in
                serve(fd)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }
            thread.name = "shopy-emulator connection"
            thread.start()
        }
    }

    // MARK: - One connection

    /// Serves requests on one connection until the client closes it, asks for `close`, goes
    /// quiet for the read timeout, or gets a faulted answer (faults always end the connection).
    private func serve(_ fd: Int32) {
        Socket.setTimeout(fd, option: SO_RCVTIMEO, milliseconds: EmulatorServer.readTimeoutMilliseconds)
        Socket.setTimeout(fd, option: SO_SNDTIMEO, milliseconds: EmulatorServer.sendTimeoutMilliseconds)
        api.connectionAccepted()
        // Bytes read past the end of one request: the start of the next (a pipelining client).
        var pending: [UInt8] = []
        while !isStopped {
            let began = DispatchTime.now().uptimeNanoseconds
            let request: ParsedRequest
            switch readRequest(fd, buffer: &pending) {
            case .closed:
                return
            case .refused(let status, let message):
                let body = JSONWriter.serialize(WireErrorBody(errorMessage: message, errorCode: String(status)).json)
                let response = ServerResponse(status: status, body: body)
                _ = Socket.sendAll(fd, (response.head() + body)[...])
                lingeringClose(fd)
                log("- -", status: String(status), began: began)
                return
            case .request(let parsed):
                request = parsed
            }

            let reply = api.reply(to: request)
            if (reply.isAPI || reply.delayed) && config.latencyMilliseconds > 0 {
                Thread.sleep(forTimeInterval: Double(config.latencyMilliseconds) / 1000)
            }
            let keepAlive = request.wantsKeepAlive && reply.delivery == .whole && !isStopped
            // The request stops counting as in flight once its answer is sent, not after the
            // lingering close, so a client's next request never overlaps it in the stats.
            deliver(reply, to: fd, keepAlive: keepAlive) { if reply.isAPI { api.finish() } }
            let status = reply.delivery == .drop ? "-" : String(reply.response.status)
            let note = reply.delivery == .whole ? "" : " (\(reply.delivery.rawValue))"
            log("\(request.method) \(EmulatorServer.loggable(request))", status: status + note, began: began)
            if !keepAlive { return }
        }
    }

    private enum ReadResult {
        case request(ParsedRequest)
        case refused(status: Int, message: String)
        case closed
    }

    /// Reads one request from `buffer` and the socket: the head up to its blank line, then
    /// exactly the body its Content-Length announces (kept in `body`, so POST routes can read
    /// it). Whatever follows stays in `buffer` for the next request.
    private func readRequest(_ fd: Int32, buffer: inout [UInt8]) -> ReadResult {
        var headEnd = RequestParser.headEnd(in: buffer)
        while headEnd == nil {
            if buffer.count > RequestParser.maxHeadBytes {
                return .refused(status: 431, message: "Request header fields too large")
            }
            // What cannot begin a request line is refused at once, as nginx does, not waited on
            // for a blank line that never comes: above all a TLS ClientHello (a client given
            // https:// for this plain-HTTP port), which then reads the answer as "not TLS".
            if let first = buffer.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                return .refused(status: 400, message: first == 0x16 ? "Bad request: a TLS handshake on a plain-HTTP port (use http://)"
                                                                    : "Bad request: not an HTTP request line")
            }
            guard let chunk = Socket.receive(fd), !chunk.isEmpty else { return .closed }
            let searchFrom = max(0, buffer.count - 3)
            buffer += chunk
            headEnd = RequestParser.headEnd(in: buffer, from: searchFrom)
        }
        let end = headEnd!
        if end > RequestParser.maxHeadBytes {
            return .refused(status: 431, message: "Request header fields too large")
        }
        var request: ParsedRequest
        do {
            request = try RequestParser.parse(head: buffer[..<end])
        } catch .unsupportedVersion {
            return .refused(status: 505, message: "HTTP version not supported: use HTTP/1.1")
        } catch {
            return .refused(status: 400, message: "Bad request: the request line or a header field is malformed")
        }
        if request.header("Transfer-Encoding") != nil {
            return .refused(status: 411, message: "Length required: send the body with a Content-Length")
        }
        if request.header("Content-Length") != nil && request.contentLength == nil {
            return .refused(status: 400, message: "Bad request: the Content-Length is not a number")
        }
        let length = request.contentLength ?? 0
        if length > RequestParser.maxBodyBytes {
            return .refused(status: 413, message: "Content too large: a request body may take at most 1 MiB")
        }
        while buffer.count - end < length {
            guard let chunk = Socket.receive(fd, max: min(length - (buffer.count - end), 64 * 1024)), !chunk.isEmpty else {
                return .closed
            }
            buffer += chunk
        }
        request.body = Array(buffer[end..<(end + length)])
        buffer.removeFirst(end + length)
        return .request(request)
    }

    /// Sends the reply as its delivery says; `sent` runs once, when the answer is out (or
    /// given up on), before the connection's lingering close.
    /// With `keepAlive` (only ever for a whole answer) the connection stays open afterwards.
    private func deliver(_ reply: Reply, to fd: Int32, keepAlive: Bool, sent: () -> Void) {
        var done = false
        func markSent() {
            if !done {
                done = true
                sent()
            }
        }
        defer { markSent() }
        let response = reply.response
        switch reply.delivery {
        case .whole:
            _ = Socket.sendAll(fd, (response.head(keepAlive: keepAlive) + response.body)[...])
            markSent()
            if !keepAlive { lingeringClose(fd) }
        case .truncated:
            let half = response.body.count / 2
            _ = Socket.sendAll(fd, (response.head() + response.body.prefix(half))[...])
            markSent()
            lingeringClose(fd)
        case .drop:
            shutdown(fd, Int32(SHUT_RDWR))
        case .endless:
            // No length and no end: the PNG's bytes, then zeros, as fast as the client reads.
            let head = "HTTP/1.1 200 OK\r\nContent-Type: \(response.contentType)\r\nConnection: close\r\n\r\n"
            guard Socket.sendAll(fd, (Array(head.utf8) + response.body)[...]) else { return }
            markSent()
            let filler = [UInt8](repeating: 0, count: 64 * 1024)
            var sent = 0
            while sent < 64 << 20 && !isStopped && Socket.sendAll(fd, filler[...]) { sent += filler.count }
            shutdown(fd, Int32(SHUT_RDWR))
        case .slow:
            let body = response.body
            let first = min(16, body.count)
            guard Socket.sendAll(fd, (response.head() + body.prefix(first))[...]) else { return }
            let interval = Double(max(1, config.slowByteIntervalMilliseconds)) / 1000
            var next = first
            while next < body.count && !isStopped {
                Thread.sleep(forTimeInterval: interval)
                guard !isStopped, Socket.sendAll(fd, body[next..<(next + 1)]) else { return }
                next += 1
            }
            markSent()
            lingeringClose(fd)
        }
    }

    /// Half-closes, then waits briefly for the client to close its side, so that the answer is
    /// delivered in full even when the client still had bytes in flight.
    private func lingeringClose(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        Socket.setTimeout(fd, option: SO_RCVTIMEO, milliseconds: 1000)
        var budget = 1 << 20
        while budget > 0, let chunk = Socket.receive(fd, max: 16 * 1024), !chunk.isEmpty {
            budget -= chunk.count
        }
    }

    // MARK: - Log

    /// The request target for the log, with the value of any parameter whose name mentions a
    /// secret or key blanked. The credential headers are never logged at all.
    static func loggable(_ request: ParsedRequest) -> String {
        guard !request.rawQuery.isEmpty else { return request.path }
        let pieces = request.rawQuery.split(separator: 0x26, omittingEmptySubsequences: false).map { piece -> String in
            let text = String(decoding: piece, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { return text }
            let name = text[..<equals].lowercased()
            return name.contains("secret") || name.contains("key") ? "\(text[..<equals])=***" : text
        }
        return request.path + "?" + pieces.joined(separator: "&")
    }

    private func log(_ what: String, status: String, began: UInt64) {
        guard config.log else { return }
        let ms = (DispatchTime.now().uptimeNanoseconds - began) / 1_000_000
        let line = Array("shopy-emulator: \(what) \(status) \(ms)ms\n".utf8)
        // One write per line: lines from concurrent connections do not interleave.
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
