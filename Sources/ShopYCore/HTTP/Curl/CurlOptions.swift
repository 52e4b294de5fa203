#if os(Linux)
import CShopYShim

/// One libcurl easy option and its value, as `CurlTransfer` sets it: the request's options are
/// worked out as a plain list first (so that tests can read exactly what curl is asked for),
/// then applied through the typed C helpers.
enum CurlOption: Equatable, Sendable {
    case long(Int32, Int)
    case text(Int32, String)
    case offset(Int32, Int64)

    var option: Int32 {
        switch self {
        case .long(let option, _), .text(let option, _), .offset(let option, _): return option
        }
    }
}

/// CURLOPT_CAPATH (CURLOPTTYPE_STRINGPOINT + 97, stable since curl 7.9.8).
let curlOptCAPath: Int32 = 10097

extension CurlTransfer {
    /// How long connecting (DNS, TCP, TLS) may take at most, within the deadline.
    static let connectTimeoutMilliseconds = 10_000

    /// Every scalar and text option a transfer of `request` gets (headers, body, buffers and
    /// callbacks are pointers, set by `configure` itself): TLS verified, no redirects, http(s)
    /// only, HTTP/2 where a TLS server offers it, the deadline, the caps, the proxy chosen.
    static func options(for request: HTTPRequest, timeoutMilliseconds: Int, proxy: ProxySelection?,
                        trusted: TrustedCertificates = TrustedCertificates()) -> [CurlOption] {
        var options: [CurlOption] = [
            .long(CSHOPY_CURLOPT_NOSIGNAL, 1),
            .text(CSHOPY_CURLOPT_URL, request.url.absoluteString),
            .long(CSHOPY_CURLOPT_PROTOCOLS, Int(CSHOPY_CURLPROTO_HTTP | CSHOPY_CURLPROTO_HTTPS)),
            // Redirects are refused: the keys would go along. The 3xx is the server's answer.
            .long(CSHOPY_CURLOPT_FOLLOWLOCATION, 0),
            .long(CSHOPY_CURLOPT_SSL_VERIFYPEER, 1),
            .long(CSHOPY_CURLOPT_SSL_VERIFYHOST, 2),
            // HTTP/2 when a TLS server offers it in ALPN, HTTP/1.1 otherwise (and always over plain http).
            .long(CSHOPY_CURLOPT_HTTP_VERSION, Int(CSHOPY_CURL_HTTP_VERSION_2TLS)),
        ]
        // Concurrent https requests to one host wait for the first connection's TLS handshake to
        // tell whether it multiplexes (HTTP/2) rather than opening more. Not for plain http: there
        // curl would learn it from the first answer, and the others would wait a whole round trip.
        if request.url.scheme?.lowercased() == "https" { options.append(.long(CSHOPY_CURLOPT_PIPEWAIT, 1)) }
        options += [
            .long(CSHOPY_CURLOPT_TCP_KEEPALIVE, 1),
            .long(CSHOPY_CURLOPT_TIMEOUT_MS, max(1, timeoutMilliseconds)),
            .long(CSHOPY_CURLOPT_CONNECTTIMEOUT_MS, max(1, min(timeoutMilliseconds, connectTimeoutMilliseconds))),
            // gzip and deflate (every libcurl decodes them; an answer in another is refused as
            // malformed, see `framingProblem`); the body cap counts decoded bytes.
            .text(CSHOPY_CURLOPT_ACCEPT_ENCODING, "gzip, deflate"),
            .offset(CSHOPY_CURLOPT_MAXFILESIZE_LARGE, Int64(min(request.maxBodyBytes, ResponseLimit.maxBodyBytes))),
            // The proxy chosen here is the one used: set explicitly (or "" for none), with curl's
            // own no_proxy reading turned off so that the two can never disagree.
            .text(CSHOPY_CURLOPT_PROXY, proxy?.url ?? ""),
            .text(CSHOPY_CURLOPT_NOPROXY, ""),
            .long(CSHOPY_CURLOPT_NOPROGRESS, 1),
        ]
        // Other trust anchors (SSL_CERT_FILE / SSL_CERT_DIR, tests' loopback TLS servers) instead
        // of the system's; verification stays on.
        if let file = trusted.file { options.append(.text(CSHOPY_CURLOPT_CAINFO, file)) }
        if let directory = trusted.directory { options.append(.text(curlOptCAPath, directory)) }
        return options
    }
}
#endif
