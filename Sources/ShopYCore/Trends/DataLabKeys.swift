import Foundation
import ShopYBase

/// Which of Naver's two platforms a DataLab request goes to, with the keys for it. Never printed.
public struct DataLabKeys: Sendable, Equatable {
    public enum Scheme: String, Sendable {
        /// NAVER Cloud's API HUB: X-NCP-APIGW-API-KEY-ID / X-NCP-APIGW-API-KEY.
        case apiHub
        /// Naver Developers Center: X-Naver-Client-Id / X-Naver-Client-Secret (until 2027-06-30).
        case developers
    }

    public var scheme: Scheme
    public var id: String
    public var secret: String
    /// Both pairs were set (API HUB won): worth one line in --verbose.
    public var bothSet: Bool

    public static let apiHubBase = "https://naverapihub.apigw.ntruss.com/shopping/v1"
    public static let developersBase = "https://openapi.naver.com/v1/datalab/shopping"

    /// API HUB keys when both NAVER_API_HUB_KEY_ID and NAVER_API_HUB_KEY are set, else the
    /// Developers Center pair, else nil.
    public static func from(environment: [String: String]) -> DataLabKeys? {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let developers = NaverCredentials.from(environment: environment)
        if let id = value("NAVER_API_HUB_KEY_ID"), let key = value("NAVER_API_HUB_KEY") {
            return DataLabKeys(scheme: .apiHub, id: id, secret: key, bothSet: developers != nil)
        }
        if let developers {
            return DataLabKeys(scheme: .developers, id: developers.clientID, secret: developers.clientSecret, bothSet: false)
        }
        return nil
    }

    /// The two credential headers.
    public var headers: [(String, String)] {
        switch scheme {
        case .apiHub: return [("X-NCP-APIGW-API-KEY-ID", id), ("X-NCP-APIGW-API-KEY", secret)]
        case .developers: return [("X-Naver-Client-Id", id), ("X-Naver-Client-Secret", secret)]
        }
    }

    /// The header names, for --verbose (values redacted).
    public var redactedHeaders: String {
        headers.map { "\($0.0): [redacted]" }.joined(separator: "  ")
    }

    public var variableNames: String {
        switch scheme {
        case .apiHub: return "NAVER_API_HUB_KEY_ID / NAVER_API_HUB_KEY"
        case .developers: return "NAVER_CLIENT_ID / NAVER_CLIENT_SECRET"
        }
    }

    /// SHOPY_DATALAB_BASE when set (checked to be an http(s) URL without a query), else the
    /// scheme's own base. shopy appends the endpoint (`/categories`, `/category/keywords`, …).
    public func base(environment: [String: String]) throws(DataLabError) -> URL {
        let override = environment["SHOPY_DATALAB_BASE"].map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        let text = override ?? (scheme == .apiHub ? DataLabKeys.apiHubBase : DataLabKeys.developersBase)
        guard let url = URL(string: text), let urlScheme = url.scheme?.lowercased(), urlScheme == "http" || urlScheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.user == nil, url.password == nil,
              (1...65535).contains(url.port ?? 80) else {
            // A base with user info may hold a secret: say only that it is invalid.
            throw .invalidBaseURL(URL(string: text)?.user != nil ? "(a URL with user info)" : Sanitizer.clean(text))
        }
        return url
    }
}
