import Foundation
import ShopYBase

/// 11번가 Open API's client: one GET of `OpenApiService.tmall` with the key in the query, the
/// answer read as `ElevenStreetAnswer`, 429 and 5xx retried as Naver's are (`RetryingRequest`),
/// within one deadline.
///
/// The keyword is sent percent-encoded UTF-8 (every byte outside the unreserved set), as the
/// public clients that call the service in 2026 send it (Fixtures/README.md cites them).
public struct ElevenStreetClient: Sendable {
    public static let path = "/openapi/OpenApiService.tmall"
    /// What one page may ask for (public clients cap pageSize at 200).
    public static let maxPageSize = 200

    public var base: URL
    public var key: String
    public var transport: any HTTPTransport
    public var retry: RetryPolicy
    public var trace: Tracer
    /// Gate for each request (a rate limiter); nil for none.
    public var beforeRequest: (@Sendable () async -> Void)?
    /// What the deadline and the retries' backoff are timed by.
    public var clock: any TimerClock

    public init(base: URL, key: String, transport: any HTTPTransport = SystemTransport.shared, retry: RetryPolicy = RetryPolicy(),
                trace: Tracer = .off, beforeRequest: (@Sendable () async -> Void)? = nil, clock: any TimerClock = SystemClock()) {
        self.base = base
        self.key = key
        self.transport = transport
        self.retry = retry
        self.trace = trace
        self.beforeRequest = beforeRequest
        self.clock = clock
    }

    /// sortCd for shopy's sorts: CP (popularity, what 11번가 lists first), L (price low to high),
    /// H (price high to low): the codes public clients send. No code is known for `date`.
    public static func sortCode(_ sort: ShopYBase.SortOrder) -> String? {
        switch sort {
        case .sim: return "CP"
        case .asc: return "L"
        case .dsc: return "H"
        case .date: return nil
        }
    }

    /// The search URL: `…/OpenApiService.tmall?key=K&apiCode=ProductSearch&keyword=Q&pageNum=N&pageSize=M&sortCd=C`.
    public func searchURL(keyword: String, sortCode: String, pageNum: Int, pageSize: Int) -> URL {
        URL(string: SourceKeys.join(base, Self.path) + "?key=" + RequestBuilder.percentEncode(key) + "&apiCode=ProductSearch&keyword="
            + RequestBuilder.percentEncode(keyword) + "&pageNum=\(pageNum)&pageSize=\(pageSize)&sortCd=" + sortCode)!
    }

    /// The lookup URL: `…?key=K&apiCode=ProductInfo&productCode=N`.
    public func infoURL(code: String) -> URL {
        URL(string: SourceKeys.join(base, Self.path) + "?key=" + RequestBuilder.percentEncode(key) + "&apiCode=ProductInfo&productCode="
            + RequestBuilder.percentEncode(code))!
    }

    public func search(keyword: String, sortCode: String, pageNum: Int, pageSize: Int, timeout: Double) async throws(SourceError) -> ElevenStreetAnswer.Search {
        try await get(searchURL(keyword: keyword, sortCode: sortCode, pageNum: pageNum, pageSize: pageSize), timeout: timeout) { body throws(SourceError) in
            try ElevenStreetAnswer.search(body)
        }
    }

    public func info(code: String, timeout: Double) async throws(SourceError) -> ElevenStreetAnswer.Info? {
        try await get(infoURL(code: code), timeout: timeout) { body throws(SourceError) in try ElevenStreetAnswer.info(body) }
    }

    func get<Value>(_ url: URL, timeout: Double, read: ([UInt8]) throws(SourceError) -> Value) async throws(SourceError) -> Value {
        if let beforeRequest { await beforeRequest() }
        let deadline = clock.deadline(after: timeout)
        let headers = [("Accept", "application/xml"), ("User-Agent", "shopy/\(ShopYVersion.current)")]
        var sender = RetryingRequest(transport: transport, retry: retry, trace: trace, base: base, label: "11st", clock: clock)
        sender.keys = [key]
        // The key is in the query: the trace shows the URL with it redacted.
        let shown = URLRedaction.redact(url.absoluteString).replacingOccurrences(of: "key=" + RequestBuilder.percentEncode(key), with: "key=" + URLRedaction.placeholder)
        let key = self.key
        do {
            return try await sender.send(HTTPRequest(url: url, headers: headers), deadline: deadline, timeout: timeout, requestTrace: ["> GET \(shown)"],
                                         beforeRetry: beforeRequest, retryAfterPastDeadline: Self.retryAfterPastDeadline) { response, attempt throws(SourceError) in
                try Self.interpret(response, attempt: attempt, read: read)
            }
        } catch {
            throw Self.withoutKey(error, key)
        }
    }

    static func interpret<Value>(_ response: HTTPResponse, attempt: Int, read: ([UInt8]) throws(SourceError) -> Value) throws(SourceError) -> AttemptOutcome<Value, SourceError> {
        let snippet = { RetryingRequest.snippet(response.body) }
        switch response.status {
        case 200:
            return .success(try read(response.body))
        case 429:
            return .retry(.rateLimited(attempts: attempt, serverMessage: snippet(), code: nil))
        case 500...599:
            return .retry(.serverError(status: response.status, code: nil, serverMessage: snippet(), attempts: attempt))
        case 300...399:
            throw .redirected(status: response.status, location: response.headers["location"].map(Sanitizer.clean))
        case 401, 403:
            throw .elevenStreetKeyRefused(code: String(response.status), message: snippet())
        default:
            throw .rejected(status: response.status, code: nil, serverMessage: snippet())
        }
    }

    /// An error inside a 200 is 11번가's own text, which may quote the request (its key, as is
    /// or percent-encoded as the URL carries it).
    static func withoutKey(_ error: SourceError, _ key: String) -> SourceError {
        switch error {
        case .elevenStreetKeyRefused(let code, let message): return .elevenStreetKeyRefused(code: code, message: message.map { KeyRedaction.redact([key], in: $0) })
        case .elevenStreetError(let code, let message): return .elevenStreetError(code: code, message: message.map { KeyRedaction.redact([key], in: $0) })
        default: return error
        }
    }

    static func retryAfterPastDeadline(_ response: HTTPResponse, seconds: Double) -> SourceError {
        .retryAfterDeadline(status: response.status, seconds: seconds, code: nil, serverMessage: RetryingRequest.snippet(response.body))
    }
}
