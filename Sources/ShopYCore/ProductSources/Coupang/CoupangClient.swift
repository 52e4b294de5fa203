import Foundation
import ShopYBase

/// Coupang Partners Open API's client: signed GETs under
/// `/v2/providers/affiliate_open_api/apis/openapi/v1`, counted against the key's budget and
/// answered from the 60-minute cache when it can be (`CoupangLedger`).
///
/// Never retried: every request spends budget and one violation of Coupang's limit blocks the
/// key for 24 hours, so a 429 is final at once (and holds the key, see `CoupangLedger`), and a
/// 5xx is reported, not repeated.
public struct CoupangClient: Sendable {
    public static let root = "/v2/providers/affiliate_open_api/apis/openapi/v1"

    public var base: URL
    public var credentials: CoupangCredentials
    public var transport: any HTTPTransport
    public var trace: Tracer
    /// The budget and the cache; nil for none (tests of the wire alone).
    public var ledger: CoupangLedger?
    /// Requests a key may send in a rolling hour (`coupang-per-hour`, 1–1000, default 10).
    public var budget: Int
    public var now: @Sendable () -> Date
    /// Gate for each request (a rate limiter); nil for none.
    public var beforeRequest: (@Sendable () async -> Void)?
    /// What the deadline is timed by (`now` is the calendar the signature and the ledger use).
    public var clock: any TimerClock

    public static let defaultBudget = 10
    public static let budgets = 1...1000

    public init(base: URL, credentials: CoupangCredentials, transport: any HTTPTransport = SystemTransport.shared, trace: Tracer = .off,
                ledger: CoupangLedger?, budget: Int = CoupangClient.defaultBudget, now: @escaping @Sendable () -> Date = { Date() },
                beforeRequest: (@Sendable () async -> Void)? = nil, clock: any TimerClock = SystemClock()) {
        self.base = base
        self.credentials = credentials
        self.transport = transport
        self.trace = trace
        self.ledger = ledger
        self.budget = budget
        self.now = now
        self.beforeRequest = beforeRequest
        self.clock = clock
    }

    /// `GET /products/search?keyword=Q&limit=N` (1–10).
    public func search(keyword: String, limit: Int, timeout: Double) async throws -> [CoupangAnswer.Item] {
        try await get(Self.root + "/products/search", query: "keyword=" + RequestBuilder.percentEncode(keyword) + "&limit=\(limit)", timeout: timeout)
    }

    /// `GET /products/bestcategories/{id}?limit=N` (1–100).
    public func bestSellers(category: Int, limit: Int, timeout: Double) async throws -> [CoupangAnswer.Item] {
        try await get(Self.root + "/products/bestcategories/\(category)", query: "limit=\(limit)", timeout: timeout)
    }

    /// `GET /products/goldbox`: today's deals (renewed daily at 07:30 KST).
    public func goldbox(timeout: Double) async throws -> [CoupangAnswer.Item] {
        try await get(Self.root + "/products/goldbox", query: "", timeout: timeout)
    }

    /// One request: the cache, the hold and the budget first; then signed, sent once, read.
    func get(_ relative: String, query: String, timeout: Double) async throws -> [CoupangAnswer.Item] {
        let prefix = URL(string: SourceKeys.join(base, ""))!.path
        let path = (prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix) + relative
        let url = URL(string: SourceKeys.join(base, relative) + (query.isEmpty ? "" : "?" + query))!
        let key: String
        do {
            key = try CoupangLedger.keyHash(credentials)
        } catch {
            throw SourceError.signingUnavailable(library: error.library, reason: error.reason)
        }
        // The cache knows requests by what they ask: the server, the path and the query.
        let request = "GET " + URLRedaction.redact(SourceKeys.join(base, "")) + relative + "?" + query
        // The second the request is signed with: the one the ledger counted it in.
        var signedAt = now()
        if let ledger {
            // A cached answer that does not parse (a damaged coupang.json) is no answer: the
            // ledger drops it and Coupang is asked, as if it had never been kept.
            switch try ledger.admit(key: key, request: request, now: signedAt, budget: budget, usable: { (try? CoupangAnswer.items($0)) != nil }) {
            case .cached(let body):
                trace("[coupang] answered from the cache (under an hour old): GET \(path)\(query.isEmpty ? "" : "?" + query)")
                return try CoupangAnswer.items(body)
            case .held(let until):
                throw SourceError.coupangHeld(until: Self.when(until, now: now()))
            case .spent(let next):
                throw SourceError.coupangBudgetSpent(budget: budget, next: Self.when(next, now: now()))
            case .send:
                break
            case .sendLater(let second):
                // Another shopy signed a request with this key in this second: wait for the
                // second the ledger gave this one (a few at most), then sign with it.
                let wait = second.timeIntervalSince(now())
                if wait > timeout { throw SourceError.timeout(seconds: timeout, host: url.host ?? "Coupang") }
                if wait > 0 { try await clock.sleep(for: .milliseconds(Int(wait * 1000))) }
                signedAt = second
            }
        }
        if let beforeRequest { await beforeRequest() }
        let deadline = clock.deadline(after: timeout)
        let authorization: String
        do {
            // Signed just before it leaves: a signature is made for each request.
            authorization = try CoupangSigner.authorization(method: "GET", path: path, query: query, credentials: credentials, at: ledger == nil ? now() : signedAt)
        } catch {
            throw SourceError.signingUnavailable(library: error.library, reason: error.reason)
        }
        let headers = [("Authorization", authorization), ("Content-Type", "application/json;charset=UTF-8"),
                       ("Accept", "application/json"), ("User-Agent", "shopy/\(ShopYVersion.current)")]
        var sender = RetryingRequest(transport: transport, retry: RetryPolicy(maxRetries: 0), trace: trace, base: base, label: "coupang", clock: clock)
        sender.keys = [credentials.accessKey, credentials.secretKey]
        let trace = ["> GET \(URLRedaction.redact(url.absoluteString))", "> Authorization: CEA algorithm=HmacSHA256, access-key=[redacted], signed-date=…, signature=[redacted]"]
        let ledger = self.ledger
        let now = self.now
        let body = try await sender.send(HTTPRequest(url: url, headers: headers), deadline: deadline, timeout: timeout, requestTrace: trace) {
            response, _ throws(SourceError) -> AttemptOutcome<[UInt8], SourceError> in
            switch response.status {
            case 200:
                return .success(response.body)
            case 429:
                // Not retried: hold every request with this key for the rolling hour, or as long
                // as Retry-After asks, whichever is later (never past Coupang's 24-hour block).
                let retryAfter = RetryAfter.seconds(response.headers["retry-after"], now: now()) ?? 0
                let until = now().addingTimeInterval(min(max(CoupangLedger.window, retryAfter), CoupangLedger.maxHold))
                try? ledger?.hold(key: key, until: until, now: now())
                throw .coupangThrottled(until: Self.when(until, now: now()))
            case 401, 403:
                throw .coupangAuthentication(status: response.status, message: CoupangAnswer.gatewayMessage(response.body) ?? RetryingRequest.snippet(response.body))
            case 300...399:
                throw .redirected(status: response.status, location: response.headers["location"].map(Sanitizer.clean))
            case 500...599:
                throw .serverError(status: response.status, code: nil, serverMessage: CoupangAnswer.gatewayMessage(response.body) ?? RetryingRequest.snippet(response.body), attempts: 1)
            default:
                throw .rejected(status: response.status, code: nil, serverMessage: CoupangAnswer.gatewayMessage(response.body) ?? RetryingRequest.snippet(response.body))
            }
        }
        let items: [CoupangAnswer.Item]
        do {
            items = try CoupangAnswer.items(body)
        } catch {
            throw Self.withoutKeys(error, credentials)
        }
        if let kept = CoupangAnswer.withoutTrackingLinks(body) { try ledger?.remember(key: key, request: request, body: kept, at: now()) }
        return items
    }

    /// Coupang's own words in a business error may quote the request: never the keys.
    static func withoutKeys(_ error: SourceError, _ credentials: CoupangCredentials) -> SourceError {
        guard case .coupangRefused(let code, let message) = error else { return error }
        let cleaned = message.map { KeyRedaction.redact([credentials.accessKey, credentials.secretKey], in: $0) }
        return .coupangRefused(code: code, message: cleaned)
    }

    /// `14:05:09 (in 58 min)`, the local time a wait ends, with its distance (`WaitDuration`).
    static func when(_ date: Date, now: Date) -> String { WaitDuration.until(date, now: now) }
}
