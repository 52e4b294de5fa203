import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CShopYShim

/// SIGINT, SIGTERM, SIGHUP and SIGWINCH for the browse driver, taken with sigwait on a thread
/// of their own (as `StopSignals` does for INT and TERM): the signals are blocked in the calling
/// thread and every thread it starts, and a forwarding handler passes a delivery to any older
/// thread on to the waiter, so none is lost and none ends the process before the terminal is
/// restored.
public final class TerminalSignals: Sendable {
    public static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let onStop: @Sendable (Int32) -> Void
    private let onResize: @Sendable () -> Void

    public init(onStop: @escaping @Sendable (Int32) -> Void, onResize: @escaping @Sendable () -> Void) {
        self.onStop = onStop
        self.onResize = onResize
    }

    public func start() {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in Self.stopSignals + [SIGWINCH] { sigaddset(&set, signo) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let mask = set
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [onStop, onResize] in
            for signo in Self.stopSignals + [SIGWINCH] { cshopy_forward_signal(signo, pthread_self()) }
            ready.signal()
            var waitSet = mask
            while true {
                var signo: Int32 = 0
                guard sigwait(&waitSet, &signo) == 0 else { continue }
                if signo == SIGWINCH { onResize() } else { onStop(signo) }
            }
        }
        thread.name = "shopy.browse.signals"
        thread.start()
        ready.wait()
    }
}
