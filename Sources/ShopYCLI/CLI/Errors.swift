import ShopYCore
import ShopYBase
/// The command line was wrong. Nothing was sent or written.
public struct UsageError: ShopyError, Equatable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

/// The one place where errors become exit codes.
extension ExitCode {
    public init(for error: Error) {
        switch error {
        case is UsageError, is SelectionError:
            self = .usage
        case is CopyError:
            self = .unavailable
        case let error as SourceError:
            switch error {
            case .missingKeys, .authentication, .keysNotSet, .noLiveSource, .elevenStreetKeyRefused, .coupangAuthentication, .unusableKey: self = .authentication
            case .retired, .unreachable, .serverError, .networkingUnavailable, .signingUnavailable: self = .unavailable
            case .quotaExceeded, .rateLimited, .timeout, .retryAfterDeadline, .coupangThrottled, .coupangHeld, .coupangBudgetSpent: self = .temporary
            case .badResponse, .impossibleAnswer, .unpriced, .truncatedResponse, .responseTooLarge: self = .dataError
            case .rejected, .invalidBaseURL, .redirected, .elevenStreetError, .coupangRefused, .invalidSourceBase: self = .failure
            case .unsupported: self = .usage
            }
        case let error as NamedSourceError:
            self = ExitCode(for: error.underlying)
        case let error as CoupangLedgerError:
            switch error {
            case .damaged: self = .dataError
            case .store(let inner): self = ExitCode(for: inner)
            }
        case let error as StoreError:
            switch error {
            case .damaged, .newerSchema, .invalidImport, .unstorable: self = .dataError
            case .io, .unsafeFile, .unusableTarget: self = .ioError
            case .notFound: self = .failure
            }
        case let error as DataLabError:
            self = error.exitCode
        case let error as NetworkError:
            switch error {
            case .offline: self = .unavailable
            case .unsupported: self = .failure
            }
        default:
            self = .failure
        }
    }
}
