/// An area's error that can say how a request failed below HTTP. `SourceError` (search) and
/// `DataLabError` (trends) each have these cases; their words and exit codes stay their own.
import ShopYBase

package protocol TransportFailure: Error {
    static func timeout(seconds: Double, host: String) -> Self
    static func unreachable(host: String, reason: SourceError.Unreachable) -> Self
    static func truncatedResponse(received: Int, expected: Int?) -> Self
    static func responseTooLarge(_ limit: ResponseLimit) -> Self
    static func badResponse(_ detail: String) -> Self
    static func networkingUnavailable(library: String, reason: String?) -> Self
}

extension SourceError: TransportFailure {}
extension DataLabError: TransportFailure {}

extension TransportError {
    /// This failure as the area's error: `host` and `port` name the server, `timeout` is the
    /// user's --timeout (what a timeout line says).
    package func mapped<Failure: TransportFailure>(to: Failure.Type = Failure.self, host: String, port: Int, timeout: Double) -> Failure {
        switch self {
        case .timeout, .cancelled: return .timeout(seconds: timeout, host: host)
        case .dns: return .unreachable(host: host, reason: .dns)
        case .refused: return .unreachable(host: host, reason: .refused(port: port))
        case .noAnswer: return .unreachable(host: host, reason: .noAnswer)
        case .tls(let failure): return .unreachable(host: host, reason: .tls(failure))
        case .notConnected: return .unreachable(host: host, reason: .other("the network is not connected"))
        case .truncated(let received, let expected): return .truncatedResponse(received: received, expected: expected)
        case .tooLarge(let limit): return .responseTooLarge(limit)
        case .proxy(let proxy, let variable, let reason): return .unreachable(host: host, reason: .proxy(proxy: proxy, variable: variable, reason: reason))
        case .malformed(let text): return .badResponse(Sanitizer.clean(text))
        case .unavailable(let library, let reason):
            // The loader's words, unless they only say that the default library is not installed.
            let missing = reason.isEmpty || library == "libcurl.so.4" && reason.contains("cannot open shared object file")
            return .networkingUnavailable(library: Sanitizer.clean(library), reason: missing ? nil : Sanitizer.clean(reason))
        case .other(let text): return .unreachable(host: host, reason: .other(Sanitizer.clean(text)))
        }
    }
}
