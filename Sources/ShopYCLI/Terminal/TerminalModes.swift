import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The terminal as browse uses it: raw mode (termios), the alternate screen, no autowrap,
/// bracketed paste, a hidden cursor; and its restoration, which is idempotent and runs on quit,
/// on every signal that stops or ends the process from outside (from `TerminalSignals`) and,
/// for faults (a trap, SIGSEGV, SIGABRT…), from a handler that uses only write(2) and tcsetattr(3) on memory set aside
/// beforehand, then lets the signal do what it would have done.
public final class TerminalModes: @unchecked Sendable {
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?7l\u{1B}[?2004h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    public static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

    public let input: Int32
    public let output: Int32
    private let original: termios
    /// Whether `input` was this process's controlling terminal (with job control) at the start.
    private let controlling: Bool
    private let lock = NSLock()
    private var active = false

    /// Nil when `input` is not a terminal.
    public init?(input: Int32 = 0, output: Int32 = 1) {
        var saved = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &saved) == 0 else { return nil }
        self.input = input
        self.output = output
        original = saved
        controlling = tcgetpgrp(input) >= 0
    }

    public func enter() {
        lock.withLock {
            guard !active else { return }
            applyRaw()
            active = true
            FatalRestore.arm(input: input, output: output, termios: original, bytes: Array(Self.leaveSequence.utf8))
        }
    }

    /// Raw mode and the alternate screen set again while active: after the process was stopped
    /// by a signal it cannot catch (SIGSTOP) and continued, the shell may have set its own
    /// modes and drawn on the screen. The caller redraws everything.
    public func reapply() {
        lock.withLock {
            guard active else { return }
            applyRaw()
        }
    }

    private func applyRaw() {
        var raw = original
        cfmakeraw(&raw)
        // Output post-processing stays off too; reads return as soon as a byte is there.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(input, TCSANOW, &raw)
        write(Self.enterSequence)
    }

    /// Whether this process's group has the terminal. Started with `&`, under `timeout`, or
    /// after `bg`, it does not: browse then neither sets modes nor writes (the kernel would let
    /// it, since browse takes SIGTTOU, and the shell's screen and modes would be overwritten).
    /// A terminal without job control (not the controlling one) counts as ours; the controlling
    /// terminal lost (the session ended, a hang-up) does not.
    public var inForeground: Bool {
        let group = tcgetpgrp(input)
        return group < 0 ? !controlling : group == getpgrp()
    }

    /// The controlling terminal is no longer this process's (its session ended, or it hung up).
    public var controlLost: Bool { controlling && tcgetpgrp(input) < 0 }

    /// Leaves the alternate screen and puts the saved termios back (once; later calls do nothing).
    /// In the background nothing is written or set: the terminal is the foreground job's (which
    /// has set its own modes); browse only forgets that it had them.
    public func restore() {
        lock.withLock {
            guard active else { return }
            active = false
            if inForeground {
                write(Self.leaveSequence)
                var saved = original
                _ = tcsetattr(input, TCSANOW, &saved)
            }
            FatalRestore.disarm()
        }
    }

    public var isActive: Bool { lock.withLock { active } }

    func write(_ text: String) {
        _ = FileIO.writeAll(Array(text.utf8)[...], to: output)
    }

    /// The window size of `output` (rows, columns), or nil.
    public func size() -> (rows: Int, columns: Int)? {
        var size = winsize()
        #if canImport(Glibc)
        let result = ioctl(output, UInt(TIOCGWINSZ), &size)
        #else
        let result = ioctl(output, TIOCGWINSZ, &size)
        #endif
        guard result == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }
}

/// The last-resort restore for fatal signals. Everything the handler touches is allocated by
/// `arm` beforehand; the handler itself calls only write, tcsetattr, signal and raise: it then
/// raises the signal again with the default action, so the process still ends of it (with a
/// core dump where enabled). The runtime's backtracer, which would run instead, proved to spin
/// on a re-raised signal; the handlers from before browse come back when it ends.
enum FatalRestore {
    struct Saved {
        var input: Int32
        var output: Int32
        var termios: termios
        var bytes: UnsafeMutablePointer<UInt8>
        var count: Int
    }

    nonisolated(unsafe) static var saved: UnsafeMutablePointer<Saved>?
    /// Faults, and the signals a system call sends to the thread that made it (a file grown past
    /// RLIMIT_FSIZE, a system call a filter forbids).
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGXFSZ, SIGSYS]
    /// The handlers before ours, by signal number (allocated once, never freed).
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        table.initialize(repeating: sigaction(), count: 65)
        return table
    }()

    static func arm(input: Int32, output: Int32, termios: termios, bytes: [UInt8]) {
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        let slot = UnsafeMutablePointer<Saved>.allocate(capacity: 1)
        slot.initialize(to: Saved(input: input, output: output, termios: termios, bytes: copy, count: bytes.count))
        saved = slot
        for signo in signals {
            sigaction(signo, nil, previous + Int(signo))
            signal(signo, fatalHandler)
        }
    }

    static func disarm() {
        for signo in signals { sigaction(signo, previous + Int(signo), nil) }
        // The memory is left allocated: a handler may still be running on another thread.
        saved = nil
    }

    static let fatalHandler: @convention(c) (Int32) -> Void = { signo in
        if let slot = FatalRestore.saved {
            _ = write(slot.pointee.output, slot.pointee.bytes, slot.pointee.count)
            _ = tcsetattr(slot.pointee.input, TCSANOW, &slot.pointee.termios)
        }
        signal(signo, SIG_DFL)
        raise(signo)
    }
}
