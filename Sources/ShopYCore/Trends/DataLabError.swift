/// Why a trends comparison could not be answered. Each case maps to one exit code, in
/// `ExitCode(for:)` (through `exitCode`), like every other area's error.
import ShopYBase

public enum DataLabError: ShopyError, Equatable {
    /// Neither key pair is set. Nothing was sent.
    case missingKeys
    case invalidBaseURL(String)
    /// 401 (024: keys missing or wrong).
    case authentication(status: Int, code: String?, serverMessage: String?, variables: String)
    /// 403: the application lacks the DataLab (Shopping Insight) API.
    case permission(code: String?, serverMessage: String?, scheme: DataLabKeys.Scheme)
    /// 400: the server's own words.
    case rejected(status: Int, code: String?, serverMessage: String?)
    /// 429 010: the daily quota (1,000 calls per application).
    case quotaExceeded(serverMessage: String?)
    /// 429 (012) still after every retry.
    case rateLimited(attempts: Int, code: String?, serverMessage: String?)
    /// 5xx still after every retry.
    case serverError(status: Int, code: String?, serverMessage: String?, attempts: Int)
    case redirected(status: Int, location: String?)
    /// A 200 whose body is not DataLab's answer (or does not match the request).
    case badResponse(String)
    case truncatedResponse(received: Int, expected: Int?)
    /// The answer passed a transport cap (16 MiB of body, 64 KiB of headers).
    case responseTooLarge(ResponseLimit)
    case timeout(seconds: Double, host: String)
    case unreachable(host: String, reason: SourceError.Unreachable)
    /// libcurl cannot be loaded (see `SourceError.networkingUnavailable`).
    case networkingUnavailable(library: String, reason: String?)

    public var message: String {
        switch self {
        case .missingKeys:
            return "trends needs DataLab keys: NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY (API HUB), or NAVER_CLIENT_ID and NAVER_CLIENT_SECRET (Developers Center), and neither pair is set"
        case .invalidBaseURL(let value):
            return "SHOPY_DATALAB_BASE is not an http(s) URL: '\(value)'"
        case .authentication(let status, let code, let text, let variables):
            return "DataLab refused the keys from \(variables) (\(SourceError.describe(status, code, text)))"
        case .permission(let code, let text, _):
            return "the application has no permission for DataLab (Shopping Insight) (\(SourceError.describe(403, code, text)))"
        case .rejected(let status, let code, let text):
            return "DataLab refused the request (\(SourceError.describe(status, code, text)))"
        case .quotaExceeded(let text):
            return "the DataLab daily quota (1,000 calls per application) is used up (\(SourceError.describe(429, "010", text)))"
        case .rateLimited(let attempts, let code, let text):
            return "DataLab kept throttling after \(attempts) attempts (\(SourceError.describe(429, code, text)))"
        case .serverError(let status, let code, let text, let attempts):
            return "DataLab failed after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(SourceError.describe(status, code, text)))"
        case .redirected(let status, let location):
            return "DataLab answered \(status), redirecting to \(location ?? "another address"); shopy does not follow redirects (the keys would go along)"
        case .badResponse(let detail):
            return "DataLab's answer does not parse: \(detail)"
        case .truncatedResponse(let received, let expected):
            return SourceError.truncatedResponse(received: received, expected: expected).message.replacingOccurrences(of: "the API's", with: "DataLab's")
        case .responseTooLarge(let limit):
            return SourceError.responseTooLarge(limit).message.replacingOccurrences(of: "the API's", with: "DataLab's")
        case .networkingUnavailable(let library, let reason):
            return SourceError.networkingUnavailable(library: library, reason: reason).message
        case .timeout(let seconds, let host):
            return SourceError.timeout(seconds: seconds, host: host).message
        case .unreachable(let host, let reason):
            return SourceError.unreachable(host: host, reason: reason).message
        }
    }

    public var hint: String? {
        switch self {
        case .missingKeys:
            return "create an application with the DataLab (Shopping Insight) API on NAVER Cloud's API HUB and export NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY; 'shopy trends categories --list' works offline"
        case .invalidBaseURL:
            return "e.g. SHOPY_DATALAB_BASE=http://127.0.0.1:8080/shopping/v1 for a local shopy-emulator"
        case .authentication(_, _, _, let variables):
            return "check \(variables)"
        case .permission(_, _, let scheme):
            switch scheme {
            case .apiHub: return "enable DataLab (Shopping Insight) for the application in the NAVER Cloud console (API HUB), then try again"
            case .developers: return "add the DataLab (Shopping Insight) API to the application at developers.naver.com (Application > API settings), then try again"
            }
        case .rejected:
            return "the server's message says what it did not accept"
        case .quotaExceeded:
            return "the quota resets at midnight Korean time; comparisons of many series use one call per request (see --verbose)"
        case .rateLimited:
            return "wait a few seconds and try again"
        case .timeout:
            return "check the network, or allow more time with --timeout"
        case .redirected:
            return "set SHOPY_DATALAB_BASE to the address the server points to, if you trust it"
        case .unreachable(_, .proxy(_, let variable, _)):
            return "check \(variable), or exempt the host in NO_PROXY"
        case .unreachable(_, .tls(let failure)):
            return failure.hint(baseVariable: "SHOPY_DATALAB_BASE")
        case .serverError, .badResponse, .truncatedResponse, .responseTooLarge, .unreachable, .networkingUnavailable:
            return nil
        }
    }

    public var exitCode: ExitCode {
        switch self {
        case .missingKeys, .authentication, .permission: return .authentication
        case .quotaExceeded, .rateLimited, .timeout: return .temporary
        case .serverError, .unreachable, .networkingUnavailable: return .unavailable
        case .badResponse, .truncatedResponse, .responseTooLarge: return .dataError
        case .rejected, .invalidBaseURL, .redirected: return .failure
        }
    }
}
