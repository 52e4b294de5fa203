import Foundation
import ShopYCore
import ShopYBase
import ShopYCatalog

/// What the other APIs the emulator serves beside Naver's (11번가, Coupang Partners) share:
/// counters for `/_emulator/stats`, and the existing fault injection (`--fault`,
/// `--fault-count`, `--fault-query`, `--retry-after`) applied to their answers.
final class SideAPICounters: Sendable {
    private struct State {
        var requests = 0
        var statusCounts: [Int: Int] = [:]
        var lastPath: String?
        var lastParams: [FormDecoding.Parameter] = []
        var lastAuthorization: String?
    }

    private let state = Locked(State())

    func record(_ request: ParsedRequest, params: [FormDecoding.Parameter], authorization: String? = nil) {
        state.withLock { s in
            s.requests += 1
            s.lastPath = request.path
            s.lastParams = params
            s.lastAuthorization = authorization
        }
    }

    func answered(_ reply: Reply) {
        guard reply.delivery != .drop else { return }
        state.withLock { $0.statusCounts[reply.response.status, default: 0] += 1 }
    }

    func reset() { state.withLock { $0 = State() } }

    var json: JSONValue {
        state.withLock { s in
            var status = JSONObject()
            for code in s.statusCounts.keys.sorted() { status[String(code)] = .int(s.statusCounts[code]!) }
            var params = JSONObject()
            for parameter in s.lastParams where params[parameter.name] == nil {
                // The key never goes into the stats: a test reads them, a log might keep them.
                params[parameter.name] = .string(parameter.name == "key" ? "***" : parameter.value)
            }
            var o = JSONObject()
            o["requests"] = .int(s.requests)
            o["status"] = .object(status)
            o["lastPath"] = .string(orNull: s.lastPath)
            o["lastParams"] = .object(params)
            o["lastSignedDate"] = .string(orNull: s.lastAuthorization)
            return .object(o)
        }
    }
}

/// A fault injected into another API's valid request, shaped as that API errs.
enum SideAPIFault {
    /// `real` is the answer the request would get; `error(status)` the API's error answer.
    static func reply(_ fault: EmulatorFault, real: ServerResponse, error: (Int) -> ServerResponse) -> Reply {
        switch fault {
        case .serverError:
            return Reply(response: error(500))
        case .throttle, .quota:
            return Reply(response: error(429))
        case .malformed:
            var broken = real
            broken.body = Array(real.body.prefix(48)) + Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8)
            return Reply(response: broken)
        case .truncated:
            return Reply(response: real, delivery: .truncated)
        case .drop:
            return Reply(response: ServerResponse(status: 200, body: []), delivery: .drop)
        case .slow:
            return Reply(response: real, delivery: .slow)
        }
    }

    /// Retry-After on 429 and 5xx, as `--retry-after` asks.
    static func finish(_ reply: inout Reply, config: EmulatorConfig) {
        reply.delayed = true
        if let seconds = config.retryAfterSeconds, reply.response.status == 429 || reply.response.status >= 500 {
            reply.response.headers.append(("Retry-After", String(seconds)))
        }
    }
}

/// The catalog's answer to a query, its titles as the other APIs send them (no `<b>`), with
/// `/_emulator/price`'s prices and drift applied.
extension Catalog {
    func plainSearch(_ request: SearchRequest, prices: EmulatorPrices) -> WireSearchResponse {
        var response = search(request)
        prices.apply(&response)
        for i in response.items.indices {
            response.items[i].title = response.items[i].title.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
        }
        return response
    }
}

/// A small deterministic hash (FNV-1a) for the emulator's made-up fields.
func emulatorHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf29ce484222325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
    return hash
}
