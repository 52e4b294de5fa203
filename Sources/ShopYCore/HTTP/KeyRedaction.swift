/// Takes the keys out of an error answer before shopy reads it: a server (or a proxy in front of
/// it) that echoes the request back would otherwise put the keys into an error line (the start
/// of a non-contract body, an `errorMessage`, a `Location`). Every occurrence in the body and the
/// header values becomes `[redacted]` (`URLRedaction.placeholder`). A 2xx answer is the data
/// itself and is left alone (`RetryingRequest`).
public enum KeyRedaction {
    /// Keys shorter than this are left alone: Naver's are 10 (a secret) to 20 (a client id)
    /// characters, and a shorter test key ("id") would cut words out of every message ("Inval[redacted]").
    public static let minimumKeyBytes = 8

    /// `response` with each of `keys` (from `minimumKeyBytes` on) replaced; the same value when none occurs.
    public static func redact(_ keys: [String], in response: HTTPResponse) -> HTTPResponse {
        let needles = keys.map { Array($0.utf8) }.filter { $0.count >= minimumKeyBytes }
        guard !needles.isEmpty else { return response }
        var redacted = response
        redacted.body = replace(needles, in: response.body)
        for (name, value) in response.headers {
            let bytes = replace(needles, in: Array(value.utf8))
            if bytes.count != value.utf8.count || !bytes.elementsEqual(value.utf8) {
                redacted.headers[name] = String(decoding: bytes, as: UTF8.self)
            }
        }
        return redacted
    }

    /// `bytes` with every occurrence of a needle (left to right, longest first where two start
    /// at one place) replaced by the placeholder.
    static func replace(_ needles: [[UInt8]], in bytes: [UInt8]) -> [UInt8] {
        let ordered = needles.sorted { $0.count > $1.count }
        let firsts = Set(ordered.map { $0[0] })
        let placeholder = Array(URLRedaction.placeholder.utf8)
        var output: [UInt8]?
        var copied = 0
        var i = 0
        while i < bytes.count {
            guard firsts.contains(bytes[i]),
                  let needle = ordered.first(where: { $0.count <= bytes.count - i && bytes[i..<(i + $0.count)].elementsEqual($0) }) else {
                i += 1
                continue
            }
            if output == nil { output = []; output!.reserveCapacity(bytes.count) }
            output!.append(contentsOf: bytes[copied..<i])
            output!.append(contentsOf: placeholder)
            i += needle.count
            copied = i
        }
        guard var result = output else { return bytes }
        result.append(contentsOf: bytes[copied...])
        return result
    }
}
