import ShopYBase
/// Why a secure connection failed, as far as the HTTP library says: the cause a user can act on
/// (a certificate not trusted, expired, for another host; the trusted certificates unreadable;
/// a server that does not speak TLS), with the library's own words where they add something.
public enum TLSFailure: Equatable, Sendable {
    /// The chain does not lead to a trusted CA (self-signed, unknown issuer); the library's detail.
    case untrusted(String?)
    case expired
    case notYetValid
    case revoked
    /// The certificate names other hosts.
    case wrongHost
    /// The trusted certificates (SSL_CERT_FILE, SSL_CERT_DIR, the system's) cannot be read.
    case trustStoreUnreadable(String?)
    /// The server answered, but not in TLS (plain HTTP on an https:// address).
    case notTLS
    /// Anything else in the handshake (protocol, cipher, a client certificate asked for).
    case handshake(String?)

    /// After "the secure connection to HOST failed: ".
    public var cause: String {
        switch self {
        case .untrusted(let detail): return "its certificate is not trusted" + Self.parenthesized(detail)
        case .expired: return "its certificate has expired"
        case .notYetValid: return "its certificate is not valid yet"
        case .revoked: return "its certificate has been revoked"
        case .wrongHost: return "its certificate is for another host name"
        case .trustStoreUnreadable(let detail): return "the trusted certificates cannot be read" + Self.parenthesized(detail)
        case .notTLS: return "the server does not speak TLS there"
        case .handshake(let detail): return "the TLS handshake failed" + Self.parenthesized(detail)
        }
    }

    /// What to do; `baseVariable` names the setting that holds the address (SHOPY_API_BASE).
    public func hint(baseVariable: String) -> String? {
        switch self {
        case .untrusted:
            return "if a proxy or security software inspects TLS, trust its CA certificate: export SSL_CERT_FILE=/path/to/its-ca.pem (PEM; SSL_CERT_DIR for a directory)"
        case .wrongHost:
            return "check the host in \(baseVariable); a proxy that inspects TLS needs its CA certificate in SSL_CERT_FILE"
        case .expired, .notYetValid:
            return "check this machine's clock (date -u); if it is right, the server's certificate is out of date"
        case .trustStoreUnreadable:
            return "point SSL_CERT_FILE (a PEM file) or SSL_CERT_DIR (a directory) at readable CA certificates, or unset them"
        case .notTLS:
            return "if the server speaks plain HTTP, write http:// in \(baseVariable)"
        case .handshake:
            return "a proxy or firewall may be in the way; --verbose traces each attempt"
        case .revoked:
            return nil
        }
    }

    /// The failure libcurl reports as `code` (a CURLcode of the TLS family) with `detail` (its
    /// error buffer). The words are OpenSSL's and GnuTLS's as curl passes them on; what is not
    /// recognized keeps the library's detail.
    public static func fromCurl(code: Int32, detail: String?) -> TLSFailure {
        let words = (detail ?? "").lowercased()
        // curl prefixes verification problems; the rest is the TLS library's own sentence.
        let shown = detail.map { text -> String in
            for prefix in ["SSL certificate problem: ", "SSL: "] where text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
            return text
        }
        switch code {
        case 77, 82:  // CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE
            return .trustStoreUnreadable(shown)
        case 35 where words.contains("wrong version number") || words.contains("packet length too long") || words.contains("unexpected tls packet"):
            return .notTLS  // OpenSSL (and GnuTLS) reading an HTTP answer as a TLS record
        case 51, 60, 83, 91:  // peer verification, issuer, OCSP status
            if words.contains("expired") { return .expired }
            if words.contains("not yet valid") || words.contains("not activated") { return .notYetValid }
            if words.contains("revoked") { return .revoked }
            if words.contains("subject name") || words.contains("host name") || words.contains("hostname") || words.contains("subjectaltname") {
                return .wrongHost
            }
            return .untrusted(shown)
        default:
            return .handshake(shown)
        }
    }

    static func parenthesized(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(FieldLimits.cut(Sanitizer.clean(detail), to: 160)))"
    }
}
