import Foundation
import ShopYCore
import ShopYBase

/// DataLab Shopping Insight on loopback: both platforms' layouts (`/v1/datalab/shopping/…` with
/// the Developers Center headers, `/shopping/v1/…` with the API HUB headers; the same
/// `--client-id` / `--client-secret` values for both), every endpoint, the contract's checks,
/// the search API's faults, quota and throttle, and synthetic numbers (`DataLabSeries`)
/// normalized per answer as Naver does: the largest value of an answer is 100.
///
/// `POST /_emulator/datalab/<endpoint>` answers the same body without keys, limits or counting,
/// with every series in one answer: the ground truth a client's stitched comparison must equal.
/// It is bounded (`GroundTruthLimits`: 1 MiB of body, 20 series, 5,000 periods; past them a 400)
/// and answers POST only (any other method: 405 with `Allow: POST`).
/// `GET /_emulator/datalab/stats` and `/_emulator/datalab/reset` are its counters.
final class DataLabAPI: Sendable {
    static let developersPrefix = "/v1/datalab/shopping"
    static let apiHubPrefix = "/shopping/v1"
    static let controlPrefix = "/_emulator/datalab"
    /// What Naver allows a day per application, for quota messages without `--quota`.
    static let naverDailyQuota = 1_000

    let config: EmulatorConfig
    let groundTruthLimits: GroundTruthLimits
    private let state = Locked(State())

    private struct State {
        var requests = 0
        var statusCounts: [Int: Int] = [:]
        var lastPath: String? = nil
        var lastBody: String? = nil
        var lastScheme: String? = nil
        var inFlight = 0
        var maxInFlight = 0
        var quotaUsed = 0
        var faultsInjected = 0
        var arrivals: [ContinuousClock.Instant] = []
    }

    /// What the `--rate-limit` window is timed by.
    let clock: any TimerClock

    init(config: EmulatorConfig, groundTruthLimits: GroundTruthLimits = .standard, clock: any TimerClock = SystemClock()) {
        self.config = config
        self.groundTruthLimits = groundTruthLimits
        self.clock = clock
    }

    /// The answer to a DataLab request, or nil when the path is not DataLab's.
    func reply(to request: ParsedRequest) -> Reply? {
        let path = request.path
        if path.hasPrefix(DataLabAPI.controlPrefix + "/") { return control(request) }
        let scheme: DataLabKeys.Scheme
        let endpointPath: String
        if path.hasPrefix(DataLabAPI.developersPrefix + "/") {
            scheme = .developers
            endpointPath = String(path.dropFirst(DataLabAPI.developersPrefix.count))
        } else if path.hasPrefix(DataLabAPI.apiHubPrefix + "/") {
            scheme = .apiHub
            endpointPath = String(path.dropFirst(DataLabAPI.apiHubPrefix.count))
        } else {
            return nil
        }
        state.withLock { s in
            s.requests += 1
            s.inFlight += 1
            s.maxInFlight = max(s.maxInFlight, s.inFlight)
            s.lastPath = path
            s.lastScheme = scheme.rawValue
            s.lastBody = String(decoding: request.body, as: UTF8.self)
        }
        if config.latencyMilliseconds > 0 { Thread.sleep(forTimeInterval: Double(config.latencyMilliseconds) / 1000) }
        var reply = api(request, scheme: scheme, endpointPath: endpointPath)
        if let seconds = config.retryAfterSeconds, reply.response.status == 429 || reply.response.status >= 500 {
            reply.response.headers.append(("Retry-After", String(seconds)))
        }
        state.withLock { s in
            s.inFlight -= 1
            if reply.delivery != .drop { s.statusCounts[reply.response.status, default: 0] += 1 }
        }
        return reply
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> Reply {
        APIError(status: status, code: code, message: message).reply
    }

    /// The checks in order: endpoint, method, keys, permission, quota, throttle, body, fault, answer.
    private func api(_ request: ParsedRequest, scheme: DataLabKeys.Scheme, endpointPath: String) -> Reply {
        guard let endpoint = DataLabRequest.Endpoint(rawValue: endpointPath) else {
            return DataLabAPI.error(404, "404", "Not found: DataLab Shopping Insight has no endpoint \(endpointPath)")
        }
        guard request.method == "POST" else {
            var reply = DataLabAPI.error(405, "405", "Method not allowed: DataLab answers POST only")
            reply.response.headers.append(("Allow", "POST"))
            return reply
        }
        let (idHeader, secretHeader) = scheme == .apiHub ? ("X-NCP-APIGW-API-KEY-ID", "X-NCP-APIGW-API-KEY") : ("X-Naver-Client-Id", "X-Naver-Client-Secret")
        guard request.header(idHeader) == config.clientID, request.header(secretHeader) == config.clientSecret else {
            return DataLabAPI.error(401, "024", "Not Exist Client ID : Authentication failed. (인증에 실패했습니다.)")
        }
        if config.dataLabDenied {
            return DataLabAPI.error(403, "403", "Forbidden: the application has no permission for DataLab (Shopping Insight) (API 권한이 없습니다.)")
        }
        let used = state.withLock { s -> Int in
            s.quotaUsed += 1
            return s.quotaUsed
        }
        if let quota = config.quota, used > quota { return APIError.quota(count: used, quota: quota).reply }
        if let limit = config.rateLimit {
            let now = clock.now
            let throttled = state.withLock { s -> Bool in
                let horizon = now - .seconds(1)
                s.arrivals.removeAll { $0 <= horizon }
                s.arrivals.append(now)
                return s.arrivals.count > limit
            }
            if throttled { return APIError.rateLimit.reply }
        }
        guard (request.header("Content-Type") ?? "").lowercased().hasPrefix("application/json") else {
            return DataLabAPI.error(400, "400", "Bad request: Content-Type must be application/json")
        }
        let query: DataLabQuery
        switch DataLabQuery.parse(request.body, endpoint: endpoint, limits: true, today: CalendarDate.todayInKorea(Date())) {
        case .success(let parsed): query = parsed
        case .failure(let error): return error.reply
        }
        if let fault = config.fault, config.faultQuery == nil || query.names.contains(config.faultQuery!) {
            let inject = state.withLock { s -> Bool in
                if let count = config.faultCount, s.faultsInjected >= count { return false }
                s.faultsInjected += 1
                return true
            }
            if inject { return faultReply(fault, query: query) }
        }
        return Reply(response: ServerResponse(status: 200, body: query.answer(decimals: config.dataLabRatioDecimals)))
    }

    private func faultReply(_ fault: EmulatorFault, query: DataLabQuery) -> Reply {
        switch fault {
        case .serverError: return DataLabAPI.error(500, "500", "Internal server error (시스템 에러)")
        case .throttle: return APIError.rateLimit.reply
        case .quota:
            let quota = config.quota ?? DataLabAPI.naverDailyQuota
            return APIError.quota(count: max(state.withLock { $0.quotaUsed }, quota + 1), quota: quota).reply
        case .malformed:
            let body = Array(query.answer(decimals: 5).prefix(48)) + Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)
            return Reply(response: ServerResponse(status: 200, body: body))
        case .truncated: return Reply(response: ServerResponse(status: 200, body: query.answer(decimals: 5)), delivery: .truncated)
        case .drop: return Reply(response: ServerResponse(status: 200, body: []), delivery: .drop)
        case .slow: return Reply(response: ServerResponse(status: 200, body: query.answer(decimals: 5)), delivery: .slow)
        }
    }

    // MARK: - Control

    private func control(_ request: ParsedRequest) -> Reply {
        let name = String(request.path.dropFirst(DataLabAPI.controlPrefix.count))
        if DataLabRequest.Endpoint(rawValue: name) != nil && request.method != "POST" {
            var reply = DataLabAPI.error(405, "405", "Method not allowed: the ground truth answers POST only")
            reply.response.headers.append(("Allow", "POST"))
            return reply
        }
        switch (request.method, name) {
        case ("GET", "/stats"):
            return Reply(response: ServerResponse(status: 200, body: JSONWriter.serialize(stats())))
        case ("GET", "/reset"):
            state.withLock { s in
                let inFlight = s.inFlight
                s = State()
                s.inFlight = inFlight
            }
            return Reply(response: ServerResponse(status: 200, body: Array(#"{"ok":true}"#.utf8)))
        case ("POST", _):
            guard let endpoint = DataLabRequest.Endpoint(rawValue: name) else {
                return DataLabAPI.error(404, "404", "Unknown DataLab endpoint \(name)")
            }
            if let refusal = groundTruthLimits.refusal(bodyCount: request.body.count) { return refusal }
            switch DataLabQuery.parse(request.body, endpoint: endpoint, limits: false, today: CalendarDate.todayInKorea(Date())) {
            case .success(let query):
                if let refusal = groundTruthLimits.refusal(query) { return refusal }
                return Reply(response: ServerResponse(status: 200, body: query.answer(decimals: config.dataLabRatioDecimals)))
            case .failure(let error): return error.reply
            }
        default:
            return DataLabAPI.error(404, "404", "Unknown control endpoint: use GET \(DataLabAPI.controlPrefix)/stats, GET …/reset or POST …/<endpoint> for the ground truth")
        }
    }

    func stats() -> JSONValue {
        state.withLock { s in
            var status = JSONObject()
            for code in s.statusCounts.keys.sorted() { status[String(code)] = .int(s.statusCounts[code]!) }
            var o = JSONObject()
            o["requests"] = .int(s.requests)
            o["status"] = .object(status)
            o["lastPath"] = .string(orNull: s.lastPath)
            o["lastScheme"] = .string(orNull: s.lastScheme)
            o["lastBody"] = .string(orNull: s.lastBody)
            o["maxInFlight"] = .int(s.maxInFlight)
            o["inFlight"] = .int(s.inFlight)
            o["quotaUsed"] = .int(s.quotaUsed)
            o["faultsInjected"] = .int(s.faultsInjected)
            return .object(o)
        }
    }
}
