import Foundation
import ShopYBase

/// The two keys of a Naver Developers application. Never printed.
public struct NaverCredentials: Sendable, Equatable {
    public var clientID: String
    public var clientSecret: String

    public init(clientID: String, clientSecret: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    /// Both NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, non-empty, or nil.
    public static func from(environment: [String: String]) -> NaverCredentials? {
        guard let id = environment["NAVER_CLIENT_ID"]?.trimmingASCIIWhitespace(), !id.isEmpty,
              let secret = environment["NAVER_CLIENT_SECRET"]?.trimmingASCIIWhitespace(), !secret.isEmpty else { return nil }
        return NaverCredentials(clientID: id, clientSecret: secret)
    }
}

/// Builds the contract's request URL.
public enum RequestBuilder {
    public static let defaultBase = "https://openapi.naver.com"
    public static let path = "/v1/search/shop.json"

    /// The base from SHOPY_API_BASE (default openapi.naver.com), checked to be an http(s) URL.
    public static func base(from environment: [String: String]) throws(SourceError) -> URL {
        let text = environment["SHOPY_API_BASE"].map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 } ?? defaultBase
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, (1...65535).contains(url.port ?? 80) else {
            throw .invalidBaseURL(URLRedaction.redact(text))
        }
        return url
    }

    /// `{base}/v1/search/shop.json?query=…&display=…&start=…&sort=…[&filter=naverpay][&exclude=a:b]`.
    /// The query is percent-encoded outside the unreserved set, so `1+1`, `&`, `=`, `#` and `%`
    /// reach the server exactly as typed (URLComponents would leave `+` raw, which servers read
    /// as a space).
    public static func url(base: URL, request: SearchRequest) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        text += "?query=" + percentEncode(request.query)
        text += "&display=\(request.display)&start=\(request.start)&sort=\(request.sort.rawValue)"
        if request.naverPayOnly { text += "&filter=naverpay" }
        if !request.exclude.isEmpty {
            text += "&exclude=" + request.exclude.sorted().map(\.rawValue).joined(separator: ":")
        }
        return URL(string: text)!
    }

    /// Percent-encodes every byte outside ALPHA / DIGIT / "-" / "." / "_" / "~".
    public static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Retry policy: up to `maxRetries` more attempts for 429 throttles and 5xx, with exponential
/// backoff and full jitter, honouring Retry-After, never past the deadline.
public struct RetryPolicy: Sendable {
    public var maxRetries: Int = 3
    public var baseDelay: Double = 0.25
    public var maxDelay: Double = 8

    public init(maxRetries: Int = 3, baseDelay: Double = 0.25, maxDelay: Double = 8) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Delay before retry number `retry` (1-based): between half and all of base·2^(retry-1).
    public func delay(retry: Int, retryAfter: Double?, random: Double) -> Double {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(retry - 1)))
        let jittered = exponential * (0.5 + 0.5 * random)
        if let retryAfter { return max(retryAfter, jittered) }
        return jittered
    }

    /// Seconds from a Retry-After header (RFC 9110: delay-seconds or an HTTP-date), clamped to
    /// `RetryAfter.maxSeconds`; nil when absent or not valid.
    public static func retryAfter(_ value: String?, now: Date) -> Double? {
        RetryAfter.seconds(value, now: now)
    }
}

/// The Naver Shopping search client: one request, the contract's errors, retries, a hard deadline.
public struct NaverClient: Sendable {
    public var base: URL
    public var credentials: NaverCredentials
    public var transport: any HTTPTransport
    public var retry: RetryPolicy
    public var trace: Tracer
    /// Gate for each request (the rate limiter of `shopy rank`); nil for none.
    public var beforeRequest: (@Sendable () async -> Void)?
    /// What the deadline and the retries' backoff are timed by.
    public var clock: any TimerClock

    public init(base: URL, credentials: NaverCredentials, transport: any HTTPTransport = SystemTransport.shared,
                retry: RetryPolicy = RetryPolicy(), trace: Tracer = .off, beforeRequest: (@Sendable () async -> Void)? = nil,
                clock: any TimerClock = SystemClock()) {
        self.base = base
        self.credentials = credentials
        self.transport = transport
        self.retry = retry
        self.trace = trace
        self.beforeRequest = beforeRequest
        self.clock = clock
    }

    var host: String { base.host ?? base.absoluteString }

    var hostAndPort: (String, Int) {
        let port = base.port ?? (base.scheme?.lowercased() == "https" ? 443 : 80)
        return (host, port)
    }

    /// Searches once (with retries), within `timeout` seconds overall.
    public func search(_ request: SearchRequest, timeout: Double) async throws(SourceError) -> WireSearchResponse {
        // The first wait at the gate (a rate limiter, a path that is down) is not the server's
        // time: the deadline starts when the first request may leave.
        if let beforeRequest { await beforeRequest() }
        let deadline = clock.deadline(after: timeout)
        let url = RequestBuilder.url(base: base, request: request)
        let headers = [("X-Naver-Client-Id", credentials.clientID), ("X-Naver-Client-Secret", credentials.clientSecret),
                       ("Accept", "application/json"), ("User-Agent", "shopy/\(ShopYVersion.current)")]
        var sender = RetryingRequest(transport: transport, retry: retry, trace: trace, base: base, clock: clock)
        sender.keys = [credentials.clientID, credentials.clientSecret]
        let requestTrace = ["> GET \(URLRedaction.redact(url.absoluteString))", "> X-Naver-Client-Id: [redacted]  X-Naver-Client-Secret: [redacted]"]
        return try await sender.send(HTTPRequest(url: url, headers: headers), deadline: deadline, timeout: timeout, requestTrace: requestTrace,
                                      beforeRetry: beforeRequest, retryAfterPastDeadline: { response, seconds in self.retryAfterPastDeadline(response, seconds: seconds) }) { response, attempt throws(SourceError) in
            try interpret(response, attempt: attempt)
        }
    }

    /// The contract's answer to one attempt: the page, a final error, or a throttle or server
    /// error worth a retry.
    func interpret(_ response: HTTPResponse, attempt: Int) throws(SourceError) -> AttemptOutcome<WireSearchResponse, SourceError> {
        switch response.status {
        case 200:
            do {
                return .success(try WireSearchResponse(body: response.body))
            } catch {
                throw .badResponse(error.description)
            }
        case 429:
            let body = WireErrorBody(body: response.body)
            if body?.errorCode == "010" { throw .quotaExceeded(serverMessage: body.map { shown($0.errorMessage) }) }
            return .retry(.rateLimited(attempts: attempt, serverMessage: body.map { shown($0.errorMessage) },
                                       code: body.map(\.errorCode).flatMap { $0.isEmpty ? nil : shown($0, limit: 40) }))
        case 500...599:
            let body = WireErrorBody(body: response.body)
            return .retry(.serverError(status: response.status, code: body.map(\.errorCode).flatMap { $0.isEmpty ? nil : shown($0, limit: 40) },
                                       serverMessage: body.map { shown($0.errorMessage) }, attempts: attempt))
        case 300...399:
            throw .redirected(status: response.status, location: response.headers["location"].map(Sanitizer.clean))
        case 401, 403:
            let body = WireErrorBody(body: response.body)
            throw .authentication(status: response.status, code: body.map(\.errorCode).flatMap { $0.isEmpty ? nil : shown($0, limit: 40) }, serverMessage: body.map { shown($0.errorMessage) })
        default:
            let body = WireErrorBody(body: response.body)
            if response.status == 404 && body?.errorCode == "SE05" { throw .retired(host: host) }
            throw .rejected(status: response.status, code: body.map(\.errorCode).flatMap { $0.isEmpty ? nil : shown($0, limit: 40) },
                            serverMessage: body.map { shown($0.errorMessage) } ?? RetryingRequest.snippet(response.body))
        }
    }

    /// What the server wrote, as shopy shows it (`KeyRedaction.serverText`).
    func shown(_ text: String, limit: Int = 300) -> String {
        KeyRedaction.serverText(text, keys: [credentials.clientID, credentials.clientSecret], limit: limit)
    }

    /// A throttle or server error whose Retry-After asks for more time than --timeout leaves.
    func retryAfterPastDeadline(_ response: HTTPResponse, seconds: Double) -> SourceError {
        let body = WireErrorBody(body: response.body)
        return .retryAfterDeadline(status: response.status, seconds: seconds,
                                   code: body.map(\.errorCode).flatMap { $0.isEmpty ? nil : shown($0, limit: 40) },
                                   serverMessage: body.map { shown($0.errorMessage) })
    }

    func mapTransport(_ error: TransportError, timeout: Double) -> SourceError {
        error.mapped(host: host, port: hostAndPort.1, timeout: timeout)
    }
}
