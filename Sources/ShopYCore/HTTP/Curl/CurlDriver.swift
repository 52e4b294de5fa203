#if os(Linux)
import Foundation
import CShopYShim

/// One libcurl multi handle for the whole process, driven by one thread that sleeps in
/// curl_multi_poll (in the kernel) between socket events and curl's own timers: no loop spins
/// while an answer is awaited. The multi handle's connection cache is what lets the pages of a
/// `rank` scan and the sections of `popular` reuse their connections.
///
/// Other threads only hand transfers in (`start`) or ask to stop them (`cancel`), then wake
/// the poll; every curl call on the multi handle happens on the driver's thread.
final class CurlDriver: @unchecked Sendable {
    /// Made at the first request (loading libcurl then), or why networking is unavailable.
    static let shared: Result<CurlDriver, TransportError> = {
        switch LibCurl.loaded {
        case .failure(let error):
            return .failure(error)
        case .success:
            guard let multi = cshopy_curl_multi_init() else {
                return .failure(.unavailable(library: LibCurl.defaultName, reason: "curl_multi_init failed"))
            }
            let driver = CurlDriver(multi: multi)
            driver.startThread()
            return .success(driver)
        }
    }()

    /// How long the poll sleeps at most when nothing is due (a wakeup or curl's timer comes first).
    private static let idlePollMilliseconds: Int32 = 60_000
    private static let busyPollMilliseconds: Int32 = 1_000

    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    // Guarded by `lock`.
    private var arriving: [CurlTransfer] = []
    private var stopping: [CurlTransfer] = []
    // Driver thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private init(multi: UnsafeMutableRawPointer) {
        self.multi = multi
        // Idle connections kept for reuse (curl's default is 4 per added handle).
        _ = cshopy_curl_multi_setopt_long(multi, CSHOPY_CURLMOPT_MAXCONNECTS, 16)
    }

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "shopy-curl"
        thread.start()
    }

    /// Hands `transfer` to the driver; `continuation` gets its outcome exactly once.
    func start(_ transfer: CurlTransfer, continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
        let cancelledAlready: Bool = lock.withLock {
            if transfer.cancelRequested { return true }
            transfer.continuation = continuation
            arriving.append(transfer)
            return false
        }
        if cancelledAlready {
            continuation.resume(returning: .failure(.cancelled))
            return
        }
        _ = cshopy_curl_multi_wakeup(multi)
    }

    /// Stops `transfer` (its task was cancelled): it ends with `.cancelled` at the next wakeup.
    func cancel(_ transfer: CurlTransfer) {
        lock.withLock {
            transfer.cancelRequested = true
            stopping.append(transfer)
        }
        _ = cshopy_curl_multi_wakeup(multi)
    }

    private func finish(_ transfer: CurlTransfer, _ outcome: Result<HTTPResponse, TransportError>) {
        let continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>? = lock.withLock {
            defer { transfer.continuation = nil }
            return transfer.continuation
        }
        continuation?.resume(returning: outcome)
    }

    private func run() {
        while true {
            let (added, stopped): ([CurlTransfer], [CurlTransfer]) = lock.withLock {
                defer {
                    arriving.removeAll()
                    stopping.removeAll()
                }
                return (arriving, stopping)
            }
            for transfer in added {
                if cshopy_curl_multi_add_handle(multi, transfer.easy) == 0 {
                    active[transfer.easy] = transfer
                } else {
                    finish(transfer, .failure(.other("libcurl refused the transfer")))
                }
            }
            for transfer in stopped {
                // Identity, not just the address: the transfer may have finished already.
                if let current = active[transfer.easy], current === transfer {
                    active.removeValue(forKey: transfer.easy)
                    _ = cshopy_curl_multi_remove_handle(multi, transfer.easy)
                }
                finish(transfer, .failure(.cancelled))
            }

            var running: Int32 = 0
            _ = cshopy_curl_multi_perform(multi, &running)
            var code: Int32 = 0
            while let easy = cshopy_curl_multi_next_done(multi, &code) {
                guard let transfer = active.removeValue(forKey: easy) else { continue }
                _ = cshopy_curl_multi_remove_handle(multi, easy)
                finish(transfer, transfer.outcome(code))
            }
            _ = cshopy_curl_multi_poll(multi, active.isEmpty ? Self.idlePollMilliseconds : Self.busyPollMilliseconds)
        }
    }
}
#endif
