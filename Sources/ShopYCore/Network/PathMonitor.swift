import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CShopYShim
#elseif canImport(Network)
import Network
#endif

/// Watches the network path as NWPathMonitor does: set `pathUpdateHandler`, `start(queue:)`,
/// and the handler gets the current state at once, then each change as it happens, until
/// `cancel()`. `updates()` is the same as an AsyncStream.
///
/// Linux: a NETLINK_ROUTE socket subscribed to link, address and route events. A dedicated
/// thread sleeps in poll() until the kernel reports something (or `cancel` wakes it); the first
/// message of a burst opens a short debounce window (50 ms), after which the whole state is read
/// again (`SystemNetwork.snapshot`) and delivered if it differs from the last one. Re-reading
/// instead of applying each message keeps the monitor right even when messages are lost
/// (ENOBUFS) or arrive out of order. Where netlink is not allowed (a sandbox without
/// AF_NETLINK), the thread re-reads the state every 2 s instead and `mode` says so.
///
/// macOS: NWPathMonitor itself, with the same interface.
///
/// The monitor keeps itself alive until `cancel()`, as NWPathMonitor does.
public final class PathMonitor: @unchecked Sendable {
    public enum Mode: Sendable, Equatable {
        /// Not started yet.
        case idle
        /// Kernel events (netlink) or NWPathMonitor: changes arrive as they happen.
        case events
        /// Re-reading every `interval` seconds because events are unavailable, and why.
        case polling(interval: Double, reason: String)
    }

    private let lock = NSLock()
    private var handler: (@Sendable (NetworkSnapshot) -> Void)?
    private var latest: NetworkSnapshot?
    private var currentMode: Mode = .idle
    private var started = false
    private var cancelled = false
    private let debounce: Double
    private let pollInterval: Double
    private let useEvents: Bool
    private let trace: Tracer
    #if os(Linux)
    private var wakeWriteFD: Int32 = -1
    #elseif canImport(Network)
    private var nwMonitor: NWPathMonitor?
    #endif

    /// - Parameters:
    ///   - debounce: how long to gather a burst of kernel messages before re-reading (seconds).
    ///   - pollInterval: the re-read period when events are unavailable (seconds).
    ///   - useEvents: false forces polling (tests of the fallback).
    ///   - trace: `--verbose` lines (which mode, and why polling).
    public init(debounce: Double = 0.05, pollInterval: Double = 2, useEvents: Bool = true, trace: Tracer = .off) {
        self.debounce = debounce
        self.pollInterval = pollInterval
        self.useEvents = useEvents
        self.trace = trace
    }

    /// Called on the start queue with the state at start, then with every different state.
    /// Set it before `start`.
    public var pathUpdateHandler: (@Sendable (NetworkSnapshot) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// The last state read; nil before `start`.
    public var currentSnapshot: NetworkSnapshot? { lock.withLock { latest } }

    /// The path of the last state read; nil before `start`.
    public var currentPath: PathStatus? { currentSnapshot?.path }

    public var mode: Mode { lock.withLock { currentMode } }

    /// The states as an AsyncStream: the current one first, then each change. Ending the
    /// iteration (or dropping the stream) cancels the monitor.
    public func updates() -> AsyncStream<NetworkSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkSnapshot.self)
        pathUpdateHandler = { continuation.yield($0) }
        continuation.onTermination = { [self] _ in cancel() }
        start(queue: DispatchQueue(label: "shopy.path-monitor"))
        return stream
    }

    /// Starts watching; the handler runs on `queue`. A second call does nothing.
    public func start(queue: DispatchQueue) {
        let shouldStart: Bool = lock.withLock {
            if started || cancelled { return false }
            started = true
            return true
        }
        guard shouldStart else { return }
        #if os(Linux)
        startLinux(queue: queue)
        #elseif canImport(Network)
        startNW(queue: queue)
        #else
        startPolling(queue: queue, reason: "no event source on this system")
        #endif
    }

    /// Stops the monitor; no handler call starts after it returns. Safe to call more than once.
    public func cancel() {
        lock.lock()
        if cancelled {
            lock.unlock()
            return
        }
        cancelled = true
        handler = nil
        #if os(Linux)
        let fd = wakeWriteFD
        wakeWriteFD = -1
        lock.unlock()
        if fd >= 0 {
            // Wakes the thread out of poll(); it closes its own ends and exits.
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
            close(fd)
        }
        #elseif canImport(Network)
        let monitor = nwMonitor
        nwMonitor = nil
        lock.unlock()
        monitor?.cancel()
        #else
        lock.unlock()
        #endif
    }

    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Records `snapshot` and hands it to the handler on `queue` when it differs from the last.
    /// The first one always goes out (`latest` is nil until then).
    private func publish(_ snapshot: NetworkSnapshot, on queue: DispatchQueue) {
        let handler: (@Sendable (NetworkSnapshot) -> Void)? = lock.withLock {
            if cancelled || latest == snapshot { return nil }
            latest = snapshot
            return self.handler
        }
        guard let handler else { return }
        queue.async { [self] in
            // A cancel between the read and this block must silence it (the promise of cancel()).
            if !isCancelled { handler(snapshot) }
        }
    }

    #if os(Linux)
    private func startLinux(queue: DispatchQueue) {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            // Without a wake pipe the thread could not be stopped; a poller checks `cancelled`.
            startPolling(queue: queue, reason: "pipe: \(String(cString: strerror(errno)))")
            return
        }
        for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var reason = "disabled"
        // Subscribe before the first read, so that nothing between the two is missed.
        let netlinkFD = useEvents ? cshopy_netlink_open(cshopy_rtnetlink_path_groups(), 1 << 20) : -1
        if useEvents && netlinkFD < 0 { reason = "netlink unavailable (\(String(cString: strerror(errno))))" }
        let cancelledMeanwhile: Bool = lock.withLock {
            if cancelled { return true }
            wakeWriteFD = pipeFDs[1]
            currentMode = netlinkFD >= 0 ? .events : .polling(interval: pollInterval, reason: reason)
            return false
        }
        if cancelledMeanwhile {
            // cancel() ran before there was a pipe to wake the thread with: no thread at all.
            for fd in pipeFDs + [netlinkFD] where fd >= 0 { close(fd) }
            return
        }
        if netlinkFD >= 0 {
            trace("path monitor: netlink (link, address and route events), debounce \(Int(debounce * 1000)) ms")
        } else {
            trace("path monitor: \(reason); polling every \(Monotonic.describe(pollInterval))")
        }
        publish(SystemNetwork.snapshot(), on: queue)
        let wakeFD = pipeFDs[0]
        let thread = Thread { [self] in
            run(netlinkFD: netlinkFD, wakeFD: wakeFD, queue: queue)
            close(wakeFD)
        }
        thread.name = "shopy.path-monitor"
        thread.start()
    }

    /// The monitor thread: poll() on the netlink socket (if any) and the wake pipe. With netlink
    /// the timeout is infinite except while a debounce window is open; without, it is the poll
    /// interval. Closes the netlink socket when it returns.
    private func run(netlinkFD: Int32, wakeFD: Int32, queue: DispatchQueue) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var dueAt: Double?      // monotonic seconds when the open debounce window closes
        var netlink = netlinkFD
        defer { if netlink >= 0 { close(netlink) } }
        while !isCancelled {
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            if netlink >= 0 { fds.append(pollfd(fd: netlink, events: Int16(POLLIN), revents: 0)) }
            let timeout: Int32
            if netlink < 0 {
                timeout = Int32(pollInterval * 1000)
            } else if let dueAt {
                timeout = Int32(max(0, (dueAt - Monotonic.now()) * 1000).rounded(.up))
            } else {
                timeout = -1
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                trace("path monitor: poll failed (\(String(cString: strerror(errno)))); stopping")
                return
            }
            if fds[0].revents != 0 { return }  // cancel()
            if netlink < 0 {
                publish(SystemNetwork.snapshot(), on: queue)
                continue
            }
            if fds[1].revents != 0 {
                switch drain(netlink, into: &buffer) {
                case .messages, .overflow:
                    // The content does not matter: any message means "read everything again".
                    if dueAt == nil { dueAt = Monotonic.now() + debounce }
                case .failed(let code):
                    trace("path monitor: netlink failed (\(String(cString: strerror(code)))); polling every \(Monotonic.describe(pollInterval))")
                    close(netlink)
                    netlink = -1
                    lock.withLock { currentMode = .polling(interval: pollInterval, reason: "netlink failed") }
                    publish(SystemNetwork.snapshot(), on: queue)
                    continue
                }
            }
            if let due = dueAt, Monotonic.now() >= due {
                dueAt = nil
                publish(SystemNetwork.snapshot(), on: queue)
            }
        }
    }

    private enum DrainResult {
        case messages
        /// ENOBUFS: the kernel dropped messages; the state must be read again.
        case overflow
        case failed(Int32)
    }

    /// Reads every queued message without blocking.
    private func drain(_ fd: Int32, into buffer: inout [UInt8]) -> DrainResult {
        var result = DrainResult.messages
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n >= 0 { continue }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return result
            case ENOBUFS: result = .overflow
            case let code: return .failed(code)
            }
        }
    }

    #endif

    /// The fallback where no event source exists: a thread re-reading every `pollInterval`.
    private func startPolling(queue: DispatchQueue, reason: String) {
        lock.withLock { currentMode = .polling(interval: pollInterval, reason: reason) }
        trace("path monitor: \(reason); polling every \(Monotonic.describe(pollInterval))")
        publish(SystemNetwork.snapshot(), on: queue)
        let thread = Thread { [self] in
            while !isCancelled {
                Thread.sleep(forTimeInterval: pollInterval)
                if !isCancelled { publish(SystemNetwork.snapshot(), on: queue) }
            }
        }
        thread.name = "shopy.path-monitor"
        thread.start()
    }

    #if !os(Linux) && canImport(Network)
    private func startNW(queue: DispatchQueue) {
        let monitor = NWPathMonitor()
        lock.withLock {
            nwMonitor = monitor
            currentMode = .events
        }
        trace("path monitor: NWPathMonitor")
        monitor.pathUpdateHandler = { [self] path in publish(NetworkSnapshot(path), on: queue) }
        monitor.start(queue: queue)
    }
    #endif

}

/// Monotonic seconds, and durations in words, for the network code.
enum Monotonic {
    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// `2 s`, `0.5 s`.
    static func describe(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
