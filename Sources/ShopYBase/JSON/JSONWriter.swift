/// Serializes `JSONValue` trees to UTF-8 bytes.
///
/// Strings stay exact: the value a script reads back is the value we had. Characters that could
/// act on a terminal when JSON is printed raw (C0 and C1 controls, DEL, bidi overrides, line and
/// paragraph separators) are written as `\u` escapes, which decode to the same string.
public struct JSONWriter {
    public var bytes: [UInt8] = []
    public var pretty: Bool

    public init(pretty: Bool = false, capacity: Int = 0) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    public static func serialize(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(value)
        return writer.bytes
    }

    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: serialize(value, pretty: pretty), as: UTF8.self)
    }

    public mutating func write(_ value: JSONValue, indent: Int = 0) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let text): append(text)
        case .string(let s): writeString(s)
        case .array(let elements):
            if elements.isEmpty {
                append("[]")
                return
            }
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.count == 0 {
                append("{}")
                return
            }
            bytes.append(UInt8(ascii: "{"))
            for i in 0..<object.count {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(object.keys[i])
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(object.values[i], indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        for _ in 0..<(indent * 2) { bytes.append(0x20) }
    }

    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func writeString(_ string: String) {
        // Fast path for plain text: copy runs that need no escaping.
        let handled = string.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            writeString(bytes: buffer)
            return true
        }
        if handled == nil {
            bytes.append(0x22)
            // Non-contiguous string (bridged): go scalar by scalar.
            for scalar in string.unicodeScalars {
                let v = scalar.value
                if v < 0x80 {
                    let byte = UInt8(v)
                    if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte == 0x7F { escapeASCII(byte) } else { bytes.append(byte) }
                } else if JSONWriter.mustEscape(v) {
                    escapeScalar(v)
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
            bytes.append(0x22)
        }
    }

    /// `writeString` of the text whose UTF-8 is `buffer` (valid UTF-8): the same bytes.
    package mutating func writeString(bytes buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var runStart = 0
        var i = 0
        let base = UnsafeRawPointer(buffer.baseAddress)
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C), space = SIMD16<UInt8>(repeating: 0x20)
        let del = SIMD16<UInt8>(repeating: 0x7F), c2 = SIMD16<UInt8>(repeating: 0xC2), d8 = SIMD16<UInt8>(repeating: 0xD8)
        let e2 = SIMD16<UInt8>(repeating: 0xE2)
        while i < buffer.count {
            // Sixteen bytes at a time past those that can need an escape (the lead bytes of the
            // scalars that can are C2, D8 and E2).
            if let base, i + 16 <= buffer.count {
                let v = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let special = (v .== quote) .| (v .== backslash) .| (v .< space) .| (v .== del) .| (v .== c2) .| (v .== d8) .| (v .== e2)
                if !any(special) {
                    i += 16
                    continue
                }
            }
            let byte = buffer[i]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte == 0x7F {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<i]))
                escapeASCII(byte)
                runStart = i + 1
            } else if byte >= 0x80 {
                // C1 controls (U+0080–U+009F) are C2 80–C2 9F; the bidi and separator
                // characters we escape are E2 80 8E/8F, E2 80 A8–AE and E2 81 A6–A9, and
                // U+061C is D8 9C.
                if let length = JSONWriter.escapedScalarLength(buffer, i) {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<i]))
                    let scalar = JSONWriter.decodeScalar(buffer, i, length)
                    escapeScalar(scalar)
                    i += length
                    runStart = i
                    continue
                }
            }
            i += 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<buffer.count]))
        bytes.append(0x22)
    }

    static func mustEscape(_ v: UInt32) -> Bool {
        (v >= 0x80 && v <= 0x9F) || v == 0x061C || v == 0x200E || v == 0x200F
            || (v >= 0x2028 && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }

    /// The length of the UTF-8 sequence at `i` when it encodes a scalar we escape, else nil.
    @inline(__always)
    static func escapedScalarLength(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let lead = b[i]
        if lead == 0xC2, i + 1 < b.count, b[i + 1] >= 0x80, b[i + 1] <= 0x9F { return 2 }
        if lead == 0xD8, i + 1 < b.count, b[i + 1] == 0x9C { return 2 }
        if lead == 0xE2, i + 2 < b.count {
            let b1 = b[i + 1], b2 = b[i + 2]
            if b1 == 0x80, b2 == 0x8E || b2 == 0x8F || (b2 >= 0xA8 && b2 <= 0xAE) { return 3 }
            if b1 == 0x81, b2 >= 0xA6 && b2 <= 0xA9 { return 3 }
        }
        return nil
    }

    static func decodeScalar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ length: Int) -> UInt32 {
        if length == 2 { return UInt32(b[i] & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F) }
        return UInt32(b[i] & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
    }

    private mutating func escapeASCII(_ byte: UInt8) {
        switch byte {
        case 0x22: append("\\\"")
        case 0x5C: append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default: escapeScalar(UInt32(byte))
        }
    }

    private mutating func escapeScalar(_ value: UInt32) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        bytes.append(hex[Int((value >> 12) & 0xF)])
        bytes.append(hex[Int((value >> 8) & 0xF)])
        bytes.append(hex[Int((value >> 4) & 0xF)])
        bytes.append(hex[Int(value & 0xF)])
    }
}

extension JSONWriter {
    /// Appends an already valid JSON value given as bytes, laid out as `write` would lay it out:
    /// re-indented at `indent` when pretty, whitespace dropped when compact. Strings are copied
    /// as they are (they were escaped when first written). This lets large stored documents (the
    /// likes) reach the output without being decoded into values and encoded again.
    public mutating func appendRaw(_ raw: ArraySlice<UInt8>, indent: Int = 0) {
        raw.withUnsafeBufferPointer { buffer in appendRaw(buffer, indent: indent) }
    }

    /// The same over a buffer: strings and runs of other bytes are copied a run at a time.
    private mutating func appendRaw(_ raw: UnsafeBufferPointer<UInt8>, indent: Int) {
        var depth = indent
        var i = 0
        let end = raw.count
        let base = UnsafeRawPointer(raw.baseAddress)
        let quote = SIMD16<UInt8>(repeating: 0x22), backslash = SIMD16<UInt8>(repeating: 0x5C)
        while i < end {
            let byte = raw[i]
            switch byte {
            case 0x22:  // a string: copy through its closing quote
                var j = i + 1
                while j < end {
                    // Sixteen bytes at a time past those that are neither a quote nor a backslash.
                    if let base, j + 16 <= end {
                        let v = base.loadUnaligned(fromByteOffset: j, as: SIMD16<UInt8>.self)
                        let lanes = unsafeBitCast((v .== quote) .| (v .== backslash), to: SIMD2<UInt64>.self)
                        if lanes[0] == 0 && lanes[1] == 0 {
                            j += 16
                            continue
                        }
                        j += lanes[0] != 0 ? lanes[0].trailingZeroBitCount / 8 : 8 + lanes[1].trailingZeroBitCount / 8
                    }
                    let c = raw[j]
                    if c == 0x5C { j += 2; continue }
                    if c == 0x22 { break }
                    j += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: raw[i...min(j, end - 1)]))
                i = j + 1
                continue
            case 0x7B, 0x5B:  // { [
                // An empty container stays on one line.
                var k = i + 1
                while k < end, raw[k] == 0x20 || raw[k] == 0x0A || raw[k] == 0x0D || raw[k] == 0x09 { k += 1 }
                if k < end, raw[k] == byte + 2 {
                    bytes.append(byte)
                    bytes.append(byte + 2)
                    i = k + 1
                    continue
                }
                bytes.append(byte)
                depth += 1
                newlineRaw(depth)
            case 0x7D, 0x5D:  // } ]
                depth -= 1
                newlineRaw(depth)
                bytes.append(byte)
            case 0x2C:
                bytes.append(byte)
                newlineRaw(depth)
            case 0x3A:
                bytes.append(byte)
                if pretty { bytes.append(0x20) }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                // A number or a literal: copy the run up to the next structural byte.
                var j = i + 1
                while j < end {
                    let c = raw[j]
                    if c == 0x2C || c == 0x7D || c == 0x5D || c == 0x3A || c == 0x22 || c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x7B || c == 0x5B { break }
                    j += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: raw[i..<j]))
                i = j
                continue
            }
            i += 1
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 32)

    private mutating func newlineRaw(_ indent: Int) {
        guard pretty else { return }
        bytes.append(0x0A)
        let count = indent * 2
        if count <= JSONWriter.spaces.count {
            JSONWriter.spaces.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
        } else {
            bytes.append(contentsOf: repeatElement(0x20, count: count))
        }
    }
}
