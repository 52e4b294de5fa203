import Foundation
import ShopYBase

/// The proxy a request goes through, chosen from the environment by curl's rules, so that shopy
/// can name it when it fails (and set it explicitly, so what is named is what was used).
public struct ProxySelection: Equatable, Sendable {
    /// As the variable gives it (credentials included: it is passed on, never shown).
    public var url: String
    /// The variable it came from, e.g. `HTTPS_PROXY`.
    public var variable: String

    /// The proxy for messages: scheme, host and port, without `user:password@`.
    public var displayName: String {
        var text = url
        var scheme = ""
        if let range = text.range(of: "://") {
            scheme = String(text[..<range.upperBound])
            text = String(text[range.upperBound...])
        }
        let authorityEnd = text.firstIndex(of: "/") ?? text.endIndex
        var authority = text[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return Sanitizer.clean(scheme + authority)
    }
}

/// `https_proxy` / `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http, then
/// `all_proxy` / `ALL_PROXY`; `no_proxy` / `NO_PROXY` (a comma-separated list of host names,
/// domain suffixes and address ranges such as `10.0.0.0/8`, or `*`) exempts hosts. Lowercase names win, as in curl; empty values count
/// as unset.
public enum ProxyEnvironment {
    public static func proxy(for url: URL, lookup: (String) -> String? = ProxyEnvironment.processEnvironment) -> ProxySelection? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let host = normalized(url.host ?? "")
        if let noProxy = first(["no_proxy", "NO_PROXY"], lookup), bypasses(host: host, noProxy: noProxy.value) {
            return nil
        }
        let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy", "HTTP_PROXY"]
        guard let found = first(names, lookup) ?? first(["all_proxy", "ALL_PROXY"], lookup) else { return nil }
        return ProxySelection(url: found.value, variable: found.name)
    }

    /// Whether `noProxy` exempts `host` (already lowercased, without brackets or a final dot).
    public static func bypasses(host: String, noProxy: String) -> Bool {
        for entry in noProxy.split(separator: ",") {
            var pattern = normalized(String(entry).trimmingASCIIWhitespace())
            if pattern == "*" { return true }
            // An address range (`10.0.0.0/8`) covers IP-literal hosts only, as in curl.
            if pattern.contains("/") {
                if NoProxyRange.covers(host: host, pattern: pattern) == true { return true }
                continue
            }
            while pattern.hasPrefix(".") { pattern.removeFirst() }
            if pattern.isEmpty { continue }
            if host == pattern || host.hasSuffix("." + pattern) { return true }
        }
        return false
    }

    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func first(_ names: [String], _ lookup: (String) -> String?) -> (name: String, value: String)? {
        for name in names {
            if let value = lookup(name)?.trimmingASCIIWhitespace(), !value.isEmpty { return (name, value) }
        }
        return nil
    }

    private static func normalized(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
