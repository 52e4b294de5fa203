import ShopYBase
/// The words of the live sources' errors (11번가, Coupang Partners): what happened, and what to
/// do about it. Their exit codes are decided with every other error's, in `ExitCode(for:)`.
extension SourceError {
    var liveMessage: String {
        switch self {
        case .keysNotSet(let source, let variables):
            let all = SourceKeys.variables(of: source)
            let names = Self.sentence(all)
            if variables.count == all.count {
                return "the \(source.rawValue) source needs \(names), and \(all.count == 1 ? "it is" : "they are") not set"
            }
            return "the \(source.rawValue) source needs \(names), and \(Self.sentence(variables)) \(variables.count == 1 ? "is" : "are") not set"
        case .noLiveSource:
            return "--source all names every live source whose keys are set, and none has its keys"
        case .unsupported(let source, let what, let can):
            return "\(source.displayName) cannot \(what) (it can \(can))"
        case .elevenStreetKeyRefused(let code, let message):
            return "11번가 refused the key from ELEVENST_API_KEY (\(Self.describe(code, message)))"
        case .elevenStreetError(let code, let message):
            return "11번가 answered an error (\(Self.describe(code, message)))"
        case .coupangAuthentication(let status, let message):
            return "Coupang refused the request's signature or keys (\(SourceError.describe(status, nil, message)))"
        case .coupangThrottled(let until):
            return "Coupang answered 429 (too many requests); shopy sends nothing more to Coupang with this key until \(until)"
        case .coupangHeld(let until):
            return "Coupang answered 429 earlier; shopy sends nothing to Coupang with this key until \(until)"
        case .coupangBudgetSpent(let budget, let next):
            return "the Coupang budget of \(budget) request\(budget == 1 ? "" : "s") an hour is spent; the next is allowed at \(next)"
        case .coupangRefused(let code, let message):
            return "Coupang refused the request (rCode \(Self.describe(code, message)))"
        case .signingUnavailable(let library, let reason):
            return "Coupang's requests are signed with HMAC-SHA256 from libcrypto, and \(library) cannot be used (\(reason))"
        case .invalidSourceBase(let variable, let value):
            return "\(variable) is not an http(s) URL: '\(value)'"
        case .unusableKey(let variable):
            return "\(variable) holds a character no key has (a control character, a space or a comma); nothing was sent"
        default:
            return message
        }
    }

    var liveHint: String? {
        switch self {
        case .keysNotSet(let source, _):
            switch source {
            case .elevenst: return "an 11번가 seller account gets a key at the OPEN API CENTER (openapi.11st.co.kr); see docs/sources.md"
            case .coupang: return "an approved Coupang Partners member gets both keys in Partners > 추가기능 > Open API; see docs/sources.md"
            case .naver: return SourceError.missingKeys.hint
            case .catalog: return nil
            }
        case .noLiveSource:
            return "set ELEVENST_API_KEY, or COUPANG_ACCESS_KEY and COUPANG_SECRET_KEY (docs/sources.md), or use --source catalog"
        case .unsupported(let source, _, _):
            return "leave \(source.rawValue) out with --source, or ask for what it can do"
        case .elevenStreetKeyRefused:
            return "check ELEVENST_API_KEY against the key the OPEN API CENTER shows for your service"
        case .elevenStreetError:
            return nil
        case .coupangAuthentication(_, let message):
            if let message, message.lowercased().contains("expired") {
                return "signatures carry the time: check that this machine's clock is right (UTC), e.g. with timedatectl; or another shopy with this key (another SHOPY_HOME) signed the same request in the same second: run it again"
            }
            return "check COUPANG_ACCESS_KEY and COUPANG_SECRET_KEY (Partners > 추가기능 > Open API)"
        case .coupangThrottled, .coupangHeld:
            return "one more violation may block the key for 24 hours; 'shopy status' shows when Coupang can be asked again"
        case .coupangBudgetSpent:
            return "the budget keeps the key under Coupang's limit (a violation blocks it for 24 hours); 'shopy config set coupang-per-hour N' if your key allows more"
        case .coupangRefused:
            return nil
        case .signingUnavailable:
            return "install OpenSSL's libcrypto (the libssl3 package), or name the library with SHOPY_LIBCRYPTO"
        case .invalidSourceBase(let variable, _):
            return "e.g. \(variable)=http://127.0.0.1:8080 for a local shopy-emulator"
        case .unusableKey(let variable):
            return "copy \(variable) again from the provider's site"
        default:
            return nil
        }
    }

    /// `003: 등록되지 않은 KEY 입니다.`
    static func describe(_ code: String, _ message: String?) -> String {
        guard let message, !message.isEmpty else { return code }
        return code + ": " + message
    }

    /// `A`, `A and B`, `A, B and C`.
    static func sentence(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
    }
}

/// An error of one source, named: `11st: no answer from openapi.11st.co.kr within 10 s`. The
/// live sources wrap their errors in it, so that a line on stderr (one source of several failed)
/// or the command's error says which source; its exit code is the underlying error's.
public struct NamedSourceError: ShopyError {
    public var source: SourceKind
    public var underlying: any Error

    public init(source: SourceKind, underlying: any Error) {
        self.source = source
        self.underlying = underlying
    }

    /// `error` named for `source`, unless it is already named or says so itself.
    public static func wrap(_ error: any Error, source: SourceKind) -> any Error {
        if error is NamedSourceError || error is CancellationError { return error }
        return NamedSourceError(source: source, underlying: error)
    }

    public var message: String {
        let text = (underlying as? ShopyError)?.message ?? "\(underlying)"
        // The live errors name their source already ("11번가 refused the key…").
        if case let error as SourceError = underlying {
            switch error {
            case .keysNotSet, .noLiveSource, .unsupported, .elevenStreetKeyRefused, .elevenStreetError, .coupangAuthentication,
                 .coupangThrottled, .coupangHeld, .coupangBudgetSpent, .coupangRefused, .signingUnavailable, .invalidSourceBase, .unusableKey:
                return text
            default:
                break
            }
        }
        // The shared words say "the API", meaning Naver's: here they are this source's.
        return "\(source.rawValue): " + text.replacingOccurrences(of: "the API's answer", with: "the answer").replacingOccurrences(of: "the API ", with: "the service ")
    }

    public var hint: String? {
        if case let error as SourceError = underlying {
            switch error {
            case .unreachable(let host, .dns):
                return "check the network's DNS ('shopy status' probes it) and the host name '\(host)' (\(source.baseVariable ?? "its base")); --source catalog works offline"
            case .redirected:
                return "set \(source.baseVariable ?? "the base") to the address the server points to, if you trust it"
            case .unreachable(_, .tls(let failure)):
                // The host and the scheme are this source's: its own variable, not Naver's.
                return failure.hint(baseVariable: source.baseVariable ?? "SHOPY_API_BASE")
            case .authentication:
                return "check \(SourceKeys.variables(of: source).joined(separator: " and "))"
            default:
                break
            }
        }
        return (underlying as? ShopyError)?.hint
    }
}
