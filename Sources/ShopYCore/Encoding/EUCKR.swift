#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// EUC-KR (KS X 1001 in EUC form), the encoding 11번가's XML answers declare, through the C
/// library's iconv (glibc's gconv module on Linux, libiconv on macOS): never a table of our own.
///
/// Decoding is strict: a byte sequence that is not EUC-KR (a stray lead byte, a sequence cut at
/// the end, a CP949/UHC extension) is an error, not a replacement character, so that an answer
/// that lies about its encoding is bad data rather than garbled titles.
public enum EUCKR {
    /// Why bytes are not EUC-KR: the offset of the first bad sequence.
    public struct DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "byte \(offset + 1) \(reason)" }
    }

    /// The converter is missing (a libc without the EUC-KR module).
    static let unavailable = DecodingError(offset: 0, reason: "cannot be read: this system's iconv has no EUC-KR")

    /// `bytes` decoded from EUC-KR to UTF-8.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodingError) -> [UInt8] {
        try checkForm(bytes)
        guard let converter = Converter(to: "UTF-8", from: "EUC-KR") else { throw unavailable }
        defer { converter.close() }
        // Every EUC-KR character is at most 2 bytes and becomes at most 3: 1.5× plus a margin.
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 2 + 16)
        let outcome = converter.convert(bytes, into: &output)
        switch outcome {
        case .done(let written):
            output.removeSubrange(written...)
            return output
        case .failed(let offset, let code):
            throw DecodingError(offset: offset, reason: code == EINVAL ? "starts a sequence that the answer cuts off" : "is not EUC-KR")
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> [UInt8] { try decode(bytes[...]) }

    /// EUC-KR's byte form, which glibc's converter does not hold to (it reads 0x80–0xA0 as C1
    /// controls, so a CP949 extension such as 0x8C 0x63 would pass as U+008C and 'c'): ASCII,
    /// or a lead byte 0xA1–0xFE followed by a trail byte 0xA1–0xFE. Whether the pair is an
    /// assigned character is iconv's to say.
    static func checkForm(_ bytes: ArraySlice<UInt8>) throws(DecodingError) {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte < 0x80 {
                i += 1
                continue
            }
            let offset = i - bytes.startIndex
            guard byte >= 0xA1 && byte <= 0xFE else { throw DecodingError(offset: offset, reason: "is not EUC-KR") }
            guard i + 1 < bytes.endIndex else { throw DecodingError(offset: offset, reason: "starts a sequence that the answer cuts off") }
            let trail = bytes[i + 1]
            guard trail >= 0xA1 && trail <= 0xFE else { throw DecodingError(offset: offset, reason: "is not EUC-KR") }
            i += 2
        }
    }

    /// `text` in EUC-KR, or nil when a character has no EUC-KR form.
    public static func encode(_ text: String) -> [UInt8]? {
        encode(text, fallback: { _ in nil })
    }

    /// `text` in EUC-KR; a character without an EUC-KR form is replaced by `fallback`'s ASCII
    /// text (the emulator writes `&#xAC00;`), or the whole is nil when `fallback` gives none.
    public static func encode(_ text: String, fallback: (Unicode.Scalar) -> String?) -> [UInt8]? {
        guard let converter = Converter(to: "EUC-KR", from: "UTF-8") else { return nil }
        defer { converter.close() }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16)
        func flush() -> Bool {
            guard !pending.isEmpty else { return true }
            var chunk = [UInt8](repeating: 0, count: pending.count * 2 + 16)
            guard case .done(let written) = converter.convert(pending[...], into: &chunk) else { return false }
            out += chunk[..<written]
            pending.removeAll(keepingCapacity: true)
            return true
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                pending.append(UInt8(scalar.value))
                continue
            }
            let utf8 = Array(String(scalar).utf8)
            if case .done(let written) = converter.convert(utf8[...], into: &buffer) {
                guard flush() else { return nil }
                out += buffer[..<written]
            } else {
                guard flush(), let replacement = fallback(scalar), replacement.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
                out += replacement.utf8
            }
        }
        guard flush() else { return nil }
        return out
    }

    /// One iconv descriptor.
    private final class Converter {
        enum Outcome { case done(Int), failed(offset: Int, errno: Int32) }

        private let descriptor: iconv_t

        init?(to: String, from: String) {
            let opened = iconv_open(to, from)
            guard let opened, Int(bitPattern: opened) != -1 else { return nil }
            descriptor = opened
        }

        func close() { iconv_close(descriptor) }

        /// Converts all of `input` into `output` (grown when too small), from the initial state.
        func convert(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) -> Outcome {
            _ = iconv(descriptor, nil, nil, nil, nil)  // the initial shift state
            var written = 0
            var consumed = 0
            let total = input.count
            while true {
                let result: (Int, Int, Int32) = input.withUnsafeBufferPointer { source in
                    output.withUnsafeMutableBufferPointer { target in
                        var inPointer = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + consumed })
                            .map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
                        var inLeft = total - consumed
                        var outPointer = target.baseAddress.map { UnsafeMutableRawPointer($0 + written).assumingMemoryBound(to: CChar.self) }
                        var outLeft = target.count - written
                        let status = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                        let code: Int32 = status == -1 ? errno : 0
                        return (total - inLeft, target.count - outLeft, code)
                    }
                }
                consumed = result.0
                written = result.1
                switch result.2 {
                case 0:
                    // Flush any state the converter holds (none for these encodings).
                    return .done(written)
                case E2BIG:
                    output += [UInt8](repeating: 0, count: max(64, output.count))
                default:
                    return .failed(offset: consumed, errno: result.2)
                }
            }
        }
    }
}
