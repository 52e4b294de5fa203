import Foundation

/// Sends DataLab requests: POST with the scheme's keys, the contract's errors, retries of
/// throttles and server errors with the same backoff as search, inside one overall deadline.
public struct DataLabClient: Sendable {
    public var base: URL
    public var keys: DataLabKeys
    public var transport: any HTTPTransport
    public var retry: RetryPolicy
    public var trace: Tracer

    public init(base: URL, keys: DataLabKeys, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy(), trace: Tracer = .off) {
        self.base = base
        self.keys = keys
        self.transport = transport
        self.retry = retry
        self.trace = trace
    }

    var host: String { base.host ?? base.absoluteString }

    /// `{base}{endpoint}`, with the base's trailing slashes dropped.
    public func url(for endpoint: DataLabRequest.Endpoint) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + endpoint.path)!
    }

    /// One request (with retries), answered before `deadline`; `label` names it in --verbose.
    public func send(_ request: DataLabRequest, periods: [CalendarDate], deadline: ContinuousClock.Instant, timeout: Double,
                     label: String) async throws(DataLabError) -> DataLabAnswer {
        let clock = ContinuousClock()
        let url = url(for: request.endpoint)
        let body = request.bodyBytes
        let headers = keys.headers + [("Content-Type", "application/json"), ("Accept", "application/json"),
                                      ("User-Agent", "shopy/\(ShopYVersion.current)")]
        var attempt = 0
        while true {
            attempt += 1
            trace("> POST \(url.absoluteString) [\(label)] \(String(decoding: body, as: UTF8.self))")
            trace("> \(keys.redactedHeaders)")
            let started = clock.now
            let response: HTTPResponse
            do {
                response = try await transport.send(HTTPRequest(method: .post, url: url, headers: headers, body: body), deadline: deadline)
            } catch {
                trace("< [\(label)] \(NaverClient.describe(error)) after \(NaverClient.millis(started.duration(to: clock.now))) ms")
                throw map(error, timeout: timeout)
            }
            trace("< [\(label)] \(response.status) (\(NaverClient.millis(started.duration(to: clock.now))) ms, \(response.body.count) bytes)")

            let failure: DataLabError
            let error = WireErrorBody(body: response.body)
            let message = error.map { Sanitizer.clean($0.errorMessage) }
            let code = error.map(\.errorCode).flatMap { $0.isEmpty ? nil : Sanitizer.clean($0) }
            switch response.status {
            case 200:
                return try DataLabAnswer(body: response.body, request: request, periods: periods)
            case 429:
                if code == "010" { throw .quotaExceeded(serverMessage: message) }
                failure = .rateLimited(attempts: attempt, code: code, serverMessage: message)
            case 500...599:
                failure = .serverError(status: response.status, code: code, serverMessage: message, attempts: attempt)
            case 300...399:
                throw .redirected(status: response.status, location: response.headers["location"].map(Sanitizer.clean))
            case 401:
                throw .authentication(status: 401, code: code, serverMessage: message, variables: keys.variableNames)
            case 403:
                throw .permission(code: code, serverMessage: message, scheme: keys.scheme)
            default:
                throw .rejected(status: response.status, code: code, serverMessage: message ?? NaverClient.snippet(response.body))
            }

            guard attempt <= retry.maxRetries else { throw failure }
            let retryAfter = RetryPolicy.retryAfter(response.headers["retry-after"], now: Date())
            let delay = retry.delay(retry: attempt, retryAfter: retryAfter, random: Double.random(in: 0...1))
            // A hostile Retry-After (1e300, inf) must not overflow the arithmetic: compare in seconds first.
            let left = clock.now.duration(to: deadline).components
            guard delay.isFinite, delay < Double(left.seconds) + Double(left.attoseconds) / 1e18 else {
                trace("[\(label)] no time left for a retry within --timeout")
                throw failure
            }
            let wake = clock.now.advanced(by: .milliseconds(Int64(delay * 1000)))
            trace("[\(label)] retry \(attempt)/\(retry.maxRetries) in \(String(format: "%.2f", delay)) s")
            do {
                try await Task.sleep(until: wake, clock: clock)
            } catch {
                throw failure
            }
        }
    }

    func map(_ error: TransportError, timeout: Double) -> DataLabError {
        switch error {
        case .timeout, .cancelled: return .timeout(seconds: timeout, host: host)
        case .dns: return .unreachable(host: host, reason: .dns)
        case .refused: return .unreachable(host: host, reason: .refused(port: base.port ?? (base.scheme?.lowercased() == "https" ? 443 : 80)))
        case .noAnswer: return .unreachable(host: host, reason: .noAnswer)
        case .tls: return .unreachable(host: host, reason: .tls)
        case .notConnected: return .unreachable(host: host, reason: .other("the network is not connected"))
        case .truncated(let received, let expected): return .truncatedResponse(received: received, expected: expected)
        case .tooLarge(let limit): return .responseTooLarge(limit)
        case .proxy(let proxy, let variable, let reason): return .unreachable(host: host, reason: .proxy(proxy: proxy, variable: variable, reason: reason))
        case .malformed(let text): return .badResponse(Sanitizer.clean(text))
        case .unavailable(let library, let reason):
            // SHOPY_LIBCURL's own file: the loader's words (they name it); the default: the library.
            return .networkingUnavailable(library: Sanitizer.clean(library == "libcurl.so.4" || reason.isEmpty ? library : reason))
        case .other(let text): return .unreachable(host: host, reason: .other(Sanitizer.clean(text)))
        }
    }
}
