import Foundation
import ShopYBase

/// Which sources have their keys, read from the environment once. Keys are never printed.
///
/// - naver: `NAVER_CLIENT_ID` and `NAVER_CLIENT_SECRET` (`NaverCredentials`)
/// - 11st: `ELEVENST_API_KEY` (an 11번가 seller account's OPEN API key)
/// - coupang: `COUPANG_ACCESS_KEY` and `COUPANG_SECRET_KEY` (an approved Partners member's)
public struct SourceKeys: Sendable {
    public var naver: NaverCredentials?
    public var elevenStreet: String?
    public var coupang: CoupangCredentials?
    /// The variables that are set (for the messages that name the missing ones).
    private var present: Set<String>

    public init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var present = Set<String>()
        for name in SourceKind.live.flatMap(SourceKeys.variables(of:)) where value(name) != nil { present.insert(name) }
        self.present = present
        naver = NaverCredentials.from(environment: environment)
        elevenStreet = value("ELEVENST_API_KEY")
        if let access = value("COUPANG_ACCESS_KEY"), let secret = value("COUPANG_SECRET_KEY") {
            coupang = CoupangCredentials(accessKey: access, secretKey: secret)
        }
    }

    /// The variables `kind` needs (none for the catalog).
    public static func variables(of kind: SourceKind) -> [String] {
        switch kind {
        case .naver: return ["NAVER_CLIENT_ID", "NAVER_CLIENT_SECRET"]
        case .elevenst: return ["ELEVENST_API_KEY"]
        case .coupang: return ["COUPANG_ACCESS_KEY", "COUPANG_SECRET_KEY"]
        case .catalog: return []
        }
    }

    public func has(_ kind: SourceKind) -> Bool { missing(kind).isEmpty }

    /// The variables of `kind` that are not set.
    public func missing(_ kind: SourceKind) -> [String] {
        SourceKeys.variables(of: kind).filter { !present.contains($0) }
    }

    /// The live sources whose keys are all set, in `SourceKind.live`'s order.
    public var withKeys: [SourceKind] { SourceKind.live.filter(has) }

    /// Checks that each key of `kind` can go into a request as it is: printable ASCII without
    /// spaces or commas (Coupang's go into the Authorization header's comma-separated fields).
    public static func checkUsable(_ kind: SourceKind, environment: [String: String]) throws(SourceError) {
        for variable in variables(of: kind) {
            guard let value = environment[variable]?.trimmingASCIIWhitespace(), !value.isEmpty else { continue }
            guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }) else { throw .unusableKey(variable: variable) }
        }
    }

    /// The address of `kind`'s service: its variable (scheme, host, port and an optional path
    /// prefix; shopy appends the service's paths) or its own, checked to be an http(s) URL.
    public static func base(of kind: SourceKind, environment: [String: String]) throws(SourceError) -> URL {
        if kind == .naver { return try RequestBuilder.base(from: environment) }
        guard let variable = kind.baseVariable, let fallback = kind.defaultBase else { throw SourceError.invalidSourceBase(variable: "base", value: "") }
        let text = environment[variable].map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, (1...65535).contains(url.port ?? 80) else {
            throw .invalidSourceBase(variable: variable, value: URLRedaction.redact(text))
        }
        return url
    }

    /// `base` with `path` appended (`/openapi/OpenApiService.tmall`), without a doubled slash.
    static func join(_ base: URL, _ path: String) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text + path
    }
}

/// A Coupang Partners member's key pair. The secret signs requests and is never sent.
public struct CoupangCredentials: Sendable, Equatable {
    public var accessKey: String
    public var secretKey: String

    public init(accessKey: String, secretKey: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
    }
}
