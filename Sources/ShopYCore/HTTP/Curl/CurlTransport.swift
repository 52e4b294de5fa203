#if os(Linux)
import Foundation

/// The Linux transport: libcurl, opened at the first request (`SHOPY_LIBCURL` names another
/// file than libcurl.so.4), one connection cache for the process, the caller's deadline in
/// milliseconds, and a cancelled task's transfer aborted at once.
public struct CurlTransport: HTTPTransport {
    public static let shared = CurlTransport()

    /// A PEM file of certificates trusted instead of the system's and SSL_CERT_FILE's. Only
    /// tests set it, to reach a loopback TLS server; verification is on either way.
    let trustedCertificatesFile: String?

    public init() { trustedCertificatesFile = nil }

    init(trustingCertificatesIn file: String) { trustedCertificatesFile = file }

    /// What this request trusts: the test's file, else SSL_CERT_FILE and SSL_CERT_DIR, else the system's.
    var trusted: TrustedCertificates {
        if let trustedCertificatesFile { return TrustedCertificates(file: trustedCertificatesFile) }
        return TrustedCertificates.fromEnvironment()
    }

    public func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timeout }
        let trusted = self.trusted
        if request.url.scheme?.lowercased() == "https", let problem = trusted.unusable() { throw .tls(.trustStoreUnreadable(problem)) }
        let driver = try CurlDriver.shared.get()
        let (seconds, attoseconds) = remaining.components
        // Rounded up, plus 2 ms: curl's own clock starts when the handle is added and its timer
        // may fire a fraction of a millisecond early, and a transfer must never end before the
        // caller's deadline (seen: 799.6 ms for an 800 ms deadline).
        let milliseconds = Int(clamping: seconds) &* 1000 &+ Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000) &+ 2
        let transfer = try CurlTransfer.make(request, timeoutMilliseconds: min(milliseconds, 3_600_000 * 24),
                                             proxy: ProxyEnvironment.proxy(for: request.url),
                                             trusted: trusted)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                driver.start(transfer, continuation: continuation)
            }
        } onCancel: {
            driver.cancel(transfer)
        }
        return try outcome.get()
    }
}
#endif
