#if os(Linux)
import Foundation
import Glibc
import CShopYShim

/// One request on a libcurl easy handle: the options that make it safe (TLS verified, no
/// redirects, http(s) only, the deadline, the caps), the callbacks that collect the answer, and
/// the reading of curl's result in the transport's plain categories.
///
/// The callbacks run on the driver's thread inside curl_multi_perform; everything they write is
/// read there too, once curl reports the transfer done.
final class CurlTransfer: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let proxy: ProxySelection?
    private var headerList: UnsafeMutableRawPointer?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    // Driver thread only.
    private var headerFields: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var headersComplete = false
    private var body: [UInt8] = []
    private var exceeded: ResponseLimit?
    private var maxBodyBytes = ResponseLimit.maxBodyBytes

    // Guarded by the driver's lock.
    var continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?
    var cancelRequested = false

    private init(easy: UnsafeMutableRawPointer, proxy: ProxySelection?) {
        self.easy = easy
        self.proxy = proxy
        errorBuffer = .allocate(capacity: Int(CSHOPY_CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CSHOPY_CURL_ERROR_SIZE))
    }

    deinit {
        cshopy_curl_easy_cleanup(easy)
        if let headerList { cshopy_curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// A configured transfer for `request`, allowed `timeoutMilliseconds` in all.
    static func make(_ request: HTTPRequest, timeoutMilliseconds: Int, proxy: ProxySelection?,
                     trusted: TrustedCertificates = TrustedCertificates()) throws(TransportError) -> CurlTransfer {
        for (name, value) in request.headers where !isFieldText(name) || !isFieldText(value) || name.isEmpty {
            throw .other("the request header \(Sanitizer.clean(name)) contains a control character")
        }
        guard let easy = cshopy_curl_easy_init() else { throw .other("libcurl could not create a transfer") }
        let transfer = CurlTransfer(easy: easy, proxy: proxy)
        transfer.maxBodyBytes = min(request.maxBodyBytes, ResponseLimit.maxBodyBytes)
        try transfer.configure(request, timeoutMilliseconds: timeoutMilliseconds, trusted: trusted)
        return transfer
    }

    private static func isFieldText(_ text: String) -> Bool {
        !text.utf8.contains { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }
    }

    private func configure(_ request: HTTPRequest, timeoutMilliseconds: Int, trusted: TrustedCertificates) throws(TransportError) {
        var failed: [Int32] = []
        func set(_ option: Int32, _ value: Int) {
            if cshopy_curl_easy_setopt_long(easy, option, value) != 0 { failed.append(option) }
        }
        func set(_ option: Int32, _ text: String) {
            if text.withCString({ cshopy_curl_easy_setopt_pointer(easy, option, $0) }) != 0 { failed.append(option) }
        }
        func set(_ option: Int32, pointer: UnsafeRawPointer?) {
            if cshopy_curl_easy_setopt_pointer(easy, option, pointer) != 0 { failed.append(option) }
        }
        func set(_ option: Int32, offset: Int64) {
            if cshopy_curl_easy_setopt_offset(easy, option, offset) != 0 { failed.append(option) }
        }

        for option in Self.options(for: request, timeoutMilliseconds: timeoutMilliseconds, proxy: proxy,
                                   trusted: trusted) {
            switch option {
            case .long(let option, let value): set(option, value)
            case .text(let option, let value): set(option, value)
            case .offset(let option, let value): set(option, offset: value)
            }
        }
        set(CSHOPY_CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))

        for (name, value) in request.headers {
            headerList = cshopy_curl_slist_append(headerList, "\(name): \(value)")
        }
        // No `Expect: 100-continue` round trip before a POST body.
        headerList = cshopy_curl_slist_append(headerList, "Expect:")
        set(CSHOPY_CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(headerList))

        switch request.method {
        case .get:
            set(CSHOPY_CURLOPT_HTTPGET, 1)
        case .post:
            let body = request.body ?? []
            set(CSHOPY_CURLOPT_POST, 1)
            set(CSHOPY_CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            // Copied by curl (the size is set first, so the bytes may hold NULs).
            body.withUnsafeBytes { raw in
                let empty: [UInt8] = [0]
                if raw.count == 0 {
                    empty.withUnsafeBytes { set(CSHOPY_CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
                } else {
                    set(CSHOPY_CURLOPT_COPYPOSTFIELDS, pointer: raw.baseAddress)
                }
            }
        }

        let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        set(CSHOPY_CURLOPT_WRITEDATA, pointer: context)
        set(CSHOPY_CURLOPT_HEADERDATA, pointer: context)
        if cshopy_curl_easy_setopt_callback(easy, CSHOPY_CURLOPT_WRITEFUNCTION, { data, size, count, context in
            let length = size * count
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }) != 0 { failed.append(CSHOPY_CURLOPT_WRITEFUNCTION) }
        if cshopy_curl_easy_setopt_callback(easy, CSHOPY_CURLOPT_HEADERFUNCTION, { data, size, count, context in
            let length = size * count
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }) != 0 { failed.append(CSHOPY_CURLOPT_HEADERFUNCTION) }

        if !failed.isEmpty {
            throw .unavailable(library: LibCurl.defaultName,
                               reason: "it refused option\(failed.count == 1 ? "" : "s") \(failed.map(String.init).joined(separator: ", "))")
        }
    }

    // MARK: - Callbacks (driver thread)

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard chunk.count <= maxBodyBytes - body.count else {
            exceeded = .body
            return false
        }
        if body.isEmpty, let length = announcedLength, length <= maxBodyBytes {
            body.reserveCapacity(length)
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// One header line (curl passes them whole, CRLF included), for every response curl reads:
    /// a proxy's CONNECT answer or a 1xx is followed by the real one, whose status line starts over.
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= ResponseLimit.maxHeaderBytes else {
            exceeded = .headers
            return false
        }
        var bytes = line[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
        if bytes.isEmpty {
            headersComplete = true
            return true
        }
        if bytes.starts(with: "HTTP/".utf8) {
            headerFields = []
            headersComplete = false
            return true
        }
        guard let colon = bytes.firstIndex(of: 0x3A) else { return true }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: bytes[(colon + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
        headerFields.append((name, value))
        return true
    }

    private func header(_ name: String) -> String? {
        let values = headerFields.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The body length the headers announce, when the body is not encoded (a gzip body's
    /// Content-Length counts compressed bytes).
    private var announcedLength: Int? {
        guard header("content-encoding") == nil else { return nil }
        return header("content-length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    // MARK: - Result (driver thread)

    /// What the request came to, once curl reports `code` (a CURLcode).
    func outcome(_ code: Int32) -> Result<HTTPResponse, TransportError> {
        if let problem = CurlTransfer.framingProblem(headerFields, decodes: CurlTransfer.decodedEncodings) { return .failure(.malformed(problem)) }
        guard code == 0 else { return .failure(classify(code)) }
        var status = 0
        _ = cshopy_curl_easy_getinfo_long(easy, CSHOPY_CURLINFO_RESPONSE_CODE, &status)
        var headers: [String: String] = [:]
        for (name, value) in headerFields {
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }

    private func classify(_ code: Int32) -> TransportError {
        if let exceeded { return .tooLarge(exceeded) }
        switch code {
        case 63:  // CURLE_FILESIZE_EXCEEDED: the announced length is over the cap
            return .tooLarge(.body)
        case 28:  // CURLE_OPERATION_TIMEDOUT
            return .timeout
        case 42:  // CURLE_ABORTED_BY_CALLBACK
            return .cancelled
        case 6:   // CURLE_COULDNT_RESOLVE_HOST
            return .dns
        case 5:   // CURLE_COULDNT_RESOLVE_PROXY
            return proxyFailure("its host name does not resolve")
        case 7:   // CURLE_COULDNT_CONNECT
            let number = osErrno
            if proxy != nil { return proxyFailure(number == 0 ? "cannot connect" : Self.words(errno: number)) }
            switch number {
            case ENETUNREACH: return .notConnected
            case EHOSTUNREACH: return .other("no route to the host")
            default: return .refused
            }
        case 97:  // CURLE_PROXY
            return proxyFailure(errorText ?? "the proxy handshake failed")
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
            return .tls(TLSFailure.fromCurl(code: code, detail: errorText))
        case 8 where (errorText ?? "").lowercased().contains("content-length"):  // curl refused the framing
            return .malformed("its Content-Length is not one non-negative number (\(errorText ?? ""))")
        case 27 where !headersComplete, 100 where !headersComplete:  // CURLE_OUT_OF_MEMORY, CURLE_TOO_LARGE: a header line over curl's own cap
            return .tooLarge(.headers)
        case 1 where (errorText ?? "").contains("HTTP"):  // CURLE_UNSUPPORTED_PROTOCOL: a status line that does not parse, HTTP/0.9
            return .malformed("its status line is not HTTP/1.x or HTTP/2 (\(errorText ?? ""))")
        case 61:  // CURLE_BAD_CONTENT_ENCODING
            return .malformed("its content encoding is corrupt")
        case 8, 16, 18, 23, 52, 55, 56, 92:
            // Weird reply, HTTP/2 framing, partial file, write error, nothing, send/recv error.
            var connectCode = 0
            _ = cshopy_curl_easy_getinfo_long(easy, CSHOPY_CURLINFO_HTTP_CONNECTCODE, &connectCode)
            if proxy != nil, connectCode >= 300 { return proxyFailure("it answered \(connectCode) to CONNECT") }
            if headersComplete { return .truncated(received: body.count, expected: announcedLength) }
            if proxy != nil { return proxyFailure("it closed the connection without answering") }
            return .noAnswer
        default:
            return .other(errorText ?? LibCurl.describe(code))
        }
    }

    private func proxyFailure(_ reason: String) -> TransportError {
        guard let proxy else { return .other(reason) }
        return .proxy(proxy: proxy.displayName, variable: proxy.variable, reason: reason)
    }

    private var osErrno: Int32 {
        var number = 0
        _ = cshopy_curl_easy_getinfo_long(easy, CSHOPY_CURLINFO_OS_ERRNO, &number)
        return Int32(truncatingIfNeeded: number)
    }

    private static func words(errno number: Int32) -> String {
        switch number {
        case ECONNREFUSED: return "connection refused"
        case ETIMEDOUT: return "connecting timed out"
        case ENETUNREACH, EHOSTUNREACH: return "no route to it"
        default: return String(cString: strerror(number)).lowercased()
        }
    }

    /// curl's own detail for the failure (its error buffer), when it wrote one.
    private var errorText: String? {
        let text = String(cString: errorBuffer).trimmingASCIIWhitespace()
        return text.isEmpty ? nil : Sanitizer.clean(text)
    }
}
#endif
import ShopYBase
