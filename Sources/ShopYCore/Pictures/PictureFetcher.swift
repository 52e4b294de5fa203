import Foundation
import ShopYBase

/// Fetches a product's picture through shopy's transport (its proxies, its deadline): http or
/// https, at most `PictureLimits.maxRedirects` redirects (each to https, or to the same host
/// without leaving https), at most `PictureLimits.maxBytes`, and only a JPEG, PNG, WebP or GIF
/// Content-Type. What comes back is bytes and their declared format; nothing is decoded here.
public struct PictureFetcher: Sendable {
    public let transport: any HTTPTransport
    /// `--verbose` lines (each redirect followed).
    public let trace: Tracer

    public init(transport: any HTTPTransport, trace: Tracer = .off) {
        self.transport = transport
        self.trace = trace
    }

    /// The fetched bytes and the format their Content-Type declares, or why not, within `deadline`.
    public func fetch(_ link: String, deadline: ContinuousClock.Instant) async -> Result<(bytes: [UInt8], declared: PictureFormat), PictureFailure> {
        guard var url = Self.imageURL(link) else {
            return .failure(.noImage("the image URL is not an http or https address"))
        }
        var redirects = 0
        while true {
            var request = HTTPRequest(url: url, headers: [("Accept", "image/jpeg, image/png, image/webp, image/gif"),
                                                          ("User-Agent", "shopy/\(ShopYVersion.current)")])
            request.maxBodyBytes = PictureLimits.maxBytes
            let response: HTTPResponse
            do {
                response = try await transport.send(request, deadline: deadline)
            } catch {
                return .failure(Self.failure(error))
            }
            switch response.status {
            case 200:
                guard response.body.count <= PictureLimits.maxBytes else { return .failure(.tooLarge(bytes: PictureLimits.maxBytes)) }
                let type = response.headers["content-type"] ?? ""
                guard let declared = PictureFormat(mediaType: type) else {
                    let shown = type.isEmpty ? "no Content-Type" : "Content-Type \(Sanitizer.clean(String(type.prefix(80))))"
                    return .failure(.type("the server sent \(shown), not image/jpeg, png, webp or gif"))
                }
                return .success((response.body, declared))
            case 301, 302, 303, 307, 308:
                redirects += 1
                guard redirects <= PictureLimits.maxRedirects else {
                    return .failure(.redirect("more than \(PictureLimits.maxRedirects) redirects"))
                }
                switch Self.redirectTarget(from: url, location: response.headers["location"]) {
                case .success(let next):
                    trace("picture: redirected to \(URLRedaction.redact(next.absoluteString))")
                    url = next
                case .failure(let failure):
                    return .failure(failure)
                }
            default:
                return .failure(.status(response.status))
            }
        }
    }

    /// The URL of an image link: absolute http or https with a host, else nil.
    public static func imageURL(_ link: String) -> URL? {
        let text = link.trimmingASCIIWhitespace()
        guard !text.isEmpty, text.utf8.count <= 4096, !text.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }

    /// Where a redirect leads, when it may be followed: to https anywhere, or to the same host
    /// and port over the same scheme or https (never from https down to http, never file:, data:…).
    static func redirectTarget(from current: URL, location: String?) -> Result<URL, PictureFailure> {
        guard let location = location?.trimmingASCIIWhitespace(), !location.isEmpty else {
            return .failure(.redirect("a redirect without a Location"))
        }
        let shown = Sanitizer.clean(String(location.prefix(120)))
        guard let next = URL(string: location, relativeTo: current)?.absoluteURL, let scheme = next.scheme?.lowercased() else {
            return .failure(.redirect("a redirect to '\(shown)', which is not a URL"))
        }
        guard scheme == "http" || scheme == "https", let host = next.host, !host.isEmpty else {
            return .failure(.redirect("a redirect to a \(Sanitizer.clean(scheme)): address is not followed"))
        }
        let fromHTTPS = current.scheme?.lowercased() == "https"
        if scheme == "https" { return .success(next) }
        let sameHost = host.lowercased() == current.host?.lowercased() && (next.port ?? 80) == (current.port ?? (fromHTTPS ? 443 : 80))
        if sameHost && !fromHTTPS { return .success(next) }
        return .failure(.redirect(fromHTTPS ? "a redirect from https down to http (\(shown)) is not followed"
                                            : "a redirect to http on another host (\(shown)) is not followed"))
    }

    /// A transport failure in a few words.
    static func failure(_ error: TransportError) -> PictureFailure {
        switch error {
        case .timeout: return .transport("the picture did not come within the timeout")
        case .cancelled: return .cancelled
        case .dns: return .transport("its host name does not resolve")
        case .refused: return .transport("the connection was refused")
        case .noAnswer: return .transport("the server closed the connection without answering")
        case .truncated(let received, let expected):
            return .transport("the answer stopped after \(received) bytes" + (expected.map { " of \($0)" } ?? ""))
        case .tls: return .transport("the TLS handshake failed (certificate or protocol)")
        case .notConnected: return .transport("the network is not connected")
        case .tooLarge(.body): return .tooLarge(bytes: PictureLimits.maxBytes)
        case .tooLarge(.headers): return .transport("the answer's headers are too large")
        case .proxy(let proxy, let variable, let reason): return .transport("the proxy \(proxy) (\(variable)) failed: \(reason)")
        case .malformed(let text): return .transport("the answer is malformed: \(Sanitizer.clean(text))")
        case .unavailable(let library, let reason): return .transport("\(Sanitizer.clean(library)) cannot be used: \(Sanitizer.clean(reason))")
        case .other(let text): return .transport(Sanitizer.clean(text))
        }
    }
}
