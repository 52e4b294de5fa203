import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The driver: keys from the terminal into the store, each new state drawn as a frame of which
/// only the changed lines are written. One thread polls the terminal and a wake-up pipe; states
/// arrive from the store's queue and are coalesced (only the latest is drawn).
public final class BrowseTerminal: @unchecked Sendable {
    /// How long an ESC waits for the rest of a sequence before it counts as Esc.
    public static let escapeTimeoutMilliseconds: Int32 = 25

    let modes: TerminalModes
    private let lock = NSLock()
    private let outputLock = NSLock()
    private var latest: BrowseState?
    private var lastFrame: Frame?
    private var size: (rows: Int, columns: Int) = (24, 80)
    private var stopSignal: Int32?
    /// A program shares the terminal (`released`).
    private var suspended = false
    /// Stopped by job control (Ctrl-Z, SIGTSTP…), or continued in the background: the
    /// terminal is not ours until the process is continued in the foreground.
    private var stopped = false
    /// Why the terminal is gone (hung up, or in the background for good); the loop ends.
    private var lost: (any ShopyError)?
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1

    /// Colours (the red of errors, ♥ and the banner); bold, dim and reverse video always.
    let color: Bool
    /// Places Detail's picture; nil when pictures are not drawn.
    private var placer: PicturePlacer?

    public init(modes: TerminalModes, color: Bool = true) {
        self.modes = modes
        self.color = color
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
        // Programs started by open and copy do not inherit the pipe.
        _ = fcntl(wakeRead, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeWrite, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Draws Detail's pictures as `choice` says (a cell is `cell` pixels).
    func drawPictures(_ choice: GraphicsChoice, environment: [String: String], cell: CellSize) {
        placer = PicturePlacer(choice: choice, environment: environment, cell: cell) { [weak self] in self?.wake() }
    }

    /// Writes bytes to the terminal between frames (OSC 52).
    public func writeRaw(_ bytes: [UInt8]) {
        outputLock.withLock {
            // Not while the terminal is given back (or not ours: in the background).
            guard modes.isActive else { return }
            _ = FileIO.writeAll(bytes[...], to: modes.output)
        }
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Called by the store with every new state.
    public func show(_ state: BrowseState) {
        lock.withLock { latest = state }
        wake()
    }

    /// Runs `body` (a program sharing the terminal) with the terminal in its normal modes.
    public func released<T>(_ body: () -> T) -> T {
        lock.withLock { suspended = true }
        modes.restore()
        let result = body()
        modes.enter()
        lock.withLock {
            suspended = false
            lastFrame = nil
        }
        wake()
        return result
    }

    /// Job control is about to stop the process: the terminal goes back to the shell as it was
    /// (in the background it is not ours to touch: `restore` then writes nothing).
    func suspendForJobControl() {
        lock.withLock { stopped = true }
        outputLock.withLock { modes.restore() }
    }

    /// Continued, or starting: the terminal is taken only in the foreground. In the background
    /// (started with `&` or under `timeout`, continued with `bg`) the process stops itself with
    /// SIGTTOU, as a read or a mode change there would stop it, until `fg` continues it in the
    /// foreground (`fg` on a job already running sends no SIGCONT, so waiting for one would hang);
    /// then raw mode and the alternate screen again and a full redraw (the shell may have changed
    /// both while the process was stopped). Where nothing can stop it (an orphaned process group:
    /// nobody could bring it to the foreground), the terminal is never its: browse ends (`lost`).
    func resumeFromJobControl() {
        var dropped = 0
        while !modes.inForeground {
            // A signal that ends browse waits behind this loop (on this thread): it goes first.
            if lock.withLock({ stopSignal != nil || lost != nil }) || TerminalSignals.endingSignalPending() { return }
            if modes.controlLost {
                lose(StoreError.unusableTarget(path: "the terminal", problem: "it is no longer browse's (its session ended)"))
                return
            }
            suspendForJobControl()
            if TerminalSignals.stopProcess(SIGTTOU) {
                dropped = 0
            } else if !modes.inForeground {
                dropped += 1
                if dropped >= 3 {
                    lose(StoreError.unusableTarget(path: "the terminal",
                                                   problem: "browse is in the background and nothing can bring it to the foreground"))
                    return
                }
            }
        }
        outputLock.withLock {
            let sharing = lock.withLock { suspended }
            if !sharing { modes.isActive ? modes.reapply() : modes.enter() }
            lock.withLock {
                stopped = false
                lastFrame = nil
            }
        }
        wake()
    }

    /// The terminal cannot be used any more: the loop ends, and `run` returns `lostStatus`.
    func lose(_ error: any ShopyError) {
        lock.withLock { if lost == nil { lost = error } }
        wake()
    }

    /// Why the terminal could not be used to the end (then `run` returned `lostStatus`).
    public var lostTerminal: (any ShopyError)? { lock.withLock { lost } }

    /// What `run` returns when the terminal was lost (74, as a failed read or write).
    public static let lostStatus = ExitCode.ioError.rawValue

    /// A signal is about to end the process: the terminal is restored first (between two frames,
    /// unless a write is wedged).
    func restoreBeforeTheEnd() {
        let locked = outputLock.lock(before: Date().addingTimeInterval(1))
        modes.restore()
        if locked { outputLock.unlock() }
    }

    /// Runs the program until it quits or a stop signal arrives; returns the exit status (0, or
    /// 128 + the signal, or `lostStatus` when the terminal was lost: `lostTerminal` says why).
    /// The terminal is restored before this returns (when it is still this process's).
    public func run(initial: BrowseState, services: any BrowseServices) -> Int32 {
        let signals = TerminalSignals(onStop: { [self] signo in
            lock.withLock { if stopSignal == nil { stopSignal = signo } }
            wake()
            // Should the loop not come round (a wedged write), the terminal is still restored.
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [self] in
                modes.restore()
                _exit(128 + signo)
            }
        }, onResize: { [self] in wake() }, onSuspend: { [self] in suspendForJobControl() },
           onResume: { [self] in resumeFromJobControl() }, onEnd: { [self] _ in restoreBeforeTheEnd() })
        signals.start()
        if modes.inForeground {
            modes.enter()
        } else {
            // Nothing is written or set until the process is in the foreground: the signal
            // thread stops it, and takes the terminal once `fg` continues it.
            lock.withLock { stopped = true }
            kill(getpid(), SIGTTOU)
        }
        defer { modes.restore() }
        if let measured = modes.size() { size = measured }
        let store = BrowseStore(initial: initial, services: services) { [weak self] state in self?.show(state) }
        store.dispatch(.resize(rows: size.rows, columns: size.columns))
        store.dispatch(.start)
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var status: Int32 = 0
        loop: while true {
            // While a program shares the terminal (`released`), its keys are not read here.
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: modes.input, events: Int16(POLLIN), revents: 0)]
            let paused = lock.withLock { suspended || stopped }
            let ready = poll(&fds, paused ? 1 : 2, decoder.hasPending ? Self.escapeTimeoutMilliseconds : -1)
            if let signo = lock.withLock({ stopSignal }) {
                status = 128 + signo
                break
            }
            if lock.withLock({ lost }) != nil {
                status = Self.lostStatus
                break
            }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            var events: [KeyEvent] = []
            if ready == 0 && decoder.hasPending { events = decoder.flush() }
            if !paused && fds[1].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = read(modes.input, &buffer, buffer.count)
                if n <= 0 {
                    let code = n < 0 ? errno : 0
                    if code == EINTR || code == EAGAIN { continue }
                    if code == EIO && !modes.controlLost && !modes.inForeground {
                        // Moved to the background under it (SIGTTIN is taken, so the read
                        // fails instead of stopping the process): stopped until `fg`.
                        lock.withLock { stopped = true }
                        kill(getpid(), SIGTTIN)
                        continue
                    }
                    // Hung up (end of file), or an error: not a quit.
                    lose(code == 0 ? StoreError.unusableTarget(path: "the terminal", problem: "it hung up")
                                   : StoreError.io(path: "the terminal", operation: "read from", errno: code))
                    status = Self.lostStatus
                    break
                }
                events += decoder.feed(buffer[0..<n])
            }
            for event in events {
                switch event {
                // Ctrl-Z suspends, as the terminal's own would were it not in raw mode.
                case .key(.ctrl("z")): kill(getpid(), SIGTSTP)
                case .key(let key): store.dispatch(.key(key))
                case .paste(let text): store.dispatch(.paste(text))
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &drain, drain.count) > 0 {}
                if let measured = modes.size(), measured != size {
                    size = measured
                    store.dispatch(.resize(rows: measured.rows, columns: measured.columns))
                }
                guard let state = lock.withLock({ latest }) else { continue }
                draw(state)  // unless the terminal is not ours now (draw looks)
                if state.quit { break loop }
            }
        }
        store.stop()
        if let bytes = placer?.leave(), !bytes.isEmpty { writeRaw(bytes) }
        return status
    }

    /// Draws what changed since the last frame, unless the terminal is not ours (a program
    /// shares it, or job control took it back). The last frame is read, the difference written
    /// and the frame kept under the output lock, so that a redraw asked for meanwhile from the
    /// signal thread (which clears the screen and forgets the last frame) is never undone by a
    /// difference against the screen as it was.
    func draw(_ state: BrowseState) {
        let frame = BrowseRender.render(state, rows: size.rows, columns: size.columns)
        outputLock.withLock {
            let previous: Frame?? = lock.withLock { stopped || suspended ? nil : .some(lastFrame) }
            guard let previous else { return }
            var bytes = FrameWriter.diff(from: previous, to: frame, color: color)
            lock.withLock { lastFrame = frame }
            if let placer {
                // Redrawn when the text under its region was written: a cleared screen or a new region.
                let redraw = previous == nil || previous!.rows != frame.rows || previous!.columns != frame.columns
                    || previous!.picture?.region != frame.picture?.region
                bytes += placer.bytes(after: frame, redraw: redraw)
            }
            if !bytes.isEmpty { _ = FileIO.writeAll(bytes[...], to: modes.output) }
        }
    }
}
