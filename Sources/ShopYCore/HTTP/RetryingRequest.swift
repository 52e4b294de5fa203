import Foundation
import ShopYBase

/// What a client makes of one answer: its value, a final error, or an error worth another
/// attempt (a throttle, a server error) that stands if no attempt or time is left.
package enum AttemptOutcome<Value, Failure: Error> {
    case success(Value)
    case retry(Failure)
}

/// One request sent with retries, shared by the search and DataLab clients: the trace lines,
/// exponential backoff with full jitter (`RetryPolicy`), Retry-After, one overall deadline, and
/// transport failures mapped to the area's error. The client reads the status and the body.
package struct RetryingRequest: Sendable {
    package var transport: any HTTPTransport
    package var retry: RetryPolicy
    package var trace: Tracer
    /// The server, for error lines (timeout, unreachable).
    package var host: String
    package var port: Int
    /// Names the request in --verbose lines (`[label]`), or nil.
    package var label: String?
    /// The keys the request carries: taken out of every answer but a 2xx before it is read
    /// (`KeyRedaction`): what an error line may quote of it never shows them.
    package var keys: [String] = []
    /// What the backoff, the gate's deadline and the trace's milliseconds are timed by.
    package var clock: any TimerClock

    package init(transport: any HTTPTransport, retry: RetryPolicy, trace: Tracer, base: URL, label: String? = nil,
                 clock: any TimerClock = SystemClock()) {
        self.transport = transport
        self.retry = retry
        self.trace = trace
        self.clock = clock
        host = base.host ?? base.absoluteString
        port = base.port ?? (base.scheme?.lowercased() == "https" ? 443 : 80)
        self.label = label
    }

    /// Sends `request` until `interpret` answers `.success`, throws, or retries run out.
    /// - `requestTrace`: the lines --verbose shows before each attempt (keys redacted).
    /// - `beforeRetry`: a gate before each attempt after the first (a rate limiter).
    /// - `retryAfterPastDeadline`: the error when the server's Retry-After passes the deadline;
    ///   nil to treat that wait like any other that does not fit (the retried error stands).
    package func send<Value, Failure: TransportFailure>(
        _ request: HTTPRequest, deadline: ContinuousClock.Instant, timeout: Double, requestTrace: [String],
        beforeRetry: (@Sendable () async -> Void)? = nil,
        retryAfterPastDeadline: ((HTTPResponse, Double) -> Failure)? = nil,
        interpret: (HTTPResponse, _ attempt: Int) throws(Failure) -> AttemptOutcome<Value, Failure>
    ) async throws(Failure) -> Value {
        let tag = label.map { "[\($0)] " } ?? ""
        var attempt = 0
        var retried: Failure?
        while true {
            attempt += 1
            if let retried, let beforeRetry {
                // The gate (a rate limiter, a path that is down) may hold a retry longer than the
                // deadline allows: the retried error stands at the deadline, and nothing is sent.
                guard await Self.pass(beforeRetry, before: deadline, clock: clock) else {
                    trace("\(tag)no time left for a retry within --timeout")
                    throw retried
                }
            }
            for line in requestTrace { trace(line) }
            let started = clock.now
            let response: HTTPResponse
            RequestCounter.current?.add()
            do {
                let answer = try await transport.send(request, deadline: deadline)
                response = (200...299).contains(answer.status) ? answer : KeyRedaction.redact(keys, in: answer)
            } catch {
                trace("< \(tag)\(error.plainWords) after \(Self.millis(started.duration(to: clock.now))) ms")
                throw error.mapped(host: host, port: port, timeout: timeout)
            }
            trace("< \(tag)\(response.status) (\(Self.millis(started.duration(to: clock.now))) ms, \(response.body.count) bytes)")

            let failure: Failure
            switch try interpret(response, attempt) {
            case .success(let value): return value
            case .retry(let error): failure = error
            }

            // Retry, if attempts and time remain.
            guard attempt <= retry.maxRetries else { throw failure }
            let retryAfter = RetryPolicy.retryAfter(response.headers["retry-after"], now: Date())
            let left = Self.seconds(clock.now.duration(to: deadline))
            if let retryAfter, let retryAfterPastDeadline, retryAfter >= left {
                // The server asks for more time than is left: waiting would only end in a timeout.
                trace("\(tag)Retry-After \(String(format: "%.0f", retryAfter)) s passes the deadline; giving up")
                throw retryAfterPastDeadline(response, retryAfter)
            }
            // Retry-After is clamped to a day, so the delay is finite and its milliseconds fit.
            let delay = min(retry.delay(retry: attempt, retryAfter: retryAfter, random: Double.random(in: 0...1)), RetryAfter.maxSeconds)
            guard delay.isFinite, delay < left else {
                trace("\(tag)no time left for a retry within --timeout")
                throw failure
            }
            let wake = clock.now.advanced(by: .milliseconds(Int64(delay * 1000)))
            trace("\(tag)retry \(attempt)/\(retry.maxRetries) in \(String(format: "%.2f", delay)) s")
            do {
                try await clock.sleep(until: wake)
            } catch {
                throw failure
            }
            retried = failure
        }
    }

    /// Waits for `gate`, but not past `deadline`: true when it let the request go with time left
    /// (or the task was cancelled: the transport then says so, as before); false at the deadline.
    /// A gate still waiting then is cancelled and not awaited (a path hold ignores cancellation
    /// until its own timeout); a rate limiter's turn given up so is not counted as a request sent.
    static func pass(_ gate: @escaping @Sendable () async -> Void, before deadline: ContinuousClock.Instant,
                     clock: any TimerClock) async -> Bool {
        let outcome = FirstOutcome()
        let waiting = Task {
            await gate()
            outcome.settle(!Task.isCancelled)
        }
        let timer = Task {
            try? await clock.sleep(until: deadline)
            outcome.settle(false)
        }
        let opened = await withTaskCancellationHandler {
            await outcome.value()
        } onCancel: {
            outcome.settle(true)
        }
        waiting.cancel()
        timer.cancel()
        return opened && (Task.isCancelled || clock.now < deadline)
    }

    /// The first of several answers, handed to one waiter.
    private final class FirstOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var settled: Bool?
        private var waiter: CheckedContinuation<Bool, Never>?

        func settle(_ answer: Bool) {
            let resumed: CheckedContinuation<Bool, Never>? = lock.withLock {
                guard settled == nil else { return nil }
                settled = answer
                defer { waiter = nil }
                return waiter
            }
            resumed?.resume(returning: answer)
        }

        func value() async -> Bool {
            await withCheckedContinuation { continuation in
                let now: Bool? = lock.withLock {
                    if let settled { return settled }
                    waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func millis(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The start of a non-contract body, for an error line.
    package static func snippet(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(120), as: UTF8.self)
        return Sanitizer.clean(text).trimmingASCIIWhitespace()
    }
}
