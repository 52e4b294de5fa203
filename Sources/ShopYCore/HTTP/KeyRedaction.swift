import ShopYBase
/// Takes the keys out of an error answer before shopy reads it: a server (or a proxy in front of
/// it) that echoes the request back would otherwise put the keys into an error line (the start
/// of a non-contract body, an `errorMessage`, a `Location`). Every occurrence in the body and the
/// header values, as is or percent-encoded (the way a URL carries it), becomes `[redacted]`
/// (`URLRedaction.placeholder`). A 2xx answer is the data
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

    /// `text` with each of `keys` (from `minimumKeyBytes` on) replaced.
    public static func redact(_ keys: [String], in text: String) -> String {
        let needles = keys.map { Array($0.utf8) }.filter { $0.count >= minimumKeyBytes }
        guard !needles.isEmpty else { return text }
        return String(decoding: replace(needles, in: Array(text.utf8)), as: UTF8.self)
    }

    /// `bytes` with every occurrence of a needle (left to right, longest first where two start
    /// at one place) replaced by the placeholder. A needle occurs in any form a URL can give it
    /// (`matchLength`): keys travel in queries (11번가's), and what quotes a request back quotes
    /// it encoded.
    static func replace(_ needles: [[UInt8]], in bytes: [UInt8]) -> [UInt8] {
        let ordered = needles.sorted { $0.count > $1.count }
        var firsts = Set(ordered.flatMap { [lower($0[0]), upper($0[0])] })
        firsts.formUnion([UInt8(ascii: "%"), UInt8(ascii: "\\"), UInt8(ascii: "&")])
        if firsts.contains(0x20) { firsts.insert(UInt8(ascii: "+")) }
        let placeholder = Array(URLRedaction.placeholder.utf8)
        var output: [UInt8]?
        var copied = 0
        var i = 0
        while i < bytes.count {
            guard firsts.contains(bytes[i]), let length = ordered.lazy.compactMap({ matchLength($0, in: bytes, at: i) }).first else {
                i += 1
                continue
            }
            if output == nil { output = []; output!.reserveCapacity(bytes.count) }
            output!.append(contentsOf: bytes[copied..<i])
            output!.append(contentsOf: placeholder)
            i += length
            copied = i
        }
        guard var result = output else { return bytes }
        result.append(contentsOf: bytes[copied...])
        return result
    }

    /// How many bytes at `start` spell `needle`, each of its bytes written as itself or
    /// escaped the way a URL, a JSON string or HTML writes it (`%2B` in either hex case,
    /// `\u002B` and `\/`, `&#43;` and `&#x2b;`), byte by byte, so a partly escaped copy counts
    /// too; a space also as `+`; ASCII letters in either case (a server that echoes a
    /// hexadecimal key may change its case). Nil when they do not.
    static func matchLength(_ needle: [UInt8], in bytes: [UInt8], at start: Int) -> Int? {
        var j = start
        for byte in needle {
            guard j < bytes.count else { return nil }
            if lower(bytes[j]) == lower(byte) || (byte == 0x20 && bytes[j] == UInt8(ascii: "+")) {
                j += 1
            } else if let (value, length) = escaped(bytes, at: j), lower(value) == lower(byte) {
                j += length
            } else {
                return nil
            }
        }
        return j - start
    }

    /// The byte an escape at `i` stands for, and the escape's length: `%XX`, `\u00XX`, `\/`,
    /// `&#D;` to `&#DDDD;`, `&#xX;` to `&#xXXXX;` (only escapes of one ASCII byte: keys are ASCII).
    static func escaped(_ bytes: [UInt8], at i: Int) -> (UInt8, Int)? {
        func hex(_ k: Int) -> UInt8? { k < bytes.count ? hexValue(bytes[k]) : nil }
        switch bytes[i] {
        case UInt8(ascii: "%"):
            guard let high = hex(i + 1), let low = hex(i + 2) else { return nil }
            return (high << 4 | low, 3)
        case UInt8(ascii: "\\"):
            guard i + 1 < bytes.count else { return nil }
            if bytes[i + 1] == UInt8(ascii: "/") { return (UInt8(ascii: "/"), 2) }
            guard bytes[i + 1] == UInt8(ascii: "u"), hex(i + 2) == 0, hex(i + 3) == 0, let high = hex(i + 4), let low = hex(i + 5) else { return nil }
            return (high << 4 | low, 6)
        case UInt8(ascii: "&"):
            guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "#") else { return nil }
            let isHex = bytes[i + 2] == UInt8(ascii: "x") || bytes[i + 2] == UInt8(ascii: "X")
            var k = i + (isHex ? 3 : 2), value = 0, digits = 0
            while k < bytes.count, digits < 4 {
                if isHex, let d = hexValue(bytes[k]) {
                    value = value * 16 + Int(d)
                } else if !isHex, bytes[k] &- 0x30 < 10 {
                    value = value * 10 + Int(bytes[k] - 0x30)
                } else {
                    break
                }
                k += 1
                digits += 1
            }
            guard digits > 0, value < 0x80, k < bytes.count, bytes[k] == UInt8(ascii: ";") else { return nil }
            return (UInt8(value), k + 1 - i)
        default:
            return nil
        }
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
    static func upper(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte & ~0x20 : byte }

    /// What a server wrote in an error (an `errorMessage`, an `rMessage`, an error code) as shopy
    /// shows it, for every source: the keys taken out of the whole text first (after the JSON
    /// was decoded: a `\u0034` in the body spells a key's `4` only then; and before any cut, so
    /// that a key across it is still found whole), then cleaned for a terminal and cut at
    /// `limit` characters with `…` (an answer may hold megabytes of it). `keys` is empty where
    /// the caller redacts later with the keys it holds.
    public static func serverText(_ text: String, keys: [String], limit: Int = 300) -> String {
        let redacted = redact(keys, in: text)
        let head = redacted.prefix(limit * 2)
        let shown = Sanitizer.clean(String(head))
        guard head.endIndex < redacted.endIndex || shown.count > limit else { return shown }
        return String(shown.prefix(limit)) + "…"
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
