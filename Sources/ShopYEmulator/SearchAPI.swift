import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog

/// A value behind a lock. NSLock rather than `Synchronization.Mutex` because Mutex needs
/// macOS 15 and the package still supports macOS 13.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// How a reply goes on the wire. Everything but `whole` is an injected fault.
enum Delivery: String, Sendable {
    case whole
    /// Announce the full Content-Length, send about half the body, close.
    case truncated
    /// Head and a few body bytes, then one byte per interval.
    case slow
    /// Close without a byte.
    case drop
    /// Head without a length, then body bytes until the client goes away (64 MiB at most).
    case endless
}

/// What the server should do with one request.
struct Reply: Sendable {
    var response: ServerResponse
    var delivery: Delivery = .whole
    /// The API error code, for the throttle counter and the log.
    var errorCode: String? = nil
    /// A /v1 request: delayed by `--latency`, counted in the stats, and in flight until `finish`.
    var isAPI: Bool = false
    /// Another API's request (11번가, Coupang): delayed by `--latency` too, counted apart.
    var delayed: Bool = false
}

/// The errors the API answers, with the exact messages Naver sends.
struct APIError: Error, Sendable {
    var status: Int
    var code: String
    var message: String

    static let invalidAPI = APIError(status: 404, code: "SE05", message: "Invalid search api (존재하지 않는 검색 api 입니다.)")
    static let authentication = APIError(status: 401, code: "024", message: "Not Exist Client ID : Authentication failed. (인증에 실패했습니다.)")
    static let rateLimit = APIError(status: 429, code: "012", message: "Rate limit exceeded. (속도 제한을 초과했습니다.)")
    static let malformedEncoding = APIError(status: 400, code: "SE06", message: "Malformed encoding (잘못된 형식의 인코딩입니다.)")
    static let badQuery = APIError(status: 400, code: "SE01", message: "Incorrect query request (잘못된 쿼리요청입니다.)")
    static let badDisplay = APIError(status: 400, code: "SE02", message: "Invalid display value (부적절한 display 값입니다.)")
    static let badStart = APIError(status: 400, code: "SE03", message: "Invalid start value (부적절한 start 값입니다.)")
    static let badSort = APIError(status: 400, code: "SE04", message: "Invalid sort value (부적절한 sort 값입니다.)")
    static let systemError = APIError(status: 500, code: "SE99", message: "System error (시스템 에러)")
    /// Not Naver's: the contract does not say what it answers to other methods, so the
    /// emulator says plainly what is wrong in the API's error shape.
    static let methodNotAllowed = APIError(status: 405, code: "405", message: "Method not allowed: the search API answers GET only")

    static func quota(count: Int, quota: Int) -> APIError {
        APIError(status: 429, code: "010", message: "{count/quota=\(count)/\(quota)} : Query limit exceeded. (쿼리 한도를 초과했습니다.)")
    }

    var reply: Reply {
        let body = JSONWriter.serialize(WireErrorBody(errorMessage: message, errorCode: code).json, pretty: false)
        return Reply(response: ServerResponse(status: status, body: body), errorCode: code)
    }
}

/// The emulated API and the control endpoints: every check of the contract in its order,
/// the limits and fault counters, and the statistics tests read back.
final class SearchAPI: Sendable {
    static let searchPath = "/v1/search/shop.json"
    /// What Naver allows a day per client id; the denominator of an injected quota answer
    /// when no `--quota` is configured.
    static let naverDailyQuota = 25_000

    let config: EmulatorConfig
    let catalog: Catalog
    /// What the `--rate-limit` window is timed by.
    let clock: any TimerClock
    private let state = Locked(State())

    /// Counters and limits, all behind one lock.
    private struct State {
        var requests = 0
        var statusCounts: [Int: Int] = [:]
        var dropped = 0
        var throttled = 0
        var lastQuery: String? = nil
        var lastParams: [FormDecoding.Parameter] = []
        var inFlight = 0
        var maxInFlight = 0
        /// Authenticated searches since start or reset (what `--quota` limits).
        var quotaUsed = 0
        /// Faults injected since start or reset (what `--fault-count` limits).
        var faultsInjected = 0
        /// Arrival times within the last second, oldest first, for `--rate-limit`.
        var arrivals: [ContinuousClock.Instant] = []
        /// TCP connections accepted since start or reset (keep-alive makes this fewer than requests).
        var connections = 0
    }

    /// DataLab Shopping Insight, served beside the search API.
    let dataLab: DataLabAPI
    /// `--price-drift` and `/_emulator/price`.
    let prices: EmulatorPrices

    /// 11번가's and Coupang Partners' APIs, served beside it from the same catalog.
    let elevenStreet: ElevenStreetAPI
    let coupang: CoupangAPI

    init(config: EmulatorConfig, catalog: Catalog, clock: any TimerClock) {
        self.config = config
        self.catalog = catalog
        self.clock = clock
        self.dataLab = DataLabAPI(config: config, clock: clock)
        let prices = EmulatorPrices(drift: config.priceDrift)
        self.prices = prices
        let state = self.state
        // One fault budget for every API: `--fault-count N` injects N faults in all.
        let takeFault: @Sendable (String?) -> EmulatorFault? = { subject in
            guard let fault = config.fault, config.faultQuery == nil || config.faultQuery == subject else { return nil }
            return state.withLock { s -> EmulatorFault? in
                if let count = config.faultCount, s.faultsInjected >= count { return nil }
                s.faultsInjected += 1
                return fault
            }
        }
        self.elevenStreet = ElevenStreetAPI(config: config, catalog: catalog, prices: prices, takeFault: takeFault)
        self.coupang = CoupangAPI(config: config, catalog: catalog, prices: prices, takeFault: takeFault)
    }

    // MARK: - Dispatch

    /// Decides the answer to one request and records it. For a /v1 request the caller must
    /// call `finish()` once the answer is sent (the in-flight count spans the sending).
    func reply(to request: ParsedRequest) -> Reply {
        let path = request.path
        if request.method == "GET", let reply = EmulatorPictures.reply(path: path, fault: config.imageFault, host: host(of: request)) {
            return reply
        }
        if let reply = dataLab.reply(to: request) { return reply }
        if let reply = elevenStreet.reply(to: request) { return reply }
        if let reply = coupang.reply(to: request) { return reply }
        if path.hasPrefix("/_emulator/") {
            return control(request)
        }
        let isAPI = path == "/v1" || path.hasPrefix("/v1/")
        let params = FormDecoding.parameters(request.rawQuery)
        if isAPI {
            state.withLock { s in
                s.requests += 1
                s.inFlight += 1
                s.maxInFlight = max(s.maxInFlight, s.inFlight)
                s.lastParams = params
                s.lastQuery = params.first { $0.name == "query" }.flatMap { $0.wellFormed ? $0.value : nil }
            }
        }
        var reply = request.method == "GET" ? api(request, params: params) : APIError.methodNotAllowed.reply
        reply.isAPI = isAPI
        if reply.response.status == 405 { reply.response.headers.append(("Allow", "GET")) }
        if let seconds = config.retryAfterSeconds, reply.response.status == 429 || reply.response.status >= 500 {
            reply.response.headers.append(("Retry-After", String(seconds)))
        }
        if isAPI {
            // Recorded before sending so that a client reading the stats right after its
            // answer always sees that answer counted.
            state.withLock { s in
                if reply.delivery == .drop {
                    s.dropped += 1
                } else {
                    s.statusCounts[reply.response.status, default: 0] += 1
                }
                if reply.errorCode == APIError.rateLimit.code { s.throttled += 1 }
            }
        }
        return reply
    }

    /// Ends a /v1 request's time in flight.
    func finish() {
        state.withLock { $0.inFlight -= 1 }
    }

    // MARK: - The API

    /// The contract's checks in order: path, keys, quota, throttle, parameters, fault, answer.
    private func api(_ request: ParsedRequest, params: [FormDecoding.Parameter]) -> Reply {
        // 1. Only shop.json exists (and not even that once retired). Other paths outside /v1
        //    get the same answer: the emulator serves nothing else.
        guard request.path == SearchAPI.searchPath, !config.retired else { return APIError.invalidAPI.reply }

        // 2. Both keys must match exactly.
        guard request.header("X-Naver-Client-Id") == config.clientID,
              request.header("X-Naver-Client-Secret") == config.clientSecret else {
            return APIError.authentication.reply
        }

        // 3. The daily quota counts every authenticated search, the refused ones too, as the
        //    real answer's "count/quota=10039/10000" shows.
        let used = state.withLock { s -> Int in
            s.quotaUsed += 1
            return s.quotaUsed
        }
        if let quota = config.quota, used > quota {
            return APIError.quota(count: used, quota: quota).reply
        }

        // 4. Sliding one-second window over arrivals (throttled ones included: a client that
        //    keeps hammering stays throttled).
        if let limit = config.rateLimit {
            let now = clock.now
            let throttled = state.withLock { s -> Bool in
                let horizon = now - .seconds(1)
                if let keep = s.arrivals.firstIndex(where: { $0 > horizon }) {
                    s.arrivals.removeFirst(keep)
                } else {
                    s.arrivals.removeAll(keepingCapacity: true)
                }
                s.arrivals.append(now)
                return s.arrivals.count > limit
            }
            if throttled { return APIError.rateLimit.reply }
        }

        // 5. Parameters.
        let search: SearchRequest
        switch SearchAPI.searchRequest(from: params) {
        case .success(let request): search = request
        case .failure(let error): return error.reply
        }

        // 6. Faults.
        if let fault = config.fault, config.faultQuery == nil || config.faultQuery == search.query {
            let inject = state.withLock { s -> Bool in
                if let count = config.faultCount, s.faultsInjected >= count { return false }
                s.faultsInjected += 1
                return true
            }
            if inject { return faultReply(fault, search: search, host: host(of: request)) }
        }

        // 8. The answer (7, the latency, is the server's: it applies to every /v1 answer).
        return Reply(response: ServerResponse(status: 200, body: searchBody(search, host: host(of: request))))
    }

    /// Validates the parameters in the API's order: encoding, query, display, start, sort.
    /// The first occurrence of a repeated parameter counts, as with a servlet's getParameter.
    static func searchRequest(from params: [FormDecoding.Parameter]) -> Result<SearchRequest, APIError> {
        if params.contains(where: { !$0.wellFormed }) { return .failure(.malformedEncoding) }
        func value(_ name: String) -> String? { params.first { $0.name == name }?.value }

        // A query of spaces only has no terms to search for: as wrong as an empty one.
        guard let query = value("query"), !query.allSatisfy(\.isWhitespace) else { return .failure(.badQuery) }
        func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
            guard let text = value(name) else { return fallback }
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), range.contains(n) else { return nil }
            return n
        }
        guard let display = integer("display", default: 10, in: 1...SearchRequest.maxDisplay) else { return .failure(.badDisplay) }
        guard let start = integer("start", default: 1, in: 1...SearchRequest.maxStart) else { return .failure(.badStart) }
        let sort: ShopYBase.SortOrder
        if let text = value("sort") {
            guard let order = ShopYBase.SortOrder(rawValue: text) else { return .failure(.badSort) }
            sort = order
        } else {
            sort = .sim
        }
        let exclude = Set((value("exclude") ?? "").split(separator: ":").compactMap { ExcludeKind(rawValue: String($0)) })
        return .success(SearchRequest(query: query, sort: sort, start: start, display: display,
                                      naverPayOnly: value("filter") == "naverpay", exclude: exclude))
    }

    /// The host:port a client reached the emulator at (for the items' picture URLs).
    private func host(of request: ParsedRequest) -> String {
        EmulatorPictures.host(of: request, fallback: SocketAddress.urlHost(config.host))
    }

    /// The 200 body: the catalog's page with `lastBuildDate` set to now, each item's picture
    /// served by the emulator itself (`EmulatorPictures`).
    private func searchBody(_ request: SearchRequest, host: String) -> [UInt8] {
        var response = catalog.search(request)
        prices.apply(&response)
        for index in response.items.indices {
            response.items[index].image = EmulatorPictures.url(for: response.items[index].productId, host: host)
        }
        response.lastBuildDate = SearchAPI.lastBuildDate()
        return JSONWriter.serialize(response.json, pretty: false)
    }

    private func faultReply(_ fault: EmulatorFault, search: SearchRequest, host: String) -> Reply {
        switch fault {
        case .serverError:
            return APIError.systemError.reply
        case .throttle:
            return APIError.rateLimit.reply
        case .quota:
            let quota = config.quota ?? SearchAPI.naverDailyQuota
            let used = state.withLock { $0.quotaUsed }
            return APIError.quota(count: max(used, quota + 1), quota: quota).reply
        case .malformed:
            // What a misbehaving proxy or a cut-and-spliced buffer looks like: the answer starts
            // as JSON, then turns into an HTML error page. Complete as HTTP, broken as JSON.
            let real = searchBody(search, host: host)
            let body = Array(real.prefix(48)) + Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)
            return Reply(response: ServerResponse(status: 200, body: body))
        case .truncated:
            return Reply(response: ServerResponse(status: 200, body: searchBody(search, host: host)), delivery: .truncated)
        case .drop:
            return Reply(response: ServerResponse(status: 200, body: []), delivery: .drop)
        case .slow:
            return Reply(response: ServerResponse(status: 200, body: searchBody(search, host: host)), delivery: .slow)
        }
    }

    // MARK: - Control endpoints

    /// `/_emulator/stats` and `/_emulator/reset`: no keys, not counted, never delayed or faulted.
    private func control(_ request: ParsedRequest) -> Reply {
        guard request.method == "GET" else {
            var reply = APIError.methodNotAllowed.reply
            reply.response.headers.append(("Allow", "GET"))
            return reply
        }
        switch request.path {
        case "/_emulator/stats":
            return Reply(response: ServerResponse(status: 200, body: JSONWriter.serialize(stats(), pretty: false)))
        case EmulatorPrices.controlPath:
            return prices.control(FormDecoding.parameters(request.rawQuery))
        case "/_emulator/reset":
            reset()
            return Reply(response: ServerResponse(status: 200, body: Array(#"{"ok":true}"#.utf8)))
        default:
            return APIError(status: 404, code: "404", message: "Unknown control endpoint: use /_emulator/stats or /_emulator/reset").reply
        }
    }

    /// Counts one accepted connection (called by the server before it reads a request).
    func connectionAccepted() {
        state.withLock { $0.connections += 1 }
    }

    /// The counters as JSON. `status` maps each HTTP status answered to /v1 requests to its
    /// count; dropped connections have no status and are counted under `dropped` instead.
    func stats() -> JSONValue {
        state.withLock { s in
            var status = JSONObject()
            for code in s.statusCounts.keys.sorted() { status[String(code)] = .int(s.statusCounts[code]!) }
            var params = JSONObject()
            for parameter in s.lastParams where params[parameter.name] == nil { params[parameter.name] = .string(parameter.value) }
            var object = JSONObject()
            object["requests"] = .int(s.requests)
            object["status"] = .object(status)
            object["throttled"] = .int(s.throttled)
            object["lastQuery"] = .string(orNull: s.lastQuery)
            object["lastParams"] = .object(params)
            object["maxInFlight"] = .int(s.maxInFlight)
            object["inFlight"] = .int(s.inFlight)
            object["quotaUsed"] = .int(s.quotaUsed)
            object["faultsInjected"] = .int(s.faultsInjected)
            object["dropped"] = .int(s.dropped)
            object["connections"] = .int(s.connections)
            object["elevenst"] = elevenStreet.counters.json
            object["coupang"] = coupang.counters.json
            return .object(object)
        }
    }

    /// A new "day": counters, quota, fault count and throttle window start from zero. Requests
    /// still in flight stay counted in `inFlight` so that it returns to zero when they end.
    func reset() {
        elevenStreet.counters.reset()
        coupang.reset()
        state.withLock { s in
            let inFlight = s.inFlight
            s = State()
            s.inFlight = inFlight
            s.maxInFlight = inFlight
        }
    }

    // MARK: - Dates

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `lastBuildDate` as the API writes it, in KST (which has no daylight saving time, so a
    /// fixed +9 hours is exact): "Sun, 29 Nov 2026 20:33:43 +0900".
    static func lastBuildDate(_ seconds: time_t = time(nil)) -> String {
        var shifted = seconds + 9 * 3600
        var parts = tm()
        gmtime_r(&shifted, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0900"
    }
}
