import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CShopYShim

/// The signals of the browse driver, taken with sigwait on a thread of their own (as
/// `StopSignals` does for INT and TERM): they are blocked in the calling thread and every thread
/// it starts, and a forwarding handler passes a delivery to any older thread on to the waiter,
/// so none is lost and none acts before the terminal is dealt with.
///
/// - SIGINT, SIGTERM, SIGHUP stop browse (`onStop`): it restores the terminal and exits 128 + n.
/// - SIGTSTP (Ctrl-Z, `kill -TSTP`), SIGTTIN and SIGTTOU: the terminal is given back
///   (`onSuspend`), the process stops as it would have, and once continued it takes the
///   terminal again and redraws (`onResume`). SIGCONT alone (after a SIGSTOP, which cannot be
///   caught) also re-applies the modes and redraws, since the shell may have changed both.
///   `onResume` itself stops the process again (SIGTTOU) while it is in the background.
/// - SIGWINCH: `onResize`.
/// - Every other signal that would end the process from outside (SIGQUIT, SIGUSR1, SIGUSR2,
///   SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR, the real-time ones): the terminal is
///   restored (`onEnd`), then the signal takes its default action (the process ends of it, with
///   a core dump where that is the default). Signals someone left ignored stay ignored.
///   Faults (SIGSEGV, SIGABRT…) are `FatalRestore`'s, since they arrive on the faulting thread.
public final class TerminalSignals: Sendable {
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    public static let suspendSignals: [Int32] = [SIGTSTP, SIGTTIN, SIGTTOU]

    /// The signals that end a process by default and come from outside it (not faults), unless
    /// ignored. One with a handler is taken over too: the Swift runtime's for SIGQUIT prints a
    /// backtrace over the alternate screen and leaves the terminal raw.
    public static func endingSignals() -> [Int32] {
        var candidates: [Int32] = [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO]
        #if os(Linux)
        candidates += [SIGPWR, SIGSTKFLT]
        #endif
        let low = cshopy_sigrtmin(), high = cshopy_sigrtmax()
        if low > 0 && low <= high { candidates += Array(low...high) }
        return candidates.filter { cshopy_signal_is_ignored($0) == 0 }
    }

    private let onStop: @Sendable (Int32) -> Void
    private let onResize: @Sendable () -> Void
    private let onSuspend: @Sendable () -> Void
    private let onResume: @Sendable () -> Void
    private let onEnd: @Sendable (Int32) -> Void

    public init(onStop: @escaping @Sendable (Int32) -> Void, onResize: @escaping @Sendable () -> Void,
                onSuspend: @escaping @Sendable () -> Void = {}, onResume: @escaping @Sendable () -> Void = {},
                onEnd: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.onStop = onStop
        self.onResize = onResize
        self.onSuspend = onSuspend
        self.onResume = onResume
        self.onEnd = onEnd
    }

    public func start() {
        let ending = Self.endingSignals()
        let taken = Self.stopSignals + Self.suspendSignals + [SIGCONT, SIGWINCH] + ending
        var set = sigset_t()
        sigemptyset(&set)
        for signo in taken { sigaddset(&set, signo) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let mask = set
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [onStop, onResize, onSuspend, onResume, onEnd] in
            for signo in taken { cshopy_forward_signal(signo, pthread_self()) }
            ready.signal()
            var waitSet = mask
            while true {
                var signo: Int32 = 0
                guard sigwait(&waitSet, &signo) == 0 else { continue }
                switch signo {
                case SIGWINCH:
                    onResize()
                case SIGCONT:
                    onResume()
                case _ where Self.suspendSignals.contains(signo):
                    onSuspend()
                    Self.stopProcess(signo)
                    onResume()
                case _ where Self.stopSignals.contains(signo):
                    onStop(signo)
                default:
                    onEnd(signo)
                    Self.endProcess(signo)
                }
            }
        }
        thread.name = "shopy.browse.signals"
        thread.start()
        ready.wait()
    }

    /// Stops the process group with `signo`'s default action, as the terminal's Ctrl-Z would;
    /// returns once continued, true when the SIGCONT that continued it came (it is taken here,
    /// so that the caller's one redraw is the only one). False when nothing stopped the process:
    /// in an orphaned process group the kernel drops such a stop (nobody could continue it).
    @discardableResult
    static func stopProcess(_ signo: Int32) -> Bool {
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, signo)
        signal(signo, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &one, nil)
        kill(0, signo)
        // The stop is any thread's to take (an older one, not blocking it, often is): the default
        // action stays until the process has stopped and been continued, else the forwarding
        // handler, put back too early, would turn the stop into a forwarded signal.
        var continued = true
        #if os(Linux)
        // The SIGCONT may reach another thread first, whose handler passes it on: it is given a
        // moment. A stop that was dropped costs that moment.
        var cont = sigset_t()
        sigemptyset(&cont)
        sigaddset(&cont, SIGCONT)
        var moment = timespec(tv_sec: 0, tv_nsec: 250_000_000)
        continued = sigtimedwait(&cont, nil, &moment) == SIGCONT
        #endif
        pthread_sigmask(SIG_BLOCK, &one, nil)
        cshopy_forward_signal(signo, pthread_self())
        return continued
    }

    /// Whether a signal that ends browse (a stop signal, or one of `endingSignals`) is waiting to
    /// be taken, or comes within `milliseconds` (one delivered to another thread reaches this
    /// one through the forwarding handler a moment later). Called on the signal thread; a signal
    /// taken here is raised again to this thread, for its sigwait.
    static func endingSignalPending(within milliseconds: Int = 50) -> Bool {
        var ending = sigset_t()
        sigemptyset(&ending)
        for signo in stopSignals + endingSignals() { sigaddset(&ending, signo) }
        var pending = sigset_t()
        sigemptyset(&pending)
        if sigpending(&pending) == 0, (stopSignals + endingSignals()).contains(where: { sigismember(&pending, $0) == 1 }) { return true }
        #if os(Linux)
        var moment = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
        let signo = sigtimedwait(&ending, nil, &moment)
        guard signo > 0 else { return false }
        pthread_kill(pthread_self(), signo)
        return true
        #else
        return false
        #endif
    }

    /// Ends the process of `signo` with its default action (a core dump where that is it).
    static func endProcess(_ signo: Int32) -> Never {
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, signo)
        signal(signo, SIG_DFL)
        pthread_sigmask(SIG_UNBLOCK, &one, nil)
        raise(signo)
        _exit(128 + signo)
    }
}
