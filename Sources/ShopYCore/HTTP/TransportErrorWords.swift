/// A transport error in the plain words the error lines use, for the `--verbose` trace
/// (never Swift's enum text such as `proxy(proxy: …)`).
extension TransportError {
    public var plainWords: String {
        switch self {
        case .timeout: return "timed out"
        case .dns: return "the host name does not resolve"
        case .refused: return "connection refused"
        case .noAnswer: return "the connection closed without an answer"
        case .truncated(let received, let expected): return "body cut off at \(received) of \(expected.map(String.init) ?? "?") bytes"
        case .tls(let failure): return "TLS: " + failure.cause
        case .notConnected: return "no network"
        case .cancelled: return "cancelled"
        case .tooLarge(let limit): return limit == .headers ? "more than 64 KiB of header fields" : "more than 16 MiB of body"
        case .proxy(let proxy, let variable, let reason): return "the proxy \(proxy) (from \(variable)) cannot be used: \(reason)"
        case .malformed(let reason): return "a malformed answer: \(reason)"
        case .unavailable(let library, let reason): return "\(library) cannot be used: \(reason)"
        case .other(let reason): return reason
        }
    }
}
