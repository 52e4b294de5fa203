import Foundation

/// A request: method, URL, headers and (for POST) a body.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }

    public var method: Method
    public var url: URL
    public var headers: [(String, String)]
    /// The body sent with a POST (nil for GET).
    public var body: [UInt8]?
    /// The most body bytes accepted (at most `ResponseLimit.maxBodyBytes`); past it the request
    /// fails with `.tooLarge(.body)`. Pictures ask for less than the API's cap.
    public var maxBodyBytes = ResponseLimit.maxBodyBytes

    public init(method: Method = .get, url: URL, headers: [(String, String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A complete answer.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// How a request failed below HTTP, in plain categories.
public enum TransportError: Error, Equatable, Sendable {
    case timeout
    case dns
    case refused
    /// The connection broke before any answer.
    case noAnswer
    /// The connection broke after the headers: `received` body bytes of `expected`.
    case truncated(received: Int, expected: Int?)
    /// The secure connection failed, and why.
    case tls(TLSFailure)
    case notConnected
    case cancelled
    /// The answer passed a cap (`ResponseLimit`): reading stopped there.
    case tooLarge(ResponseLimit)
    /// The proxy the environment names (`proxy`, without credentials, and the variable it came
    /// from) could not be used: `reason` in plain words.
    case proxy(proxy: String, variable: String, reason: String)
    /// The answer's framing or content encoding is broken (a corrupt gzip stream).
    case malformed(String)
    /// The HTTP library cannot be loaded (`library`: the file tried; `reason`: the loader's words).
    case unavailable(library: String, reason: String)
    case other(String)
}

/// Sends requests. The real one is `SystemTransport.shared`; tests may substitute their own.
public protocol HTTPTransport: Sendable {
    /// Performs `request` (any method), giving up at `deadline` (the caller's whole budget).
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse
}

/// The platform's transport: libcurl (loaded at the first request) on Linux, URLSession elsewhere.
public enum SystemTransport {
    public static var shared: any HTTPTransport {
        #if os(Linux)
        CurlTransport.shared
        #else
        URLSessionTransport.shared
        #endif
    }
}
