/// Why a search could not be answered. Each case maps to one exit code (see `ExitCode(for:)`).
import ShopYBase

public enum SourceError: ShopyError, Equatable {
    /// `--source naver` without NAVER_CLIENT_ID / NAVER_CLIENT_SECRET. Nothing was sent.
    case missingKeys
    /// The text of SHOPY_API_BASE, its userinfo redacted (`URLRedaction`).
    case invalidBaseURL(String)
    /// 401 / 403.
    case authentication(status: Int, code: String?, serverMessage: String?)
    /// 404 SE05: what the retired shopping API answers since 2026-07-31.
    case retired(host: String)
    /// 429 010.
    case quotaExceeded(serverMessage: String?)
    /// 429 012 (or another 429) still after every retry.
    case rateLimited(attempts: Int, serverMessage: String?, code: String? = "012")
    /// A 3xx: redirects are not followed, since the keys would go along.
    case redirected(status: Int, location: String?)
    /// 5xx still after every retry.
    case serverError(status: Int, code: String?, serverMessage: String?, attempts: Int)
    /// Another 4xx: the server's own words.
    case rejected(status: Int, code: String?, serverMessage: String?)
    /// A 200 whose body is not the contract's JSON.
    case badResponse(String)
    /// A 200 that parses but says what the contract does not allow (`AnswerCheck`).
    case impossibleAnswer(String)
    /// A price refresh found the product, but its answer gives no usable price (Naver lists an
    /// item with `lprice` 0 or empty): nothing learned, so no point is recorded.
    case unpriced(String)
    /// A Retry-After that asks for a wait past the deadline: try again later.
    case retryAfterDeadline(status: Int, seconds: Double, code: String?, serverMessage: String?)
    /// The body stopped before its announced length.
    case truncatedResponse(received: Int, expected: Int?)
    /// The answer passed a cap (16 MiB of body after decompression, 64 KiB of headers).
    case responseTooLarge(ResponseLimit)
    case timeout(seconds: Double, host: String)
    case unreachable(host: String, reason: Unreachable)
    /// libcurl (`library`, the file tried) cannot be loaded: nothing can be sent. `reason`: the
    /// loader's words, nil when the default library is simply not installed.
    case networkingUnavailable(library: String, reason: String?)

    // The live sources of `SourceKeys` (11번가, Coupang Partners): see `SourceError+Live.swift`.

    /// A source named with `--source` whose keys are not set (`variables`: the missing ones).
    /// Nothing was sent.
    case keysNotSet(source: SourceKind, variables: [String])
    /// `--source all` and no live source has its keys.
    case noLiveSource
    /// A sort, page or filter that `source` cannot do (`can`: what it can). Nothing was sent.
    case unsupported(source: SourceKind, what: String, can: String)
    /// 11번가 refused the key (code 003, unregistered), in a 200.
    case elevenStreetKeyRefused(code: String, message: String?)
    /// Another 11번가 error code, in a 200.
    case elevenStreetError(code: String, message: String?)
    /// Coupang's gateway refused the signature or the key (401/403), in its words.
    case coupangAuthentication(status: Int, message: String?)
    /// Coupang answered 429: nothing more goes to it with this key until `until` (local time).
    case coupangThrottled(until: String)
    /// A 429 came earlier: shopy holds every Coupang request with this key until `until`.
    case coupangHeld(until: String)
    /// The budget of requests an hour (`coupang-per-hour`) is spent; the next is allowed at `next`.
    case coupangBudgetSpent(budget: Int, next: String)
    /// Coupang answered 200 with an rCode other than "0".
    case coupangRefused(code: String, message: String?)
    /// HMAC-SHA256 cannot be computed (libcrypto missing): no Coupang request can be signed.
    case signingUnavailable(library: String, reason: String)
    /// SHOPY_11ST_BASE or SHOPY_COUPANG_BASE is not an http(s) URL (userinfo redacted).
    case invalidSourceBase(variable: String, value: String)
    /// A key variable holds what no key has (a control character, a space, a comma): it would
    /// break the request it goes into. Nothing was sent.
    case unusableKey(variable: String)

    public enum Unreachable: Equatable, Sendable {
        case dns, refused(port: Int), noAnswer, tls(TLSFailure), other(String)
        /// The proxy named by `variable` (shown without credentials) failed.
        case proxy(proxy: String, variable: String, reason: String)
    }

    public var message: String {
        switch self {
        case .missingKeys:
            return "the naver source needs NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, and they are not set"
        case .invalidBaseURL(let value):
            return "SHOPY_API_BASE is not an http(s) URL: '\(value)'"
        case .authentication(let status, let code, let text):
            return "authentication failed (\(Self.describe(status, code, text)))"
        case .retired(let host):
            return "Naver retired the Shopping search API on 2026-07-31 (\(host) answered 404 SE05)"
        case .quotaExceeded(let text):
            return "the daily API quota is used up (\(Self.describe(429, "010", text)))"
        case .rateLimited(let attempts, let text, let code):
            return "the API kept throttling after \(attempts) attempts (\(Self.describe(429, code, text)))"
        case .redirected(let status, let location):
            return "the API answered \(status), redirecting to \(location ?? "another address"); shopy does not follow redirects (the keys would go along)"
        case .serverError(let status, let code, let text, let attempts):
            return "the API failed after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(Self.describe(status, code, text)))"
        case .rejected(let status, let code, let text):
            return "the API refused the request (\(Self.describe(status, code, text)))"
        case .badResponse(let detail):
            return "the API's answer does not parse: \(detail)"
        case .impossibleAnswer(let detail):
            return "the API's answer is impossible: \(detail)"
        case .unpriced(let detail):
            return detail
        case .retryAfterDeadline(let status, let seconds, let code, let text):
            return "the API asked to wait \(Self.seconds(seconds.rounded(.up))) before trying again (\(Self.describe(status, code, text))), past --timeout"
        case .truncatedResponse(let received, let expected):
            if let expected {
                return "the API's answer was cut off after \(Money.grouped(received)) of \(Money.grouped(expected)) bytes"
            }
            return "the API's answer was cut off after \(Money.grouped(received)) bytes"
        case .responseTooLarge(let limit):
            switch limit {
            case .body: return "the API's answer is larger than \(limit.size); shopy stopped reading it"
            case .headers: return "the API's answer has more than \(limit.size) of header fields; shopy stopped reading it"
            }
        case .networkingUnavailable(let library, let reason):
            guard library == "libcurl.so.4" else {
                return "networking needs libcurl, and the SHOPY_LIBCURL library cannot be used: \(reason ?? library)"
            }
            guard let reason else { return "networking needs libcurl (\(library)); install the libcurl4 package" }
            return "networking needs libcurl, and \(library) cannot be used (\(reason)); install a current libcurl4 package"
        case .timeout(let seconds, let host):
            return "no answer from \(host) within \(Self.seconds(seconds))"
        case .unreachable(let host, let reason):
            switch reason {
            case .dns: return "cannot resolve \(host): DNS lookup failed"
            case .refused(let port): return "connection refused by \(host) port \(port)"
            case .noAnswer: return "\(host) closed the connection without answering"
            case .tls(let failure): return "the secure connection to \(host) failed: \(failure.cause)"
            case .other(let what): return "cannot reach \(host): \(what)"
            case .proxy(let proxy, let variable, let reason): return "cannot reach \(host) through the proxy \(proxy) (from \(variable)): \(reason)"
            }
        case .keysNotSet, .noLiveSource, .unsupported, .elevenStreetKeyRefused, .elevenStreetError, .coupangAuthentication,
             .coupangThrottled, .coupangHeld, .coupangBudgetSpent, .coupangRefused, .signingUnavailable, .invalidSourceBase, .unusableKey:
            return liveMessage
        }
    }

    public var hint: String? {
        switch self {
        case .missingKeys:
            return "export NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, or use --source catalog for the offline catalog"
        case .invalidBaseURL:
            return "e.g. SHOPY_API_BASE=http://127.0.0.1:8080 for a local shopy-emulator"
        case .redirected:
            return "set SHOPY_API_BASE to the address the server points to, if you trust it"
        case .authentication:
            return "check NAVER_CLIENT_ID and NAVER_CLIENT_SECRET, and that the Search API is enabled for the application"
        case .retired:
            return "use --source catalog for the offline catalog, or point SHOPY_API_BASE at a compatible server"
        case .quotaExceeded:
            return "the quota (25,000 calls a day per client id) resets at midnight Korean time"
        case .rateLimited:
            return "wait a few seconds and try again"
        case .timeout:
            return "check the network, or allow more time with --timeout"
        case .unreachable(_, .proxy(_, let variable, _)):
            return "check \(variable), or exempt the host in NO_PROXY"
        case .unreachable(_, .tls(let failure)):
            return failure.hint(baseVariable: "SHOPY_API_BASE")
        case .unreachable(let host, .dns):
            return "check the network's DNS ('shopy status' probes it) and the host name '\(host)' (SHOPY_API_BASE); --source catalog works offline"
        case .retryAfterDeadline:
            return "try again later, or allow more time with --timeout"
        case .serverError, .rejected, .badResponse, .impossibleAnswer, .unpriced, .truncatedResponse, .responseTooLarge, .unreachable, .networkingUnavailable:
            return nil
        case .keysNotSet, .noLiveSource, .unsupported, .elevenStreetKeyRefused, .elevenStreetError, .coupangAuthentication,
             .coupangThrottled, .coupangHeld, .coupangBudgetSpent, .coupangRefused, .signingUnavailable, .invalidSourceBase, .unusableKey:
            return liveHint
        }
    }

    static func describe(_ status: Int, _ code: String?, _ text: String?) -> String {
        var parts = "\(status)"
        if let code, !code.isEmpty { parts += " \(code)" }
        if let text, !text.isEmpty { parts += ": \(text)" }
        return parts
    }

    static func seconds(_ value: Double) -> String {
        WholeNumber.text(value) + " s"
    }
}
