import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCatalog

/// A fault the emulator can inject into searches that passed every check (see `--fault`).
///
/// Each one imitates a way the real service or the network between it and a client has been
/// seen to fail, so that a client's error handling can be exercised offline and repeatably.
public enum EmulatorFault: String, CaseIterable, Sendable {
    /// 500 with `SE99` "System error".
    case serverError = "500"
    /// The per-second throttle answer, 429 with `012`.
    case throttle
    /// The daily quota answer, 429 with `010`.
    case quota
    /// 200 with a complete HTTP message whose body is not JSON (a JSON prefix, then garbage).
    case malformed
    /// 200 announcing the full body's Content-Length, but only about half of it is sent.
    case truncated
    /// The request is read and the connection closed without a byte of answer.
    case drop
    /// Headers and a few body bytes at once, then one byte every 500 ms.
    case slow
}

/// Everything the emulator can be told, with the defaults `shopy-emulator` uses.
///
/// `nil` means "off" for the limits and faults, so that a default config behaves like a
/// healthy, unlimited API.
public struct EmulatorConfig: Sendable, Equatable {
    /// The address to bind: an IPv4 or IPv6 literal, or `localhost` (bound as 127.0.0.1).
    public var host: String = "127.0.0.1"
    /// The port to bind; 0 lets the system pick a free one (read it back from `start()`).
    public var port: Int = 0
    /// The `X-Naver-Client-Id` a request must carry.
    public var clientID: String = "emulator-id"
    /// The `X-Naver-Client-Secret` a request must carry.
    public var clientSecret: String = "emulator-secret"
    /// At most this many requests may arrive within any one second; more get 429/012. Off when nil.
    public var rateLimit: Int? = nil
    /// Authenticated searches allowed before 429/010 ("daily" until `/_emulator/reset`). Unlimited when nil.
    public var quota: Int? = nil
    /// Milliseconds to wait before every /v1 answer.
    public var latencyMilliseconds: Int = 0
    /// The fault to inject into valid searches, if any.
    public var fault: EmulatorFault? = nil
    /// Inject `fault` into only this many searches (counted since start or the last reset); all when nil.
    public var faultCount: Int? = nil
    /// Inject the fault only into searches for exactly this query (e.g. one popular section).
    public var faultQuery: String? = nil
    /// Seconds for a `Retry-After` header on 429 and 5xx answers; no header when nil.
    public var retryAfterSeconds: Int? = nil
    /// Answer shop.json with 404/SE05, as Naver does since the shopping API was retired (2026-07-31).
    public var retired: Bool = false
    /// A JSON array of wire items to serve instead of the embedded catalog
    /// (load it with `EmulatorCommandLine.catalog(for:)`).
    public var itemsFile: String? = nil
    /// Prices walk a deterministic step each time a product is served (`EmulatorPrices`).
    public var priceDrift: Bool = false
    /// Log one line per request on stderr.
    public var log: Bool = false
    /// Answer every DataLab request with 403 (the application lacks DataLab permission).
    public var dataLabDenied: Bool = false
    /// Decimals of DataLab ratios (Naver writes 5); nil for full double precision.
    public var dataLabRatioDecimals: Int? = 5
    /// What `/images/<productId>.png` answers instead of the item's picture (`PictureFault`).
    public var imageFault: PictureFault? = nil
    /// The `key` 11번가's API accepts (`--11st-key`).
    public var elevenStreetKey: String = "emulator-11st-key"
    /// The Coupang Partners key pair whose signatures are accepted.
    public var coupangAccessKey: String = "emulator-coupang-access"
    public var coupangSecretKey: String = "emulator-coupang-secret"
    /// Coupang answers 429 past this many accepted requests in a rolling hour; off when nil.
    public var coupangLimit: Int? = nil
    /// How long `slow` waits between body bytes. Not a command-line option: tests may shorten it.
    public var slowByteIntervalMilliseconds: Int = 500

    public init() {}
}

/// Why the command line was refused. `description` is the one-line message to print after
/// `shopy-emulator: `.
public enum EmulatorCommandLineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `-h` / `--help` was given: print `EmulatorCommandLine.usage` and exit 0.
    case helpRequested
    case unknownOption(String)
    case missingValue(option: String)
    case invalidValue(option: String, value: String, expected: String)
    case unexpectedValue(option: String)
    case unexpectedArgument(String)
    case faultCountWithoutFault
    /// The `--items` file could not be read.
    case itemsFileUnreadable(path: String)
    /// The `--items` file is not a JSON array of items.
    case itemsFileInvalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .helpRequested: return "help requested"
        case .unknownOption(let option): return "unknown option '\(option)' (see --help)"
        case .missingValue(let option): return "option \(option) needs a value"
        case .invalidValue(let option, let value, let expected): return "invalid value '\(value)' for \(option): expected \(expected)"
        case .unexpectedValue(let option): return "option \(option) takes no value"
        case .unexpectedArgument(let argument): return "unexpected argument '\(argument)' (see --help)"
        case .faultCountWithoutFault: return "--fault-count and --fault-query need --fault"
        case .itemsFileUnreadable(let path): return "cannot read items file '\(path)'"
        case .itemsFileInvalid(let path, let reason): return "items file '\(path)' is not a JSON array of items: \(reason)"
        }
    }

    /// The sysexits status `shopy-emulator` exits with: EX_NOINPUT (66) for an unreadable
    /// items file, EX_DATAERR (65) for an invalid one, EX_USAGE (64) for everything else.
    public var exitCode: Int32 {
        switch self {
        case .helpRequested: return 0
        case .itemsFileUnreadable: return 66
        case .itemsFileInvalid: return 65
        default: return 64
        }
    }
}

/// The `shopy-emulator` command line: option parsing, the usage text and the `--items` file.
public enum EmulatorCommandLine {
    public static let usage = """
    usage: shopy-emulator [options]

    Serves the Naver Shopping search API contract (GET /v1/search/shop.json) on loopback from
    an offline catalog, and DataLab Shopping Insight with synthetic numbers (see below), with the API's errors, limits and injectable faults, so that clients
    can be tested without the network. Prints one line first:
        shopy-emulator listening on http://HOST:PORT
    and runs until SIGINT or SIGTERM.

    options:
      --host ADDR          address to bind: IPv4/IPv6 literal or localhost (default 127.0.0.1)
      --port N             port to bind, 0 for any free port (default 0)
      --client-id ID       the X-Naver-Client-Id to accept (default emulator-id)
      --client-secret S    the X-Naver-Client-Secret to accept (default emulator-secret)
      --rate-limit N       429/012 when more than N requests arrive within one second
                           (sliding window; default off)
      --quota N            429/010 once more than N authenticated searches were made
                           (default unlimited; /_emulator/reset starts a new "day")
      --latency MS         wait MS milliseconds before every /v1 answer (default 0)
      --fault KIND         inject a fault into searches that passed every check:
                             500        500 with SE99 (system error)
                             throttle   429 with 012 (rate limit)
                             quota      429 with 010 (query limit)
                             malformed  200 whose body is not JSON
                             truncated  200 whose body stops at about half its Content-Length
                             drop       close the connection without answering
                             slow       headers and a few bytes, then one byte every 500 ms
      --fault-count N      inject the fault into the first N such searches only (default all)
      --fault-query Q      inject the fault only into searches whose query is exactly Q
      --retry-after S      add "Retry-After: S" to 429 and 5xx answers
      --retired            answer shop.json with 404/SE05, as Naver has since 2026-07-31
      --items FILE         serve the items of FILE (a JSON array of API items) instead of
                           the built-in catalog of 340 recorded items
      --datalab-denied     answer every DataLab request with 403 (no DataLab permission)
      --datalab-decimals N decimals of DataLab ratios, or full (default 5, as Naver)
      --price-drift        prices walk while it runs: each time a product is served its
                           price steps -2%..+2% of the catalog's (within ±40%),
                           deterministic per productId and times served
      --image-fault KIND   answer every item picture (/images/ID.png) with a fault:
                             truncated, corrupt, lying-type, mislabeled, huge (1×100000),
                             endless, slow, redirect-file, redirect-http, redirect-loop,
                             redirect-same (each also at /images/fault/KIND)
      --log                one line per request on stderr (method, path, status, ms);
                           the key headers are never printed
      -h, --help           show this help

    The items' image URLs point at the emulator: GET /images/<productId>.png is a small
    generated PNG (a gradient and a disc in the id's colours), no keys needed.

    Credentials go in the X-Naver-Client-Id and X-Naver-Client-Secret headers. Control
    endpoints (no keys needed, not counted as API requests):
      GET /_emulator/stats   counters as JSON (requests, status, throttled, lastQuery,
                             lastParams, maxInFlight, connections accepted, ...)
      GET /_emulator/reset   zero the counters, the quota and the fault count
      GET /_emulator/price?productId=ID&price=N
                             serve ID at price N (over any drift); price=gone leaves
                             it out of every answer, price=base restores the catalog's

    DataLab Shopping Insight (POST, JSON bodies as Naver's contract) is served on both
    layouts: /v1/datalab/shopping/<endpoint> with the X-Naver-Client-Id / -Secret headers
    and /shopping/v1/<endpoint> with X-NCP-APIGW-API-KEY-ID / X-NCP-APIGW-API-KEY (the same
    --client-id / --client-secret values), endpoints /categories, /category/keywords and
    /category[/keyword]/{device,gender,age}. Its numbers are SYNTHETIC: deterministic
    series seeded by code or keyword (weekly and yearly shape), each answer scaled so that
    its largest value is 100; keywords starting with "noclick" have no clicks. The same
    --quota, --rate-limit, --latency, --fault* and --retry-after apply (counted apart).
      GET  /_emulator/datalab/stats        DataLab counters (requests, status, lastBody, ...)
      GET  /_emulator/datalab/reset        zero them
      POST /_emulator/datalab/<endpoint>   the ground truth: any number of series in one
                                           answer, no keys, not counted

    11번가 Open API (GET /openapi/OpenApiService.tmall, apiCode=ProductSearch or ProductInfo)
    answers XML in EUC-KR with CDATA, its errors inside a 200 (003: an unknown key), from the
    same catalog; Coupang Partners (GET /v2/providers/affiliate_open_api/apis/openapi/v1/
    products/search, /products/bestcategories/{id}, /products/goldbox) checks each request's
    HMAC signature (401 for a bad, stale or reused one) and the limit rule. The same --latency,
    --fault*, --retry-after and /_emulator/price apply; /_emulator/stats counts them under
    "elevenst" and "coupang".
      --11st-key K             the key 11번가's API accepts (default emulator-11st-key)
      --coupang-access-key K   the Coupang access key accepted (default emulator-coupang-access)
      --coupang-secret-key S   the Coupang secret key signatures are checked with
                               (default emulator-coupang-secret)
      --coupang-limit N        429 past N Coupang requests in a rolling hour (default off)

    Exit status: 0 after a signal, 64 for a bad command line, 65/66 for an items file that
    is not valid / not readable, 69 when the address cannot be bound.

    """

    /// Parses the arguments after the program name. Options take their value as the next
    /// argument or after `=` (`--port=8080`); a repeated option's last value wins.
    /// Throws `EmulatorCommandLineError.helpRequested` for `-h`/`--help`.
    public static func parse(_ args: [String]) throws(EmulatorCommandLineError) -> EmulatorConfig {
        var config = EmulatorConfig()
        var index = 0
        while index < args.count {
            let argument = args[index]
            index += 1
            guard argument.hasPrefix("-"), argument.count > 1 else { throw .unexpectedArgument(argument) }
            var name = argument
            var inlineValue: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }

            /// The option's value: after `=`, else the next argument.
            func value() throws(EmulatorCommandLineError) -> String {
                if let inlineValue { return inlineValue }
                guard index < args.count else { throw .missingValue(option: name) }
                index += 1
                return args[index - 1]
            }
            func integer(_ range: ClosedRange<Int>, _ expected: String) throws(EmulatorCommandLineError) -> Int {
                let text = try value()
                guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), range.contains(n) else {
                    throw .invalidValue(option: name, value: text, expected: expected)
                }
                return n
            }
            func flag() throws(EmulatorCommandLineError) -> Bool {
                if inlineValue != nil { throw .unexpectedValue(option: name) }
                return true
            }

            switch name {
            case "-h", "--help":
                throw .helpRequested
            case "--host":
                let host = try value()
                guard SocketAddress(host: host, port: 0) != nil else {
                    throw .invalidValue(option: name, value: host, expected: "an IPv4 or IPv6 address, or localhost")
                }
                config.host = host
            case "--port":
                config.port = try integer(0...65535, "a port number 0-65535")
            case "--client-id":
                let id = try value()
                guard !id.isEmpty else { throw .invalidValue(option: name, value: id, expected: "a non-empty client id") }
                config.clientID = id
            case "--client-secret":
                let secret = try value()
                // Never echo a secret back, not even in an error message.
                guard !secret.isEmpty else { throw .invalidValue(option: name, value: "", expected: "a non-empty client secret") }
                config.clientSecret = secret
            case "--rate-limit":
                config.rateLimit = try integer(0...Int(Int32.max), "a number of requests per second (0 or more)")
            case "--quota":
                config.quota = try integer(0...Int(Int32.max), "a number of requests (0 or more)")
            case "--latency":
                config.latencyMilliseconds = try integer(0...3_600_000, "milliseconds (0-3600000)")
            case "--fault":
                let text = try value()
                guard let fault = EmulatorFault(rawValue: text) else {
                    throw .invalidValue(option: name, value: text,
                                        expected: EmulatorFault.allCases.map(\.rawValue).joined(separator: ", "))
                }
                config.fault = fault
            case "--fault-query":
                config.faultQuery = try value()
            case "--fault-count":
                config.faultCount = try integer(0...Int(Int32.max), "a number of requests (0 or more)")
            case "--retry-after":
                config.retryAfterSeconds = try integer(0...86_400, "seconds (0-86400)")
            case "--retired":
                config.retired = try flag()
            case "--items":
                let path = try value()
                guard !path.isEmpty else { throw .invalidValue(option: name, value: path, expected: "a file path") }
                config.itemsFile = path
            case "--datalab-denied":
                config.dataLabDenied = try flag()
            case "--datalab-decimals":
                let text = try value()
                if text == "full" {
                    config.dataLabRatioDecimals = nil
                } else {
                    guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(text), (0...15).contains(n) else {
                        throw .invalidValue(option: name, value: text, expected: "0 to 15 decimals, or full")
                    }
                    config.dataLabRatioDecimals = n
                }
            case "--image-fault":
                let text = try value()
                guard let fault = PictureFault(rawValue: text) else {
                    throw .invalidValue(option: name, value: text, expected: PictureFault.allCases.map(\.rawValue).joined(separator: ", "))
                }
                config.imageFault = fault
            case "--11st-key":
                let key = try value()
                guard !key.isEmpty else { throw .invalidValue(option: name, value: "", expected: "a non-empty key") }
                config.elevenStreetKey = key
            case "--coupang-access-key":
                let key = try value()
                guard !key.isEmpty else { throw .invalidValue(option: name, value: "", expected: "a non-empty access key") }
                config.coupangAccessKey = key
            case "--coupang-secret-key":
                let key = try value()
                guard !key.isEmpty else { throw .invalidValue(option: name, value: "", expected: "a non-empty secret key") }
                config.coupangSecretKey = key
            case "--coupang-limit":
                config.coupangLimit = try integer(0...1_000_000, "a number of requests an hour (0 or more)")
            case "--log":
                config.log = try flag()
            case "--price-drift":
                config.priceDrift = try flag()
            default:
                throw .unknownOption(name)
            }
        }
        if (config.faultCount != nil || config.faultQuery != nil) && config.fault == nil { throw .faultCountWithoutFault }
        return config
    }

    /// The catalog a config asks for: the `--items` file when given, else the embedded one.
    /// Reading happens here rather than in `parse` so that parsing stays free of I/O.
    public static func catalog(for config: EmulatorConfig) throws(EmulatorCommandLineError) -> Catalog {
        guard let path = config.itemsFile else { return .embedded }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .itemsFileUnreadable(path: path)
        }
        do {
            return try Catalog(json: [UInt8](data))
        } catch {
            throw .itemsFileInvalid(path: path, reason: error.description)
        }
    }
}
