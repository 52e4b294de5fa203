/// The small part of HTTP/1.1 the emulator needs: parsing a request head, decoding a form
/// query string, and writing a response head. Bytes throughout, because a query may carry
/// raw or percent-encoded bytes that are not UTF-8 and the API answers those with SE06 rather
/// than having them replaced on the way in.

/// A parsed request: its head and the body its Content-Length announced (empty without one).
struct ParsedRequest: Sendable {
    var method: String
    /// The request target as sent (origin form, or absolute form reduced to its path and query).
    var target: [UInt8]
    /// The target up to `?` (or `#`), as text.
    var path: String
    /// The bytes after `?`, up to `#`; empty when there is no query.
    var rawQuery: [UInt8]
    var version: String
    /// Header fields in the order received; names as sent.
    var headers: [(name: String, value: String)]
    /// The body, exactly `Content-Length` bytes (a POST's form or JSON); empty when none was sent.
    var body: [UInt8] = []

    /// A header's value by case-insensitive name; repeated fields are joined with ", " as
    /// RFC 9110 allows, so a duplicated credential header never matches by accident.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The announced body length, when there is a valid one.
    var contentLength: Int? {
        header("Content-Length").flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Whether the client wants the connection kept open after the answer: HTTP/1.1 unless it
    /// said `Connection: close`, HTTP/1.0 only when it said `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingASCIISpaces() }
        if tokens.contains("close") { return false }
        return version == "HTTP/1.1" || tokens.contains("keep-alive")
    }
}

private extension Substring {
    func trimmingASCIISpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

/// Why a request head was refused (answered with 400).
enum RequestParseError: Error, Equatable {
    case badRequestLine
    case badHeader
    case unsupportedVersion
}

enum RequestParser {
    /// The most a request head may take; longer heads get 431.
    static let maxHeadBytes = 64 * 1024
    /// The most a request body may take (DataLab's JSON is a few hundred bytes); larger get 413.
    static let maxBodyBytes = 1 << 20

    /// Where the head ends in `buffer` (the index just past the blank line), if it is complete.
    /// Accepts bare LF line ends as well as CRLF, like most servers.
    static func headEnd(in buffer: [UInt8], from start: Int = 0) -> Int? {
        var i = max(0, start)
        while i < buffer.count {
            if buffer[i] == 0x0A {
                if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return i + 2 }
                if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// Parses a complete head (request line and header fields, up to the blank line).
    static func parse(head: ArraySlice<UInt8>) throws(RequestParseError) -> ParsedRequest {
        var lines: [ArraySlice<UInt8>] = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequestLine }

        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[0].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A || $0 == 0x2D }) else { throw .badRequestLine }
        let method = String(decoding: parts[0], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/1.") else { throw .unsupportedVersion }

        var target = Array(parts[1])
        // Absolute form (as a proxy would send it): keep only the path and query.
        for scheme in ["http://", "https://"] where target.starts(with: scheme.utf8) {
            let rest = target.dropFirst(scheme.utf8.count)
            target = rest.firstIndex(of: 0x2F).map { Array(rest[$0...]) } ?? [0x2F]
        }
        guard target.first == 0x2F else { throw .badRequestLine }
        let fragmentStart = target.firstIndex(of: 0x23) ?? target.endIndex
        let withoutFragment = target[..<fragmentStart]
        let pathEnd = withoutFragment.firstIndex(of: 0x3F) ?? withoutFragment.endIndex
        let path = String(decoding: withoutFragment[..<pathEnd], as: UTF8.self)
        let rawQuery = pathEnd < withoutFragment.endIndex ? Array(withoutFragment[(pathEnd + 1)...]) : []

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A) else { throw .badHeader }
            let name = line[..<colon]
            // No whitespace in or around the name; obsolete line folding is refused as RFC 9112 allows.
            guard !name.isEmpty, !name.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw .badHeader }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return ParsedRequest(method: method, target: target, path: path, rawQuery: rawQuery, version: version, headers: headers)
    }
}

/// `application/x-www-form-urlencoded` decoding, the way the API's servlet container decodes a
/// query string: `+` is a space, `%XX` is a byte, and the bytes must be UTF-8.
enum FormDecoding {
    /// One `name=value` pair, decoded. When either half was malformed (a bad `%` escape or
    /// bytes that are not UTF-8), `wellFormed` is false and the text is kept as sent, so the
    /// stats endpoint can still show what arrived.
    struct Parameter: Equatable, Sendable {
        var name: String
        var value: String
        var wellFormed: Bool
    }

    /// Splits on `&` and decodes each pair; empty pieces (`a=1&&b=2`) are skipped, and a piece
    /// without `=` is a name with an empty value.
    static func parameters(_ query: [UInt8]) -> [Parameter] {
        query.split(separator: 0x26, omittingEmptySubsequences: true).map { piece in
            let equals = piece.firstIndex(of: 0x3D)
            let rawName = equals.map { piece[..<$0] } ?? piece[...]
            let rawValue = equals.map { piece[($0 + 1)...] } ?? []
            let name = decode(rawName), value = decode(rawValue)
            return Parameter(name: name ?? String(decoding: rawName, as: UTF8.self),
                             value: value ?? String(decoding: rawValue, as: UTF8.self),
                             wellFormed: name != nil && value != nil)
        }
    }

    /// Nil when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    static func decode(_ encoded: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var i = encoded.startIndex
        while i < encoded.endIndex {
            let byte = encoded[i]
            switch byte {
            case 0x2B:
                bytes.append(0x20)
                i += 1
            case 0x25:
                guard encoded.endIndex - i >= 3, let high = hexValue(encoded[i + 1]), let low = hexValue(encoded[i + 2]) else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            default:
                bytes.append(byte)
                i += 1
            }
        }
        return validUTF8(bytes)
    }

    /// The bytes as a String when they are well-formed UTF-8 (decoding replaces bad sequences
    /// with U+FFFD, so a lossless round trip proves they were valid).
    static func validUTF8(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}

/// A response to write: status, extra header fields and body. `Content-Type`,
/// `Content-Length` and `Connection` are always written by `head`.
struct ServerResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8]
    /// What the body is: JSON for the APIs, 11번가's XML in EUC-KR, the pictures' own types for
    /// `/images/` (`EmulatorPictures`).
    var contentType = "application/json; charset=utf-8"

    /// The status line and header fields. `contentLength` defaults to the body's length; the
    /// `truncated` and `slow` faults announce the full length while sending less.
    /// `keepAlive` says whether the connection stays open for the client's next request.
    func head(contentLength: Int? = nil, keepAlive: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(ServerResponse.reason(for: status))\r\n"
        text += "Content-Type: \(contentType)\r\n"
        text += "Content-Length: \(contentLength ?? body.count)\r\n"
        text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
