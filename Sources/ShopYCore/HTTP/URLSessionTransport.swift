import Foundation
#if !os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Apple platforms' transport (Linux uses `CurlTransport`: FoundationNetworking busy-polls,
/// costs every start its dynamic linking, and never reuses connections there).
///
/// URLSession with what Linux's FoundationNetworking lacks: a hard overall deadline (the resource
/// timeout is never enforced there and the request timeout is whole seconds of idleness), and a
/// distinction between "no answer" and "answer cut short", which completion handlers blur.
///
/// One session for the whole process, never invalidated.
public final class URLSessionTransport: NSObject, HTTPTransport, URLSessionDataDelegate, @unchecked Sendable {
    public static let shared = URLSessionTransport()

    private final class TaskState: @unchecked Sendable {  // guarded by `lock`
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var timedOut = false
        /// Set when the body passed `ResponseLimit.maxBodyBytes` (the task is cancelled then).
        var tooLarge = false
        /// The request's own cap (`HTTPRequest.maxBodyBytes`).
        var maxBodyBytes = ResponseLimit.maxBodyBytes
        /// Set when the caller's task was cancelled (or the deadline passed) before the request
        /// started: a URLSessionTask cancelled before `resume()` may never complete on Linux,
        /// so such a request is answered at once instead of being started.
        var stopped = false
        var continuation: CheckedContinuation<HTTPResponse, Error>?
    }

    private let lock = NSLock()
    private var states: [Int: TaskState] = [:]
    private var session: URLSession!
    private let delegateQueue: OperationQueue

    private override init() {
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        super.init()
        // On Linux the first session configuration sets up Foundation's shared cookie store and
        // URL cache, which create $XDG_DATA_HOME/<program> and ~/.cache/<program> directories.
        // shopy uses neither, so while they are set up the XDG variables point where nothing
        // can be created (and are put back right after).
        let names = ["XDG_DATA_HOME", "XDG_CACHE_HOME"]
        let saved: [(String, String?)] = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
        #if os(Linux)
        for (name, _) in saved { setenv(name, "/proc/self/shopy-no-foundation-store", 1) }
        #endif
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpMaximumConnectionsPerHost = 16
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
        #if os(Linux)
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        #endif
    }

    /// Redirects are refused: the keys would go along to wherever the server points (over plain
    /// HTTP even, from HTTPS). The 3xx is reported as the server's answer instead.
    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    public func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw .timeout }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        if let body = request.body { urlRequest.httpBody = Data(body) }
        // Whole seconds on Linux; the real limit is the deadline timer below.
        urlRequest.timeoutInterval = max(1, (Double(remaining.components.seconds) + 1).rounded(.up))
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let state = TaskState()
        state.maxBodyBytes = min(request.maxBodyBytes, ResponseLimit.maxBodyBytes)
        lock.withLock { states[id] = state }

        let timer = DispatchSource.makeTimerSource(queue: .global())
        let nanos = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
        timer.schedule(deadline: .now() + .nanoseconds(Int(max(0, nanos))))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.withLock {
                state.timedOut = true
                state.stopped = true
            }
            task.cancel()
        }
        timer.resume()
        defer { timer.cancel() }

        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                    let start: Bool = lock.withLock {
                        if state.stopped {
                            states.removeValue(forKey: id)
                            return false
                        }
                        state.continuation = continuation
                        return true
                    }
                    if start {
                        task.resume()
                    } else {
                        continuation.resume(throwing: state.timedOut ? TransportError.timeout : TransportError.cancelled)
                    }
                }
            } onCancel: {
                lock.withLock { state.stopped = true }
                task.cancel()
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw .other(String(describing: error))
        }
    }

    // MARK: URLSessionDataDelegate

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { states[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit: Bool = lock.withLock {
            guard let state = states[dataTask.taskIdentifier], !state.tooLarge else { return false }
            guard state.body.count + data.count <= state.maxBodyBytes else {
                state.tooLarge = true
                return true
            }
            state.body.append(contentsOf: data)
            return false
        }
        if overLimit { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let state: TaskState? = lock.withLock { states.removeValue(forKey: task.taskIdentifier) }
        guard let state, let continuation = state.continuation else { return }
        if let error {
            continuation.resume(throwing: URLSessionTransport.classify(error, state: state))
            return
        }
        if state.tooLarge {
            continuation.resume(throwing: TransportError.tooLarge(.body))
            return
        }
        guard let response = state.response else {
            continuation.resume(throwing: TransportError.noAnswer)
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        // Some stacks report a short body as success: check the announced length ourselves.
        if let length = headers["content-length"].flatMap({ Int($0) }), length > state.body.count {
            continuation.resume(throwing: TransportError.truncated(received: state.body.count, expected: length))
            return
        }
        continuation.resume(returning: HTTPResponse(status: response.statusCode, headers: headers, body: state.body))
    }

    private static func classify(_ error: Error, state: TaskState) -> TransportError {
        if state.tooLarge { return .tooLarge(.body) }
        if state.timedOut { return .timeout }
        let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code)
        let expected = state.response.flatMap { response -> Int? in
            let length = response.expectedContentLength
            return length >= 0 ? Int(length) : nil
        }
        switch code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .cannotFindHost, .dnsLookupFailed: return .dns
        case .cannotConnectToHost: return .refused
        case .notConnectedToInternet: return .notConnected
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot: return .tls(.untrusted(nil))
        case .serverCertificateHasBadDate: return .tls(.expired)
        case .serverCertificateNotYetValid: return .tls(.notYetValid)
        case .secureConnectionFailed, .clientCertificateRejected: return .tls(.handshake(error.localizedDescription))
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            if state.response != nil { return .truncated(received: state.body.count, expected: expected) }
            // No headers yet means no body either: the connection closed without an answer.
            return .noAnswer
        default:
            if state.response != nil, let expected, expected > state.body.count {
                return .truncated(received: state.body.count, expected: expected)
            }
            return .other(error.localizedDescription)
        }
    }
}
#endif
