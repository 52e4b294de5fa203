import Foundation
import ShopYBase

/// Sends DataLab requests: POST with the scheme's keys, the contract's errors, retries of
/// throttles and server errors with the same backoff as search, inside one overall deadline.
public struct DataLabClient: Sendable {
    public var base: URL
    public var keys: DataLabKeys
    public var transport: any HTTPTransport
    public var retry: RetryPolicy
    public var trace: Tracer
    /// What the deadline and the retries' backoff are timed by.
    public var clock: any TimerClock

    public init(base: URL, keys: DataLabKeys, transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy(), trace: Tracer = .off,
                clock: any TimerClock = SystemClock()) {
        self.base = base
        self.keys = keys
        self.transport = transport
        self.retry = retry
        self.trace = trace
        self.clock = clock
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
        let url = url(for: request.endpoint)
        let body = request.bodyBytes
        let headers = keys.headers + [("Content-Type", "application/json"), ("Accept", "application/json"),
                                      ("User-Agent", "shopy/\(ShopYVersion.current)")]
        var sender = RetryingRequest(transport: transport, retry: retry, trace: trace, base: base, label: label, clock: clock)
        sender.keys = [keys.id, keys.secret]
        let requestTrace = ["> POST \(url.absoluteString) [\(label)] \(String(decoding: body, as: UTF8.self))", "> \(keys.redactedHeaders)"]
        return try await sender.send(HTTPRequest(method: .post, url: url, headers: headers, body: body), deadline: deadline, timeout: timeout,
                                      requestTrace: requestTrace) { response, attempt throws(DataLabError) in
            try interpret(response, attempt: attempt, request: request, periods: periods)
        }
    }

    /// DataLab's answer to one attempt: the series, a final error, or a throttle or server error
    /// worth a retry.
    func interpret(_ response: HTTPResponse, attempt: Int, request: DataLabRequest,
                   periods: [CalendarDate]) throws(DataLabError) -> AttemptOutcome<DataLabAnswer, DataLabError> {
        let error = WireErrorBody(body: response.body)
        // Decoded, the server's words may spell a key its raw bytes did not (`\u0041`).
        let message = error.map { KeyRedaction.serverText($0.errorMessage, keys: [keys.id, keys.secret]) }
        let code = error.map(\.errorCode).flatMap { $0.isEmpty ? nil : KeyRedaction.serverText($0, keys: [keys.id, keys.secret], limit: 40) }
        switch response.status {
        case 200:
            return .success(try DataLabAnswer(body: response.body, request: request, periods: periods))
        case 429:
            if code == "010" { throw .quotaExceeded(serverMessage: message) }
            return .retry(.rateLimited(attempts: attempt, code: code, serverMessage: message))
        case 500...599:
            return .retry(.serverError(status: response.status, code: code, serverMessage: message, attempts: attempt))
        case 300...399:
            throw .redirected(status: response.status, location: response.headers["location"].map(Sanitizer.clean))
        case 401:
            throw .authentication(status: 401, code: code, serverMessage: message, variables: keys.variableNames)
        case 403:
            throw .permission(code: code, serverMessage: message, scheme: keys.scheme)
        default:
            throw .rejected(status: response.status, code: code, serverMessage: message ?? RetryingRequest.snippet(response.body))
        }
    }
}
